import assert from "node:assert/strict";
import { test } from "node:test";
import type { Json, JsonObject } from "../../../util/index.ts";
import { cloneObject, jsonEqual, setKey, withoutNulls } from "./json-values.ts";

test("setKey: __proto__ is stored as data, not as the prototype", () => {
  const target: JsonObject = {};
  setKey(target, "__proto__", { polluted: true });
  assert.equal(Object.getPrototypeOf(target), Object.prototype);
  assert.deepEqual(Object.keys(target), ["__proto__"]);
});

test("cloneObject: copies deeply", () => {
  const source: JsonObject = { a: { b: [1, { c: 2 }] } };
  const copy = cloneObject(source);
  assert.deepEqual(copy, source);
  (((copy["a"] as JsonObject)["b"] as unknown[])[1] as JsonObject)["c"] = 3;
  assert.deepEqual(source, { a: { b: [1, { c: 2 }] } });
});

test("withoutNulls: drops null members at every depth, keeps null array elements", () => {
  assert.deepEqual(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] }), {
    b: { d: 1 },
    e: [null, {}],
  });
});

const equalities: readonly { a: Json; b: Json; want: boolean }[] = [
  { a: { x: 1, y: [1, 2] }, b: { y: [1, 2], x: 1 }, want: true },
  { a: { x: 1 }, b: { x: 1, y: null }, want: false },
  { a: [1, 2], b: [2, 1], want: false },
  { a: null, b: null, want: true },
  { a: "1", b: 1, want: false },
];

for (const c of equalities) {
  test(`jsonEqual: ${JSON.stringify(c.a)} vs ${JSON.stringify(c.b)}`, () => {
    assert.equal(jsonEqual(c.a, c.b), c.want);
  });
}
