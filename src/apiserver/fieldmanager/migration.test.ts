import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, type ManagedFieldsEntry } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import { buildLastApplied, lastAppliedAnnotation } from "./last-applied.ts";
import { applyConfiguration, updateManagedFields } from "./managed-fields.ts";
import { configMapSchema as schema } from "./test-fixtures.ts";

// kubectl apply --server-side on an object last written by client-side apply (kubectl 1.26+):
// SSA as "kubectl", SSA of the annotation alone as "kubectl-last-applied", a JSON patch that
// moves the client-side-apply entry into kubectl's Apply entry, and a final SSA.

const manifest = (data: Record<string, string>): JsonObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "cfg", namespace: "default" },
  data,
});

/** What client-side apply stores: the manifest with `"annotations":{}` and a trailing newline. */
function csaAnnotation(data: Record<string, string>): string {
  const m = manifest(data);
  (m["metadata"] as Record<string, Json>)["annotations"] = {};
  return buildLastApplied(m);
}

function meta(obj: JsonObject): Record<string, Json> {
  return obj["metadata"] as Record<string, Json>;
}

function entries(obj: JsonObject): ManagedFieldsEntry[] {
  return (meta(obj)["managedFields"] ?? []) as unknown as ManagedFieldsEntry[];
}

function ssa(live: JsonObject, applied: JsonObject, manager: string, time: string): JsonObject {
  return applyConfiguration({
    live,
    applied,
    manager,
    apiVersion: "v1",
    force: false,
    time,
    schema,
  }).object;
}

/** kubectl's `csaupgrade.UpgradeManagedFields`, reduced to the case kubectl hits. */
function upgradeManagedFields(list: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const csa = list.find(
    (e) => e.manager === "kubectl-client-side-apply" && e.operation === "Update",
  );
  const ssaEntry = list.find((e) => e.manager === "kubectl" && e.operation === "Apply");
  assert.ok(
    csa !== undefined && ssaEntry !== undefined,
    "csa !== undefined && ssaEntry !== undefined",
  );
  const union = FieldSet.fromFieldsV1(ssaEntry.fieldsV1).union(FieldSet.fromFieldsV1(csa.fieldsV1));
  return list
    .filter((e) => e !== csa)
    .map((e) => (e === ssaEntry ? { ...e, fieldsV1: union.toFieldsV1() } : e));
}

function csaCreated(): JsonObject {
  const created = manifest({ a: "1", b: "2" });
  meta(created)["annotations"] = { [lastAppliedAnnotation]: csaAnnotation({ a: "1", b: "2" }) };
  meta(created)["resourceVersion"] = "1";
  const managedFields = updateManagedFields({
    live: undefined,
    updated: created,
    manager: "kubectl-client-side-apply",
    apiVersion: "v1",
    time: "2024-05-01T10:00:00Z",
    schema,
  });
  meta(created)["managedFields"] = managedFields as unknown as Json;
  return created;
}

test("applyConfiguration: survives kubectl's client-side to server-side apply migration", () => {
  const v2 = manifest({ a: "10", c: "3" });

  // 1. SSA as kubectl: the conflict on .data.a is allowed, since the annotation shows it as applied.
  const step1 = ssa(csaCreated(), v2, "kubectl", "2024-05-01T10:01:00Z");
  assert.deepEqual(step1["data"], { a: "10", b: "2", c: "3" });
  const annotation = (meta(step1)["annotations"] as Record<string, string>)[lastAppliedAnnotation];
  assert.equal(
    annotation,
    '{"apiVersion":"v1","data":{"a":"10","c":"3"},"kind":"ConfigMap","metadata":{"name":"cfg","namespace":"default"}}\n',
  );

  // 2. SSA of the annotation alone as kubectl-last-applied: same value, so shared, no conflict.
  const justAnnotation = manifest({});
  delete justAnnotation["data"];
  meta(justAnnotation)["annotations"] = { [lastAppliedAnnotation]: annotation ?? "" };
  const step2 = ssa(step1, justAnnotation, "kubectl-last-applied", "2024-05-01T10:01:01Z");

  // 3. JSON patch replacing managedFields (with a resourceVersion precondition): kept verbatim.
  const upgraded = upgradeManagedFields(entries(step2));
  const patched = structuredClone(step2);
  meta(patched)["managedFields"] = upgraded as unknown as Json;
  const step3Fields = updateManagedFields({
    live: step2,
    updated: patched,
    manager: "kubectl-last-applied",
    apiVersion: "v1",
    time: "2024-05-01T10:01:02Z",
    schema,
  });
  assert.deepEqual(step3Fields, upgraded);
  meta(patched)["managedFields"] = step3Fields as unknown as Json;

  // 4. The final SSA prunes what only client-side apply had set, and keeps the annotation.
  const step4 = ssa(patched, v2, "kubectl", "2024-05-01T10:01:03Z");
  assert.deepEqual(step4["data"], { a: "10", c: "3" });
  assert.deepEqual(Object.keys(meta(step4)["annotations"] as object), [lastAppliedAnnotation]);
  assert.deepEqual(
    entries(step4).map((e) => [e.manager, e.operation, e.fieldsV1]),
    [
      [
        "kubectl-last-applied",
        "Apply",
        { "f:metadata": { "f:annotations": { [`f:${lastAppliedAnnotation}`]: {} } } },
      ],
      ["kubectl", "Apply", { "f:data": { "f:a": {}, "f:c": {} } }],
    ],
  );
});

test("applyConfiguration: kubectl still conflicts on fields changed since the last client-side apply", () => {
  const created = csaCreated();
  const edited = structuredClone(created);
  (edited["data"] as Record<string, string>)["a"] = "5";
  meta(edited)["managedFields"] = updateManagedFields({
    live: created,
    updated: edited,
    manager: "kubectl-edit",
    apiVersion: "v1",
    time: "2024-05-01T10:00:30Z",
    schema,
  }) as unknown as Json;
  assert.throws(
    () => ssa(edited, manifest({ a: "10" }), "kubectl", "2024-05-01T10:01:00Z"),
    (e: unknown) =>
      e instanceof ApiError &&
      e.message === 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.a',
  );
});

test("applyConfiguration: other managers get no last-applied allowance", () => {
  assert.throws(
    () => ssa(csaCreated(), manifest({ a: "10" }), "helm", "2024-05-01T10:01:00Z"),
    (e: unknown) =>
      e instanceof ApiError &&
      e.message ===
        'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a',
  );
});
