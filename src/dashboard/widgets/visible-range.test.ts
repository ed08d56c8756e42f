import assert from "node:assert/strict";
import { test } from "node:test";
import { overscanRows, visibleRange } from "./visible-range.ts";

const cases = [
  { name: "an empty list draws nothing", args: [0, 40, 0, 400], want: { first: 0, last: 0 } },
  {
    name: "the top of a long list draws the viewport and the overscan below it",
    args: [5000, 40, 0, 400],
    want: { first: 0, last: 11 + overscanRows },
  },
  {
    name: "the middle draws the overscan on both sides",
    args: [5000, 40, 40_000, 400],
    want: { first: 1000 - overscanRows, last: 1011 + overscanRows },
  },
  {
    name: "the bottom stops at the last row",
    args: [5000, 40, 199_600, 400],
    want: { first: 4990 - overscanRows, last: 5000 },
  },
] as const;

for (const c of cases) {
  test(`visibleRange: ${c.name}`, () => {
    const [count, rowHeight, scrollTop, viewportHeight] = c.args;
    assert.deepEqual(visibleRange(count, rowHeight, scrollTop, viewportHeight), c.want);
  });
}
