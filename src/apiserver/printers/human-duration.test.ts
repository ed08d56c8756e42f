import assert from "node:assert/strict";
import { test } from "node:test";
import { humanAge, humanDuration } from "./human-duration.ts";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

const cases = [
  { name: "two seconds in the future is invalid", ms: -2 * s, want: "<invalid>" },
  { name: "just under two seconds in the future is 0s", ms: -1999, want: "0s" },
  { name: "one second in the future is 0s", ms: -1 * s, want: "0s" },
  { name: "under a second in the future truncates to 0s", ms: -500, want: "0s" },
  { name: "zero", ms: 0, want: "0s" },
  { name: "sub-second truncates", ms: 999, want: "0s" },
  { name: "seconds", ms: 59 * s, want: "59s" },
  { name: "119 seconds stays in seconds", ms: 119 * s + 999, want: "119s" },
  { name: "2 minutes exactly", ms: 2 * m, want: "2m" },
  { name: "minutes and seconds", ms: 2 * m + 5 * s, want: "2m5s" },
  { name: "9m59s", ms: 9 * m + 59 * s, want: "9m59s" },
  { name: "10 minutes drops seconds", ms: 10 * m + 30 * s, want: "10m" },
  { name: "179 minutes", ms: 179 * m + 59 * s, want: "179m" },
  { name: "3 hours exactly", ms: 3 * h, want: "3h" },
  { name: "hours and minutes", ms: 3 * h + 5 * m, want: "3h5m" },
  { name: "7h59m", ms: 7 * h + 59 * m + 59 * s, want: "7h59m" },
  { name: "8 hours drops minutes", ms: 8 * h + 30 * m, want: "8h" },
  { name: "47 hours", ms: 47 * h + 59 * m, want: "47h" },
  { name: "2 days exactly", ms: 48 * h, want: "2d" },
  { name: "days and hours", ms: 2 * d + 5 * h, want: "2d5h" },
  { name: "7d23h", ms: 7 * d + 23 * h + 59 * m, want: "7d23h" },
  { name: "8 days drops hours", ms: 8 * d + 5 * h, want: "8d" },
  { name: "729 days", ms: 729 * d + 23 * h, want: "729d" },
  { name: "2 years exactly", ms: 2 * y, want: "2y" },
  { name: "years and days", ms: 2 * y + 10 * d, want: "2y10d" },
  { name: "7y364d", ms: 7 * y + 364 * d + 23 * h, want: "7y364d" },
  { name: "8 years drops days", ms: 8 * y + 100 * d, want: "8y" },
  { name: "many years", ms: 123 * y + 5 * d, want: "123y" },
] as const;

for (const c of cases) {
  test(`humanDuration: ${c.name}`, () => {
    assert.equal(humanDuration(c.ms), c.want);
  });
}

const now = new Date("2024-06-01T12:00:00Z");
const ageCases = [
  { name: "missing timestamp is <unknown>", ts: undefined, want: "<unknown>" },
  { name: "empty timestamp is <unknown>", ts: "", want: "<unknown>" },
  { name: "garbage is <unknown>", ts: "yesterday-ish", want: "<unknown>" },
  { name: "five minutes ago", ts: "2024-06-01T11:55:00Z", want: "5m" },
  { name: "future beyond skew", ts: "2024-06-01T12:00:05Z", want: "<invalid>" },
] as const;

for (const c of ageCases) {
  test(`humanAge: ${c.name}`, () => {
    assert.equal(humanAge(c.ts, now), c.want);
  });
}
