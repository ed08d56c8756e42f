import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatGoDuration,
  isRejected,
  newStatus,
  statusMessage,
  success,
  unschedulable,
} from "./status.ts";

const durations = [
  { ms: 0, want: "0s" },
  { ms: 250, want: "250ms" },
  { ms: 1500, want: "1.5s" },
  { ms: 5000, want: "5s" },
  { ms: 300_000, want: "5m0s" },
  { ms: 90_500, want: "1m30.5s" },
  { ms: 3_600_000, want: "1h0m0s" },
] as const;

for (const c of durations) {
  test(`formatGoDuration: ${c.ms} ms prints as Go's ${c.want}`, () => {
    assert.equal(formatGoDuration(c.ms), c.want);
  });
}

test("statusMessage: joins reasons with a comma", () => {
  assert.equal(
    statusMessage(unschedulable("Insufficient cpu", "Too many pods")),
    "Insufficient cpu, Too many pods",
  );
});

test("isRejected: Unschedulable, UnschedulableAndUnresolvable and Pending reject; others do not", () => {
  const codes = [
    "Success",
    "Error",
    "Unschedulable",
    "UnschedulableAndUnresolvable",
    "Wait",
    "Skip",
    "Pending",
  ] as const;
  assert.deepEqual(
    codes.filter((c) => isRejected(newStatus(c, "x"))),
    ["Unschedulable", "UnschedulableAndUnresolvable", "Pending"],
  );
  assert.equal(newStatus("Success"), success);
});
