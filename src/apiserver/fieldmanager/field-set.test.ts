import assert from "node:assert/strict";
import { test } from "node:test";
import { FieldSet } from "./field-set.ts";
import { field, key, type Path, value } from "./path-element.ts";

const f = field;
const paths = (s: FieldSet): string => s.toString();

test("FieldSet.toFieldsV1: encodes exactly as Kubernetes writes it", () => {
  const set = FieldSet.of(
    [f("spec"), f("containers"), key({ name: "nginx" }), f("image")],
    [f("metadata"), f("labels"), f("app")],
    [f("spec"), f("containers"), key({ name: "nginx" })],
  );
  assert.equal(
    JSON.stringify(set.toFieldsV1()),
    '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{}}}}}',
  );
});

const roundTrips = [
  { name: "an empty set", json: {} },
  { name: "leaf fields", json: { "f:data": { "f:a": {}, "f:b": {} } } },
  { name: "a member with children", json: { "f:data": { ".": {}, "f:a": {} } } },
  {
    name: "list-map items, set items and indexes",
    json: {
      "f:spec": {
        "f:containers": { 'k:{"name":"a"}': { ".": {}, "f:image": {} } },
        "f:finalizers": { 'v:"x"': {} },
        "f:args": { "i:0": {} },
      },
    },
  },
] as const;

for (const c of roundTrips) {
  test(`FieldSet.fromFieldsV1: round-trips ${c.name}`, () => {
    assert.deepEqual(FieldSet.fromFieldsV1(c.json).toFieldsV1(), c.json);
  });
}

test("FieldSet.fromFieldsV1: sorts keys and drops unknown element types", () => {
  const set = FieldSet.fromFieldsV1({ "f:b": {}, "x:future": {}, "f:a": {} });
  assert.deepEqual(Object.keys(set.toFieldsV1()), ["f:a", "f:b"]);
});

const decodeErrors = [
  { name: "a non-object trie", json: [] },
  { name: "a non-object child", json: { "f:a": 1 } },
  { name: "a malformed key", json: { "k:{": {} } },
] as const;

for (const c of decodeErrors) {
  test(`FieldSet.fromFieldsV1: rejects ${c.name}`, () => {
    assert.throws(() => FieldSet.fromFieldsV1(c.json), SyntaxError);
  });
}

const a: Path = [f("data"), f("a")];
const b: Path = [f("data"), f("b")];
const data: Path = [f("data")];

const opCases = [
  { name: "union", got: () => FieldSet.of(a).union(FieldSet.of(b)), want: [a, b] },
  { name: "intersection", got: () => FieldSet.of(a, b).intersection(FieldSet.of(b)), want: [b] },
  { name: "difference", got: () => FieldSet.of(a, b).difference(FieldSet.of(a)), want: [b] },
  {
    name: "difference keeps paths below a removed member",
    got: () => FieldSet.of(data, a).difference(FieldSet.of(data)),
    want: [a],
  },
  {
    name: "recursiveDifference removes paths below a removed member",
    got: () => FieldSet.of(data, a, [f("x")]).recursiveDifference(FieldSet.of(data)),
    want: [[f("x")]],
  },
  { name: "an empty path is ignored", got: () => FieldSet.of([], a), want: [a] },
] as const;

for (const c of opCases) {
  test(`FieldSet.${c.name.split(" ")[0]}: ${c.name}`, () => {
    assert.equal(paths(c.got()), paths(FieldSet.of(...c.want)));
  });
}

test("FieldSet.has: members only, not prefixes", () => {
  const set = FieldSet.of([f("spec"), f("finalizers"), value("x")]);
  assert.equal(set.has([f("spec"), f("finalizers"), value("x")]), true);
  assert.equal(set.has([f("spec"), f("finalizers")]), false);
  assert.equal(set.isEmpty(), false);
  assert.equal(FieldSet.empty().isEmpty(), true);
});

test("FieldSet.paths: members before children, as upstream iterates", () => {
  const set = FieldSet.of(
    [f("spec"), f("template"), f("x")],
    [f("spec"), f("replicas")],
    [f("spec"), f("a")],
  );
  assert.equal(set.toString(), ".spec.a\n.spec.replicas\n.spec.template.x");
});

test("FieldSet.equals: compares structure, not construction order", () => {
  assert.equal(FieldSet.of(a, b).equals(FieldSet.of(b, a)), true);
  assert.equal(FieldSet.of(a).equals(FieldSet.of(a, b)), false);
});
