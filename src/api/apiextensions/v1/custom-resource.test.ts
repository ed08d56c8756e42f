import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import type { KubeObject } from "../../meta/types.ts";
import { kindDefinitionForCrd } from "./custom-resource-kind.ts";
import { validateAgainstSchema } from "./custom-resource-validation.ts";
import { makeCronTabCrd } from "./testdata.ts";

const kind = kindDefinitionForCrd(makeCronTabCrd(), "v1");

function makeCronTab(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: "my-cron", namespace: "default" },
    spec: { cronSpec: "* * * * */5", ...spec },
  };
}

const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
  { name: "a valid CronTab", spec: { image: "my-image", replicas: 3, port: "http" }, want: [] },
  {
    name: "a string where an integer is expected",
    spec: { replicas: "three" },
    want: [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
  },
  {
    name: "below the minimum and above the maximum",
    spec: { replicas: 0, tags: ["a", "b", "c"] },
    want: [
      "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
      "spec.tags: Too many: 3: must have at most 2 items",
    ],
  },
  {
    name: "an enum miss, a pattern miss and a long string",
    spec: { cronSpec: "often", color: "green", image: "a-very-long-image-name-indeed" },
    want: [
      `spec.cronSpec: Invalid value: "often": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
      'spec.color: Unsupported value: "green": supported values: "red", "blue"',
      "spec.image: Too long: may not be more than 20 bytes",
    ],
  },
  {
    name: "an int-or-string holding a boolean, and a typed map value",
    spec: { port: true, limits: { cpu: "x" } },
    want: [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      'spec.limits.cpu: Invalid value: "string": spec.limits.cpu in body must be of type integer: "string"',
    ],
  },
  {
    name: "null where an object is expected",
    spec: { nested: null },
    want: [
      'spec.nested: Invalid value: "null": spec.nested in body must be of type object: "null"',
    ],
  },
];

for (const c of cases) {
  test(`kindDefinitionForCrd.validate: ${c.name}`, () => {
    assert.deepEqual(kind.validate(makeCronTab(c.spec)).map(fieldErrorString), c.want);
  });
}

test("kindDefinitionForCrd.validate: a missing required field", () => {
  const cr = makeCronTab({});
  delete (cr["spec"] as Record<string, unknown>)["cronSpec"];
  assert.deepEqual(kind.validate(cr).map(fieldErrorString), ["spec.cronSpec: Required value"]);
});

test("kindDefinitionForCrd.validate: metadata is checked as for any namespaced object", () => {
  const cr = makeCronTab({});
  cr.metadata = { name: "my-cron" };
  assert.deepEqual(kind.validate(cr).map(fieldErrorString), ["metadata.namespace: Required value"]);
});

test("kindDefinitionForCrd.applyDefaults: fills schema defaults, recursing into defaulted objects", () => {
  const cr = makeCronTab({});
  kind.applyDefaults(cr);
  assert.deepEqual(cr["spec"], { cronSpec: "* * * * */5", replicas: 1, nested: { level: "info" } });
  const explicit = makeCronTab({ replicas: 4, nested: { level: "debug" } });
  kind.applyDefaults(explicit);
  assert.deepEqual(explicit["spec"], {
    cronSpec: "* * * * */5",
    replicas: 4,
    nested: { level: "debug" },
  });
});

test("kindDefinitionForCrd: names, scope, subresources and schema come from the CRD", () => {
  assert.equal(kind.group, "stable.example.com");
  assert.equal(kind.resource, "crontabs");
  assert.equal(kind.singular, "crontab");
  assert.equal(kind.listKind, "CronTabList");
  assert.deepEqual(kind.shortNames, ["ct"]);
  assert.deepEqual(kind.categories, ["all"]);
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.subresources, {
    status: true,
    scale: {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".status.selector",
    },
  });
  assert.deepEqual(kind.schema.schema["x-kubernetes-group-version-kind"], [
    { group: "stable.example.com", version: "v1", kind: "CronTab" },
  ]);
  assert.ok(
    kind.schema.schema.properties?.["metadata"]?.$ref?.endsWith("ObjectMeta"),
    'kind.schema.schema.properties?.["metadata"]?.$ref?.endsWith("ObjectMeta")',
  );
  assert.deepEqual(kind.selectableFields?.(makeCronTab({ color: "red" })), { "spec.color": "red" });
});

test("kindDefinitionForCrd: an unknown version is a RangeError", () => {
  assert.throws(() => kindDefinitionForCrd(makeCronTabCrd(), "v2"), RangeError);
});

test("validateAgainstSchema: anyOf failures are reported without a path, as upstream does", () => {
  const errs = validateAgainstSchema(
    { field: true },
    { type: "object", properties: { field: { anyOf: [{ type: "integer" }, { type: "string" }] } } },
  );
  assert.deepEqual(errs.map(fieldErrorString), [
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
  ]);
});

test("validateAgainstSchema: list-map keys must be unique", () => {
  const errs = validateAgainstSchema(
    { ports: [{ name: "a" }, { name: "a" }] },
    {
      type: "object",
      properties: {
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: { type: "object", properties: { name: { type: "string" } } },
        },
      },
    },
  );
  assert.deepEqual(errs.map(fieldErrorString), ['ports[1]: Duplicate value: {"name":"a"}']);
});
