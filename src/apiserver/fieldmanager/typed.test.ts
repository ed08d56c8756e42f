import assert from "node:assert/strict";
import { test } from "node:test";
import type { SchemaRoot } from "../../api/index.ts";
import type { Json } from "../../util/index.ts";
import { configMapSchema, deploymentSchema, widgetSchema } from "./test-fixtures.ts";
import { addedFields, compareValues, fieldSetOf, TypedValueError } from "./typed.ts";
import { newTypeResolver } from "./types.ts";

const fieldSetCases: readonly { name: string; schema: SchemaRoot; value: Json; want: object }[] = [
  {
    name: "granular map keys are members",
    schema: configMapSchema,
    value: { data: { a: "1", b: "2" } },
    want: { "f:data": { "f:a": {}, "f:b": {} } },
  },
  {
    name: "list-map items contribute the item and its fields",
    schema: deploymentSchema,
    value: { spec: { template: { spec: { containers: [{ name: "nginx", image: "nginx:1" }] } } } },
    want: {
      "f:spec": {
        "f:template": {
          "f:spec": {
            "f:containers": { 'k:{"name":"nginx"}': { ".": {}, "f:image": {}, "f:name": {} } },
          },
        },
      },
    },
  },
  {
    name: "a key field the item omits takes its schema default",
    schema: deploymentSchema,
    value: {
      spec: { template: { spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] } } },
    },
    want: {
      "f:spec": {
        "f:template": {
          "f:spec": {
            "f:containers": {
              'k:{"name":"c"}': {
                ".": {},
                "f:name": {},
                "f:ports": {
                  'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} },
                },
              },
            },
          },
        },
      },
    },
  },
  {
    name: "set items are values and atomic lists are leaves",
    schema: deploymentSchema,
    value: {
      spec: {
        template: { spec: { finalizers: ["b", "a"], containers: [{ name: "c", args: ["x"] }] } },
      },
    },
    want: {
      "f:spec": {
        "f:template": {
          "f:spec": {
            "f:containers": { 'k:{"name":"c"}': { ".": {}, "f:args": {}, "f:name": {} } },
            "f:finalizers": { 'v:"a"': {}, 'v:"b"': {} },
          },
        },
      },
    },
  },
  {
    name: "an atomic map is a leaf",
    schema: deploymentSchema,
    value: { spec: { selector: { matchLabels: { app: "x" } } } },
    want: { "f:spec": { "f:selector": {} } },
  },
  {
    name: "metadata follows ObjectMeta when the kind does not describe it",
    schema: configMapSchema,
    value: {
      metadata: {
        name: "x",
        labels: { app: "x" },
        finalizers: ["f"],
        ownerReferences: [{ uid: "u", name: "o" }],
      },
    },
    want: {
      "f:metadata": {
        "f:finalizers": { 'v:"f"': {} },
        "f:labels": { "f:app": {} },
        "f:name": {},
        "f:ownerReferences": { 'k:{"uid":"u"}': { ".": {}, "f:name": {}, "f:uid": {} } },
      },
    },
  },
  {
    name: "free-form subtrees: maps granular, lists atomic",
    schema: widgetSchema,
    value: { spec: { config: { a: { b: 1 }, list: [1, 2] } } },
    want: { "f:spec": { "f:config": { "f:a": { ".": {}, "f:b": {} }, "f:list": {} } } },
  },
  {
    name: "an empty struct contributes nothing",
    schema: deploymentSchema,
    value: { spec: { template: {} } },
    want: {},
  },
];

for (const c of fieldSetCases) {
  test(`fieldSetOf: ${c.name}`, () => {
    assert.deepEqual(fieldSetOf(c.value, c.schema).toFieldsV1(), c.want);
  });
}

const errorCases: readonly { name: string; value: Json; want: string }[] = [
  {
    name: "an item missing its key",
    value: { spec: { template: { spec: { containers: [{ image: "x" }] } } } },
    want: '.spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  },
  {
    name: "duplicate keys",
    value: { spec: { template: { spec: { containers: [{ name: "a" }, { name: "a" }] } } } },
    want: '.spec.template.spec.containers: duplicate entries for key [name="a"]',
  },
  {
    name: "an undeclared field",
    value: { spec: { nope: 1 } },
    want: ".spec.nope: field not declared in schema",
  },
  {
    name: "several problems at once",
    value: { spec: { nope: 1, other: 2 } },
    want: "errors:\n  .spec.nope: field not declared in schema\n  .spec.other: field not declared in schema",
  },
];

for (const c of errorCases) {
  test(`fieldSetOf: rejects ${c.name} with upstream's message`, () => {
    assert.throws(
      () => fieldSetOf(c.value, deploymentSchema),
      (e: unknown) => e instanceof TypedValueError && e.message === c.want,
    );
  });
}

test("fieldSetOf: a stored object is read leniently", () => {
  const set = fieldSetOf({ spec: { nope: 1 } }, deploymentSchema, { strict: false });
  assert.deepEqual(set.toFieldsV1(), { "f:spec": { "f:nope": {} } });
});

const compareCases = [
  {
    name: "a changed leaf is modified",
    lhs: { data: { a: "1" } },
    rhs: { data: { a: "2" } },
    want: { added: "", removed: "", modified: ".data.a" },
  },
  {
    name: "a new map adds itself and its keys",
    lhs: {},
    rhs: { data: { a: "1" } },
    want: { added: ".data\n.data.a", removed: "", modified: "" },
  },
  {
    name: "a removed key is removed",
    lhs: { data: { a: "1", b: "2" } },
    rhs: { data: { a: "1" } },
    want: { added: "", removed: ".data.b", modified: "" },
  },
  {
    name: "keys named like Object.prototype members are added as any other key",
    lhs: { data: { a: "1" } },
    rhs: { data: { a: "1", constructor: "x", toString: "y" } },
    want: { added: ".data.constructor\n.data.toString", removed: "", modified: "" },
  },
  {
    name: "keys named like Object.prototype members are removed as any other key",
    lhs: { data: { constructor: "x", hasOwnProperty: "y" } },
    rhs: { data: {} },
    want: { added: "", removed: ".data.constructor\n.data.hasOwnProperty", modified: "" },
  },
  {
    name: "equal objects compare the same whatever the key order",
    lhs: { data: { a: "1", b: "2" } },
    rhs: { data: { b: "2", a: "1" } },
    want: { added: "", removed: "", modified: "" },
  },
] as const;

for (const c of compareCases) {
  test(`compareValues: ${c.name}`, () => {
    const resolver = newTypeResolver(configMapSchema);
    const got = compareValues(c.lhs, c.rhs, resolver.root, resolver);
    assert.deepEqual(
      {
        added: got.added.toString(),
        removed: got.removed.toString(),
        modified: got.modified.toString(),
      },
      c.want,
    );
  });
}

test("compareValues: a new list-map item is added with its fields", () => {
  const resolver = newTypeResolver(deploymentSchema);
  const spec = (containers: Json) => ({ spec: { template: { spec: { containers } } } });
  const got = compareValues(
    spec([{ name: "a", image: "x" }]),
    spec([
      { name: "a", image: "x" },
      { name: "b", image: "y" },
    ]),
    resolver.root,
    resolver,
  );
  assert.equal(
    got.added.toString(),
    '.spec.template.spec.containers[name="b"]\n.spec.template.spec.containers[name="b"].image\n.spec.template.spec.containers[name="b"].name',
  );
});

const createdObjects: readonly { name: string; schema: SchemaRoot; value: Json }[] = [
  { name: "an empty object", schema: configMapSchema, value: {} },
  { name: "a map with keys", schema: configMapSchema, value: { data: { a: "1", b: "2" } } },
  {
    name: "an empty map and a null",
    schema: configMapSchema,
    value: { data: {}, immutable: null },
  },
  {
    name: "list-map items, a set, an atomic list and empty lists",
    schema: deploymentSchema,
    value: {
      metadata: { name: "d", labels: { app: "x" }, finalizers: ["a", "b"] },
      spec: {
        replicas: 2,
        template: {
          spec: {
            containers: [
              { name: "a", image: "x", args: ["-v"], ports: [{ containerPort: 80 }] },
              { name: "b", image: "y", args: [], ports: [] },
            ],
          },
        },
      },
    },
  },
  {
    name: "duplicate list-map items (one atomic value)",
    schema: deploymentSchema,
    value: {
      spec: { template: { spec: { containers: [{ name: "a" }, { name: "a", image: "z" }] } } },
    },
  },
  {
    name: "values of the wrong type and undeclared fields",
    schema: deploymentSchema,
    value: { spec: { template: "x", selector: [1, 2], nope: { deep: true } } },
  },
];

for (const c of createdObjects) {
  test(`addedFields: ${c.name}: what compareValues({}, x) adds`, () => {
    const resolver = newTypeResolver(c.schema);
    const compared = compareValues({}, c.value, resolver.root, resolver);
    const added = addedFields(c.value, resolver.root, resolver);
    assert.equal(added.toString(), compared.added.toString());
    assert.ok(compared.removed.isEmpty() && compared.modified.isEmpty(), "nothing else differs");
  });
}
