import assert from "node:assert/strict";
import { test } from "node:test";
import type { Json } from "../../../util/index.ts";
import { goEqual, goString, goTypeName, goValue } from "./go-format.ts";

const values: readonly { value: Json; want: string }[] = [
  { value: { name: "nginx", $patch: "foo" }, want: "map[$patch:foo name:nginx]" },
  { value: ["a", 1, true, null], want: "[a 1 true <nil>]" },
  { value: { b: { d: [1, 2] }, a: "x" }, want: "map[a:x b:map[d:[1 2]]]" },
  { value: 0.5, want: "0.5" },
  { value: 1234567.5, want: "1.2345675e+06" },
  { value: 0.00001, want: "1e-05" },
  { value: null, want: "<nil>" },
];

for (const c of values) {
  test(`goValue: ${JSON.stringify(c.value)}`, () => {
    assert.equal(goValue(c.value), c.want);
  });
}

const types: readonly { value: Json; want: string }[] = [
  { value: "a", want: "string" },
  { value: 3, want: "int64" },
  { value: 3.5, want: "float64" },
  { value: false, want: "bool" },
  { value: [], want: "[]interface {}" },
  { value: {}, want: "map[string]interface {}" },
  { value: null, want: "%!s(<nil>)" },
];

for (const c of types) {
  test(`goTypeName: ${JSON.stringify(c.value)}`, () => {
    assert.equal(goTypeName(c.value), c.want);
  });
}

test("goString: strings as they are, other values flagged", () => {
  assert.equal(goString("delete"), "delete");
  assert.equal(goString(1), "%!s(int64=1)");
  assert.equal(goString(null), "%!s(<nil>)");
});

test("goEqual: scalars by value, containers never", () => {
  assert.equal(goEqual("a", "a"), true);
  assert.equal(goEqual(1, "1"), false);
  assert.equal(goEqual(null, undefined), true);
  assert.equal(goEqual({}, {}), false);
});
