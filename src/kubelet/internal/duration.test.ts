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
