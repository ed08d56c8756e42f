import assert from "node:assert/strict";
import { test } from "node:test";
import { isPatchType, patchTypes } from "./patch-types.ts";

test("patchTypes: lists the four types in upstream's order", () => {
  assert.deepEqual(patchTypes, [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
  ]);
});

const cases = [
  { contentType: "application/merge-patch+json", want: true },
  { contentType: "application/apply-patch+yaml", want: true },
  { contentType: "application/json", want: false },
  { contentType: "application/merge-patch+json; charset=utf-8", want: false },
] as const;

for (const c of cases) {
  test(`isPatchType: ${c.contentType}`, () => {
    assert.equal(isPatchType(c.contentType), c.want);
  });
}
