import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, mapList, obj, ref, setList, str, stringMap } from "../../../api/index.ts";
import { fieldPatchMeta, itemSchema, propertySchema } from "./patch-meta.ts";

const definitions = {
  Container: obj({ name: str(), image: str() }),
};
const podSpec = obj({
  containers: mapList(ref("Container"), "name"),
  finalizers: setList(str()),
  labels: stringMap(),
});

test("propertySchema: follows properties and resolves references", () => {
  const containers = propertySchema(podSpec, "containers", definitions);
  assert.equal(containers?.["x-kubernetes-patch-merge-key"], "name");
  assert.deepEqual(itemSchema(containers, definitions), definitions.Container);
});

test("propertySchema: map values come from additionalProperties", () => {
  const labels = propertySchema(podSpec, "labels", definitions);
  assert.deepEqual(propertySchema(labels, "app", definitions), { type: "string" });
});

test("propertySchema: undeclared fields and free-form parents have no schema", () => {
  assert.equal(propertySchema(podSpec, "nope", definitions), undefined);
  assert.equal(propertySchema(undefined, "x", definitions), undefined);
});

const metas = [
  { strategy: undefined, want: { strategy: "", retainKeys: false } },
  { strategy: "merge", want: { strategy: "merge", retainKeys: false } },
  { strategy: "retainKeys", want: { strategy: "", retainKeys: true } },
  { strategy: "merge,retainKeys", want: { strategy: "merge", retainKeys: true } },
  { strategy: "retainKeys,replace", want: { strategy: "replace", retainKeys: true } },
] as const;

for (const c of metas) {
  test(`fieldPatchMeta: strategy ${String(c.strategy)}`, () => {
    const schema = c.strategy === undefined ? {} : { "x-kubernetes-patch-strategy": c.strategy };
    const meta = fieldPatchMeta(schema);
    assert.equal(meta.strategy, c.want.strategy);
    assert.equal(meta.retainKeys, c.want.retainKeys);
  });
}

test("fieldPatchMeta: an impossible combination fails as upstream", () => {
  assert.throws(
    () => fieldPatchMeta({ "x-kubernetes-patch-strategy": "merge,replace" }),
    (error: unknown) =>
      error instanceof ApiError &&
      error.code === 500 &&
      error.message === "unexpected patch strategy: [merge replace]",
  );
});
