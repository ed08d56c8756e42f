import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonEqual } from "./json-equal.ts";

test("jsonEqual: the same JSON whatever the key order", () => {
  assert.ok(jsonEqual({ a: 1, b: { c: [1, "x"] } }, { b: { c: [1, "x"] }, a: 1 }), "key order");
  assert.ok(!jsonEqual({ a: [1, 2] }, { a: [2, 1] }), "list order matters");
  assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: 2 }), "a key more");
  assert.ok(!jsonEqual({ a: 1, b: 2 }, { a: 1 }), "a key less");
  assert.ok(!jsonEqual({ a: "1" }, { a: 1 }), "a string is not a number");
  assert.ok(!jsonEqual({ a: {} }, { a: [] }), "an object is not a list");
  assert.ok(!jsonEqual({ a: null }, { a: {} }), "null is not an empty object");
});

test("jsonEqual: what JSON.stringify leaves out counts as absent", () => {
  const cases: [unknown, unknown][] = [
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1 }, { a: 1, f: () => 1 }],
    [
      [undefined, 1],
      [null, 1],
    ],
    [{ n: Number.NaN }, { n: null }],
    [{ z: -0 }, { z: 0 }],
    [{ d: new Date(0) }, { d: "1970-01-01T00:00:00.000Z" }],
  ];
  for (const [a, b] of cases) {
    assert.equal(JSON.stringify(a), JSON.stringify(b), "the texts are equal");
    assert.ok(jsonEqual(a, b), `${JSON.stringify(a)} equals ${JSON.stringify(b)}`);
    assert.ok(jsonEqual(b, a), `${JSON.stringify(b)} equals ${JSON.stringify(a)}`);
  }
});

test("jsonEqual: a key named like an Object.prototype member is a key like any other", () => {
  assert.ok(!jsonEqual({ constructor: "x" }, {}), "an own key against none");
  assert.ok(!jsonEqual({}, { toString: "y" }), "none against an own key");
  const parsed = JSON.parse('{"__proto__":{"a":1}}') as unknown;
  assert.ok(!jsonEqual(parsed, {}), "an own __proto__ key");
  assert.ok(jsonEqual(parsed, JSON.parse('{"__proto__":{"a":1}}')), "two own __proto__ keys");
});
