import assert from "node:assert/strict";
import { test } from "node:test";
import { deepFreeze } from "./freeze.ts";

test("deepFreeze: freezes the value, its objects and its lists all the way down", () => {
  const value = JSON.parse('{"a":{"b":[{"c":1},[2,{"d":"x"}]]},"e":null,"f":"s"}');
  assert.equal(deepFreeze(value), value);
  const frozen = [value, value.a, value.a.b, value.a.b[0], value.a.b[1], value.a.b[1][1]];
  assert.deepEqual(
    frozen.map((v) => Object.isFrozen(v)),
    frozen.map(() => true),
  );
  assert.throws(() => {
    value.a.b[1][1].d = "y";
  }, TypeError);
});

test("deepFreeze: primitives and null come back as they are", () => {
  assert.deepEqual(
    [deepFreeze(1), deepFreeze("s"), deepFreeze(null), deepFreeze(undefined)],
    [1, "s", null, undefined],
  );
});
