import assert from "node:assert/strict";
import { test } from "node:test";
import { formatAmount, percent } from "./format.ts";

const cases = [
  ["cpu", 3500, "3.5"],
  ["cpu", 250, "0.25"],
  ["memory", 16 * 1024 ** 3, "16Gi"],
  ["memory", 1536 * 1024 ** 2, "1.5Gi"],
  ["ephemeral-storage", 512, "512"],
  ["nvidia.com/gpu", 4, "4"],
] as const;
for (const [resource, amount, want] of cases) {
  test(`formatAmount: ${amount} of ${resource} reads ${want}`, () => {
    assert.equal(formatAmount(resource, amount), want);
  });
}

test("percent: rounds, and treats use of nothing as full", () => {
  assert.deepEqual([percent(1, 3), percent(0, 0), percent(1, 0), percent(5, 4)], [33, 0, 100, 125]);
});
