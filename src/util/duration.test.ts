import assert from "node:assert/strict";
import test from "node:test";
import { formatDuration, parseDuration } from "./duration.ts";

const parseCases: readonly { text: string; want: number | undefined }[] = [
  { text: "30s", want: 30_000 },
  { text: "1m30s", want: 90_000 },
  { text: "1.5h", want: 5_400_000 },
  { text: "250ms", want: 250 },
  { text: "0", want: 0 },
  { text: "-2s", want: -2000 },
  { text: "5", want: undefined },
  { text: "5 seconds", want: undefined },
  { text: "", want: undefined },
  { text: "1d", want: undefined },
];

for (const c of parseCases) {
  test(`parseDuration: ${JSON.stringify(c.text)}`, () => {
    assert.equal(parseDuration(c.text), c.want);
  });
}

const formatCases: readonly { ms: number; want: string }[] = [
  { ms: 0, want: "0s" },
  { ms: 10_000, want: "10s" },
  { ms: 80_000, want: "1m20s" },
  { ms: 300_000, want: "5m0s" },
  { ms: 3_600_000, want: "1h0m0s" },
  { ms: 500, want: "500ms" },
  { ms: 1500, want: "1.5s" },
];

for (const c of formatCases) {
  test(`formatDuration: ${c.ms} ms prints as Go does`, () => {
    assert.equal(formatDuration(c.ms), c.want);
  });
}

// The forms component flags take (--leader-elect-lease-duration and friends).
const flagCases = [
  { text: "15s", want: 15_000 },
  { text: "1m30s", want: 90_000 },
  { text: "500ms", want: 500 },
  { text: "1.5h", want: 5_400_000 },
  { text: "2h45m", want: 9_900_000 },
  { text: "0", want: 0 },
  { text: "-2s", want: -2000 },
  { text: "+3m", want: 180_000 },
  { text: "1500us", want: 2 },
  { text: ".5s", want: 500 },
  { text: "15", want: undefined },
  { text: "", want: undefined },
  { text: "s", want: undefined },
  { text: "10 s", want: undefined },
  { text: "1d", want: undefined },
] as const;

for (const c of flagCases) {
  test(`parseDuration: flag value "${c.text}" is ${String(c.want)}`, () => {
    assert.equal(parseDuration(c.text), c.want);
  });
}
