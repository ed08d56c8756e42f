import assert from "node:assert/strict";
import { test } from "node:test";
import type { ManagedFieldsEntry } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import { CreateMemo, createPartKey } from "./create-memo.ts";
import { FieldSet } from "./field-set.ts";
import { newFieldManager, updateManagedFields } from "./managed-fields.ts";
import { deploymentSchema } from "./test-fixtures.ts";

const time = "2024-05-01T10:00:00Z";

function deployment(
  name: string,
  containers: readonly string[],
  extra: { labels?: Record<string, string>; finalizers?: string[]; uid?: string } = {},
): JsonObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name,
      namespace: "default",
      ...(extra.uid === undefined ? {} : { uid: extra.uid }),
      labels: extra.labels ?? { app: name },
    },
    spec: {
      replicas: 2,
      template: {
        spec: {
          containers: containers.map((c) => ({
            name: c,
            image: `${c}:1`,
            ports: [{ containerPort: 80 }],
          })),
          ...(extra.finalizers === undefined ? {} : { finalizers: extra.finalizers }),
        },
      },
    },
  };
}

/** The input of a create of `obj` by kubectl. */
function createOf(obj: JsonObject): Parameters<typeof updateManagedFields>[0] {
  return {
    live: undefined,
    updated: obj,
    manager: "kubectl-create",
    apiVersion: "apps/v1",
    time,
    schema: deploymentSchema,
  };
}

function created(fm: ReturnType<typeof newFieldManager>, obj: JsonObject): ManagedFieldsEntry[] {
  return fm.update(createOf(obj));
}

function uncached(obj: JsonObject): ManagedFieldsEntry[] {
  return updateManagedFields(createOf(obj));
}

/** The part keys of an object's top-level fields, joined. */
function shapeKey(obj: JsonObject, subresource = ""): string {
  return Object.keys(obj)
    .map((k) => createPartKey(subresource, k, obj[k]))
    .join("\n---\n");
}

test("replicas of one template share part keys: names, uids and label values are blanked", () => {
  const a = deployment("a", ["web"], { uid: "1", labels: { app: "a", shard: "1" } });
  const b = deployment("bb", ["web"], { uid: "2", labels: { app: "bb", shard: "2" } });
  assert.equal(shapeKey(a), shapeKey(b), "only leaf values differ");
  assert.notEqual(shapeKey(a), shapeKey(a, "status"), "the subresource counts");
  assert.notEqual(
    createPartKey("", "spec", a["spec"]),
    createPartKey("", "other", a["spec"]),
    "the field counts",
  );
});

test("values outside lists are reduced to their JSON type: replicas' differing fields share a key", () => {
  const a = deployment("a", ["web"]);
  const b = deployment("a", ["web"]);
  (b["spec"] as Record<string, unknown>)["replicas"] = 7;
  assert.equal(shapeKey(a), shapeKey(b), "another number");
  (b["spec"] as Record<string, unknown>)["replicas"] = "7";
  assert.notEqual(shapeKey(a), shapeKey(b), "a string is another type");
  (b["spec"] as Record<string, unknown>)["replicas"] = null;
  assert.notEqual(shapeKey(a), shapeKey(b), "null is another type");
});

test("values inside lists are part of the shape: list-map keys and set items name fields", () => {
  const web = shapeKey(deployment("a", ["web"]));
  assert.notEqual(web, shapeKey(deployment("a", ["api"])), "a container's name");
  assert.notEqual(
    shapeKey(deployment("a", ["web"], { finalizers: ["x"] })),
    shapeKey(deployment("a", ["web"], { finalizers: ["y"] })),
    "a set item",
  );
  assert.notEqual(
    web,
    shapeKey(deployment("a", ["web"], { labels: { app: "a", extra: "" } })),
    "a label's key",
  );
});

test("a remembered create owns exactly what the walk computes, for every shape in turn", () => {
  const fm = newFieldManager();
  const objects = [
    deployment("a", ["web"]),
    deployment("b", ["web"], { labels: { app: "b", tier: "x" } }),
    deployment("c", ["api", "sidecar"]),
    deployment("d", ["web"]),
    deployment("e", ["api", "sidecar"], { finalizers: ["f1", "f2"] }),
    deployment("f", ["api", "sidecar"], { finalizers: ["f3"] }),
    deployment("g", ["web"], { labels: { app: "g", tier: "y" } }),
  ];
  for (const obj of objects) {
    const name = (obj["metadata"] as { name: string }).name;
    assert.deepEqual(created(fm, obj), uncached(obj), `deployment ${name}, first and again`);
    assert.deepEqual(created(fm, obj), uncached(obj), `deployment ${name}, remembered`);
  }
});

test("objects of one shape share their parts' frozen FieldsV1", () => {
  const fm = newFieldManager();
  const first = created(fm, deployment("a", ["web"]))[0]?.fieldsV1 as Record<string, unknown>;
  const second = created(fm, deployment("b", ["web"]))[0]?.fieldsV1 as Record<string, unknown>;
  assert.ok(first !== undefined && second !== undefined, "the creates are tracked");
  assert.equal(first["f:spec"], second["f:spec"], "the same object under f:spec");
  assert.equal(first["f:metadata"], second["f:metadata"], "the same object under f:metadata");
  assert.ok(Object.isFrozen(first["f:spec"]), "frozen, so no holder can change it for the others");
});

test("objects that differ in one top-level field share the others' parts: owner references", () => {
  const fm = newFieldManager();
  const owned = (name: string, uid: string): JsonObject => {
    const obj = deployment(name, ["web", "sidecar"]);
    (obj["metadata"] as Record<string, unknown>)["ownerReferences"] = [
      { apiVersion: "v1", kind: "Pod", name: `pod-${name}`, uid, controller: true },
    ];
    return obj;
  };
  const entries = ["a", "b", "c"].map((name, i) => {
    const obj = owned(name, `uid-${i}`);
    const entry = created(fm, obj);
    assert.deepEqual(entry, uncached(obj), `${name}: what the walk computes`);
    return entry[0]?.fieldsV1 as Record<string, unknown>;
  });
  assert.equal(entries[0]?.["f:spec"], entries[2]?.["f:spec"], "the spec part is shared");
  assert.notDeepEqual(entries[0]?.["f:metadata"], entries[1]?.["f:metadata"], "owners differ");
});

test("the memo forgets its oldest shape beyond its capacity", () => {
  const memo = new CreateMemo(2);
  const part = { member: true, below: FieldSet.empty(), fieldsV1: {} };
  memo.set("a", part);
  memo.set("b", part);
  memo.set("c", part);
  assert.equal(memo.get("a"), undefined, "the oldest went");
  assert.ok(memo.get("b") !== undefined && memo.get("c") !== undefined, "the newest two stay");
});

test("randomized: remembered creates always own what the walk computes", () => {
  let seed = 42;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const names = ["web", "api", "sidecar"];
  const fm = newFieldManager();
  for (let i = 0; i < 300; i++) {
    const containers = names.filter(() => next(2) === 0);
    const labels: Record<string, string> = { app: `a${next(5)}` };
    if (next(3) === 0) labels["tier"] = `t${next(4)}`;
    const obj = deployment(`d${i}`, containers, {
      labels,
      uid: `u${i}`,
      ...(next(2) === 0 ? { finalizers: [`f${next(3)}`] } : {}),
    });
    const spec = obj["spec"] as Record<string, unknown>;
    if (next(2) === 0) spec["replicas"] = next(10);
    if (next(4) === 0) delete spec["replicas"];
    assert.deepEqual(created(fm, obj), uncached(obj), `object ${i}`);
  }
});
