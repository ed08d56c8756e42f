import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, type ManagedFieldsEntry, type SchemaRoot } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import { applyConfiguration, updateManagedFields } from "./managed-fields.ts";
import { configMapSchema, deploymentSchema } from "./test-fixtures.ts";

const t0 = "2024-05-01T10:00:00Z";
const t1 = "2024-05-01T10:00:01Z";
const t2 = "2024-05-01T10:00:02Z";

function configMap(data: Record<string, string>, extra: Record<string, Json> = {}): JsonObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "cfg", namespace: "default", ...extra },
    data,
  };
}

/** `[manager/operation, fieldsV1]` pairs: what the tests compare. */
function summary(entries: readonly ManagedFieldsEntry[]): [string, unknown][] {
  return entries.map((e) => [
    `${e.manager}/${e.operation}${e.subresource === undefined ? "" : `/${e.subresource}`}`,
    e.fieldsV1,
  ]);
}

function withFields(obj: JsonObject, entries: readonly ManagedFieldsEntry[]): JsonObject {
  const copy = structuredClone(obj);
  (copy["metadata"] as Record<string, unknown>)["managedFields"] = entries as unknown as Json;
  return copy;
}

function update(
  live: JsonObject | undefined,
  updated: JsonObject,
  manager: string,
  options: { subresource?: string; schema?: SchemaRoot; time?: string } = {},
): JsonObject {
  const managedFields = updateManagedFields({
    live,
    updated,
    manager,
    apiVersion: "v1",
    time: options.time ?? t0,
    schema: options.schema ?? configMapSchema,
    ...(options.subresource === undefined ? {} : { subresource: options.subresource }),
  });
  return withFields(updated, managedFields);
}

function apply(
  live: JsonObject | undefined,
  applied: JsonObject,
  manager: string,
  options: { force?: boolean; time?: string; subresource?: string; apiVersion?: string } = {},
): JsonObject {
  return applyConfiguration({
    live,
    applied,
    manager,
    apiVersion: options.apiVersion ?? "v1",
    force: options.force ?? false,
    time: options.time ?? t1,
    schema: configMapSchema,
    ...(options.subresource === undefined ? {} : { subresource: options.subresource }),
  }).object;
}

function entriesOf(obj: JsonObject): ManagedFieldsEntry[] {
  return ((obj["metadata"] as Record<string, unknown>)["managedFields"] ??
    []) as ManagedFieldsEntry[];
}

function applyError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error: unknown) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail("expected an ApiError");
}

const created = update(
  undefined,
  configMap({ a: "1" }, { labels: { app: "x" } }),
  "kubectl-create",
);

const updateCases = [
  {
    name: "a create gives every set field to the writer, metadata identity stripped",
    got: () => entriesOf(created),
    want: [
      [
        "kubectl-create/Update",
        {
          "f:data": { ".": {}, "f:a": {} },
          "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
        },
      ],
    ],
  },
  {
    name: "changed and added fields move to the writer",
    got: () =>
      entriesOf(
        update(created, configMap({ a: "2", b: "3" }, { labels: { app: "x" } }), "kubectl-edit"),
      ),
    want: [
      [
        "kubectl-create/Update",
        { "f:data": {}, "f:metadata": { "f:labels": { ".": {}, "f:app": {} } } },
      ],
      ["kubectl-edit/Update", { "f:data": { "f:a": {}, "f:b": {} } }],
    ],
  },
  {
    name: "removed fields leave every entry and empty entries are dropped",
    got: () => {
      const edited = update(
        created,
        configMap({ a: "2" }, { labels: { app: "x" } }),
        "kubectl-edit",
      );
      const { data: _, ...withoutData } = configMap({}, { labels: { app: "x" } });
      return entriesOf(update(edited, withoutData, "kubectl-replace"));
    },
    want: [["kubectl-create/Update", { "f:metadata": { "f:labels": { ".": {}, "f:app": {} } } }]],
  },
  {
    name: "a no-op write changes nothing, not even the time",
    got: () =>
      entriesOf(
        update(created, configMap({ a: "1" }, { labels: { app: "x" } }), "other", { time: t2 }),
      ),
    want: summary(entriesOf(created)),
  },
  {
    name: "status is not tracked on the main resource",
    got: () =>
      entriesOf(
        update(
          undefined,
          { metadata: { name: "d" }, spec: { replicas: 1 }, status: { replicas: 1 } },
          "m",
          {
            schema: deploymentSchema,
          },
        ),
      ),
    want: [["m/Update", { "f:spec": { ".": {}, "f:replicas": {} } }]],
  },
  {
    name: "a subresource write is recorded with its subresource",
    got: () =>
      entriesOf(
        update(undefined, { metadata: { name: "d" }, status: { replicas: 2 } }, "kubelet", {
          schema: deploymentSchema,
          subresource: "status",
        }),
      ),
    want: [["kubelet/Update/status", { "f:status": { ".": {}, "f:replicas": {} } }]],
  },
] as const;

for (const c of updateCases) {
  test(`updateManagedFields: ${c.name}`, () => {
    assert.deepEqual(summary(c.got()), c.want);
  });
}

test("updateManagedFields: client-supplied managedFields are taken verbatim", () => {
  const supplied: ManagedFieldsEntry[] = [
    {
      manager: "kubectl",
      operation: "Apply",
      apiVersion: "v1",
      time: t0,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { "f:a": {} } },
    },
  ];
  const next = withFields(created, supplied);
  assert.deepEqual(
    updateManagedFields({
      live: created,
      updated: next,
      manager: "kubectl-last-applied",
      apiVersion: "v1",
      time: t2,
      schema: configMapSchema,
    }),
    supplied,
  );
});

test("updateManagedFields: invalid client-supplied managedFields fall back to the live ones", () => {
  const next = withFields(created, [{ manager: "x", operation: "Apply", apiVersion: "v1" }]);
  assert.deepEqual(
    updateManagedFields({
      live: created,
      updated: next,
      manager: "m",
      apiVersion: "v1",
      time: t2,
      schema: configMapSchema,
    }),
    entriesOf(created),
  );
});

test("updateManagedFields: an empty list resets tracking until the next apply", () => {
  const reset = update(created, withFields(created, []), "m");
  assert.deepEqual(entriesOf(reset), []);
  const later = update(reset, configMap({ a: "9" }), "kubectl-edit");
  assert.deepEqual(entriesOf(later), []);
});

test("updateManagedFields: a subresource write ignores managedFields in the request", () => {
  const next = withFields(created, []);
  const got = updateManagedFields({
    live: created,
    updated: next,
    manager: "m",
    apiVersion: "v1",
    subresource: "status",
    time: t2,
    schema: configMapSchema,
  });
  assert.deepEqual(got, entriesOf(created));
});

test("updateManagedFields: more than ten updaters fold the oldest into ancient-changes", () => {
  let obj = created;
  const data: Record<string, string> = { a: "1" };
  for (let i = 0; i < 11; i++) {
    data[`k${i}`] = "v";
    obj = update(obj, configMap({ ...data }, { labels: { app: "x" } }), `m${i}`, {
      time: `2024-05-01T10:00:${String(10 + i)}Z`,
    });
  }
  const managers = entriesOf(obj).map((e) => e.manager);
  assert.equal(managers.length, 10);
  assert.ok(managers.includes("ancient-changes"), 'managers.includes("ancient-changes")');
  assert.ok(!managers.includes("kubectl-create"), '!managers.includes("kubectl-create")');
});

test("applyConfiguration: creates the object and records an Apply entry", () => {
  const result = applyConfiguration({
    live: undefined,
    applied: configMap({ a: "1" }),
    manager: "mgr",
    apiVersion: "v1",
    force: false,
    time: t0,
    schema: configMapSchema,
  });
  assert.deepEqual(result.managedFields, [
    {
      manager: "mgr",
      operation: "Apply",
      apiVersion: "v1",
      time: t0,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { "f:a": {} } },
    },
  ]);
  assert.deepEqual(result.object["data"], { a: "1" });
  assert.deepEqual(entriesOf(result.object), result.managedFields);
});

const patched = update(
  apply(undefined, configMap({ a: "1" }), "mgr"),
  configMap({ a: "2", b: "2" }),
  "kubectl-patch",
  { time: t2 },
);

const conflictCases = [
  {
    name: "one conflict with an updater",
    run: () => apply(patched, configMap({ a: "3" }), "mgr"),
    message: 'Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .data.a',
    causes: [
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "kubectl-patch" using v1',
        field: ".data.a",
      },
    ],
  },
  {
    name: "several conflicts grouped by manager",
    run: () =>
      apply(
        apply(patched, configMap({ c: "1" }), "other"),
        configMap({ a: "3", b: "3", c: "3" }),
        "mgr",
      ),
    message:
      'Apply failed with 3 conflicts: conflicts with "kubectl-patch" using v1:\n- .data.a\n- .data.b\nconflicts with "other":\n- .data.c',
    causes: [
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "kubectl-patch" using v1',
        field: ".data.a",
      },
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "kubectl-patch" using v1',
        field: ".data.b",
      },
      { reason: "FieldManagerConflict", message: 'conflict with "other"', field: ".data.c" },
    ],
  },
  {
    name: "a subresource manager names its subresource",
    run: () =>
      apply(
        apply(patched, configMap({ d: "1" }), "ctl", { subresource: "status" }),
        configMap({ d: "2" }),
        "mgr",
      ),
    message: 'Apply failed with 1 conflict: conflict with "ctl" with subresource "status": .data.d',
    causes: [
      {
        reason: "FieldManagerConflict",
        message: 'conflict with "ctl" with subresource "status"',
        field: ".data.d",
      },
    ],
  },
] as const;

for (const c of conflictCases) {
  test(`applyConfiguration: 409 for ${c.name}`, () => {
    const error = applyError(c.run);
    assert.equal(error.code, 409);
    assert.equal(error.reason, "Conflict");
    assert.equal(error.message, c.message);
    assert.deepEqual(error.details, { causes: c.causes });
  });
}

test("applyConfiguration: setting the value another manager owns shares it", () => {
  const got = apply(patched, configMap({ a: "2" }), "mgr");
  assert.deepEqual(summary(entriesOf(got)), [
    ["mgr/Apply", { "f:data": { "f:a": {} } }],
    ["kubectl-patch/Update", { "f:data": { "f:a": {}, "f:b": {} } }],
  ]);
});

test("applyConfiguration: force moves ownership to the applier", () => {
  const got = apply(patched, configMap({ a: "3" }), "mgr", { force: true });
  assert.deepEqual(got["data"], { a: "3", b: "2" });
  assert.deepEqual(summary(entriesOf(got)), [
    ["mgr/Apply", { "f:data": { "f:a": {} } }],
    ["kubectl-patch/Update", { "f:data": { "f:b": {} } }],
  ]);
});

test("applyConfiguration: fields the applier drops are removed unless someone else owns them", () => {
  const first = apply(undefined, configMap({ a: "1", b: "1", c: "1" }), "mgr");
  const shared = apply(first, configMap({ c: "1" }), "other");
  const got = apply(shared, configMap({ a: "1" }), "mgr", { time: t2 });
  assert.deepEqual(got["data"], { a: "1", c: "1" });
});

test("applyConfiguration: list-maps merge by key, sets union, atomic lists are replaced", () => {
  const spec = (containers: Json, finalizers: Json): JsonObject => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { spec: { containers, finalizers } } },
  });
  const run = (live: JsonObject | undefined, applied: JsonObject, manager: string): JsonObject =>
    applyConfiguration({
      live,
      applied,
      manager,
      apiVersion: "apps/v1",
      force: false,
      time: t0,
      schema: deploymentSchema,
    }).object;
  const a = run(undefined, spec([{ name: "a", image: "1", args: ["x", "y"] }], ["f1"]), "one");
  const b = run(
    a,
    spec(
      [
        { name: "b", image: "2" },
        { name: "a", args: ["x", "y"] },
      ],
      ["f2"],
    ),
    "two",
  );
  assert.deepEqual((b["spec"] as { template: unknown }).template, {
    spec: {
      containers: [
        { name: "b", image: "2" },
        { name: "a", image: "1", args: ["x", "y"] },
      ],
      finalizers: ["f1", "f2"],
    },
  });
});

const rejectCases = [
  {
    name: "managedFields in the configuration",
    run: () => apply(undefined, configMap({}, { managedFields: [] }), "m"),
    code: 400,
    message: "metadata.managedFields must be nil",
  },
  {
    name: "a configuration of another version",
    run: () => apply(undefined, configMap({}), "m", { apiVersion: "v2" }),
    code: 400,
    message:
      "Incorrect version specified in apply patch. Specified patch version: v1, expected: v2",
  },
  {
    name: "a configuration that does not fit the schema",
    run: () => apply(undefined, { ...configMap({}), spec: {} }, "m"),
    code: 500,
    message:
      "failed to create typed patch object (default/cfg; /v1, Kind=ConfigMap): .spec: field not declared in schema",
  },
] as const;

for (const c of rejectCases) {
  test(`applyConfiguration: rejects ${c.name}`, () => {
    const error = applyError(c.run);
    assert.equal(error.code, c.code);
    assert.equal(error.message, c.message);
  });
}

test("applyConfiguration: fields of an untracked object belong to before-first-apply", () => {
  const error = applyError(() => apply(configMap({ a: "1" }), configMap({ a: "2" }), "mgr"));
  assert.equal(
    error.message,
    'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a',
  );
});

test("applyConfiguration: an explicit empty ignore set tracks status on the main resource", () => {
  const result = applyConfiguration({
    live: undefined,
    applied: {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      status: { replicas: 1 },
    },
    manager: "m",
    apiVersion: "apps/v1",
    force: false,
    time: t0,
    schema: deploymentSchema,
    ignoredFields: FieldSet.empty(),
  });
  assert.deepEqual(summary(result.managedFields), [
    ["m/Apply", { "f:status": { "f:replicas": {} } }],
  ]);
});

test("applyConfiguration: a repeated identical apply keeps the stored entries, time included", () => {
  const first = apply(undefined, configMap({ a: "1" }), "mgr", { time: t0 });
  const again = apply(first, configMap({ a: "1" }), "mgr", { time: t2 });
  assert.deepEqual(again, first);
});
