import assert from "node:assert/strict";
import { test } from "node:test";
import type { Json } from "../../util/index.ts";
import { FieldSet } from "./field-set.ts";
import { dropNulls, ensureNamedFieldsAreMembers, mergeValues, removeItems } from "./merge.ts";
import { field, key } from "./path-element.ts";
import { configMapSchema, deploymentSchema } from "./test-fixtures.ts";
import { newTypeResolver } from "./types.ts";

const dep = newTypeResolver(deploymentSchema);
const containers = (list: Json): Json => ({ spec: { template: { spec: { containers: list } } } });
const names = (v: unknown): string[] =>
  (
    v as { spec: { template: { spec: { containers: { name: string }[] } } } }
  ).spec.template.spec.containers.map((c) => c.name);

const orderCases = [
  { name: "new items go after the live ones", lhs: ["a", "b"], rhs: ["c"], want: ["a", "b", "c"] },
  {
    name: "shared items follow the applied order",
    lhs: ["a", "b", "c"],
    rhs: ["c", "a"],
    want: ["b", "c", "a"],
  },
  {
    name: "items only live keep their place",
    lhs: ["a", "x", "b"],
    rhs: ["b", "a"],
    want: ["x", "b", "a"],
  },
  {
    name: "an interleaved new item keeps its applied position",
    lhs: ["a", "b"],
    rhs: ["a", "n", "b"],
    want: ["a", "n", "b"],
  },
] as const;

for (const c of orderCases) {
  test(`mergeValues: ${c.name}`, () => {
    const items = (ns: readonly string[]): Json => ns.map((name) => ({ name }));
    const got = mergeValues(containers(items(c.lhs)), containers(items(c.rhs)), dep.root, dep);
    assert.deepEqual(names(got), c.want);
  });
}

test("mergeValues: applied leaves win, live-only fields stay, inputs are not modified", () => {
  const lhs = { data: { a: "1", b: "1" } };
  const got = mergeValues(
    lhs,
    { data: { a: "2" } },
    newTypeResolver(configMapSchema).root,
    newTypeResolver(configMapSchema),
  );
  assert.deepEqual(got, { data: { a: "2", b: "1" } });
  assert.deepEqual(lhs, { data: { a: "1", b: "1" } });
});

test("removeItems: drops members and descends into children, emptied maps disappear", () => {
  const cm = newTypeResolver(configMapSchema);
  const got = removeItems(
    { data: { a: "1" }, immutable: true },
    FieldSet.of([field("data"), field("a")]),
    cm.root,
    cm,
  );
  assert.deepEqual(got, { immutable: true });
});

test("removeItems: removes a list-map item by key", () => {
  const got = removeItems(
    containers([{ name: "a" }, { name: "b" }]),
    FieldSet.of([
      field("spec"),
      field("template"),
      field("spec"),
      field("containers"),
      key({ name: "a" }),
    ]),
    dep.root,
    dep,
  );
  assert.deepEqual(names(got), ["b"]);
});

test("ensureNamedFieldsAreMembers: adds struct fields, not map keys or items", () => {
  const set = FieldSet.of([
    field("spec"),
    field("template"),
    field("metadata"),
    field("labels"),
    field("app"),
  ]);
  assert.equal(
    ensureNamedFieldsAreMembers(set, dep.root, dep).toString(),
    ".spec\n.spec.template\n.spec.template.metadata\n.spec.template.metadata.labels\n.spec.template.metadata.labels.app",
  );
});

test("dropNulls: drops nulls of non-nullable fields", () => {
  assert.deepEqual(dropNulls({ spec: { replicas: null, template: {} } }, dep.root, dep), {
    spec: { template: {} },
  });
});
