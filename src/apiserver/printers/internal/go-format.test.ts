import assert from "node:assert/strict";
import { test } from "node:test";
import { goPrint } from "./go-format.ts";

const cases = [
  { name: "string prints raw", value: "Running", want: "Running" },
  { name: "integer", value: 42, want: "42" },
  { name: "large integer stays decimal", value: 1000000, want: "1000000" },
  { name: "small float", value: 0.5, want: "0.5" },
  { name: "float with a large exponent", value: 1234567.5, want: "1.2345675e+06" },
  { name: "float with a small exponent", value: 0.00001, want: "1e-05" },
  { name: "boolean", value: true, want: "true" },
  { name: "null", value: null, want: "<nil>" },
  { name: "list", value: ["a", 1, false], want: "[a 1 false]" },
  { name: "map with sorted keys", value: { b: 2, a: { c: "x" } }, want: "map[a:map[c:x] b:2]" },
] as const;

for (const c of cases) {
  test(`goPrint: ${c.name}`, () => {
    assert.equal(goPrint(c.value), c.want);
  });
}
