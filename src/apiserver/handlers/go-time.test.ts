import assert from "node:assert/strict";
import { test } from "node:test";
import { parseGoTime } from "./go-time.ts";

const layout = '"2006-01-02T15:04:05Z07:00"';

const cases = [
  {
    name: "UTC whole seconds stay as they are",
    value: "2026-11-23T11:49:44Z",
    precision: 0,
    want: { text: "2026-11-23T11:49:44Z" },
  },
  {
    name: "milliseconds are dropped for Time",
    value: "2026-11-23T11:49:44.123Z",
    precision: 0,
    want: { text: "2026-11-23T11:49:44Z" },
  },
  {
    name: "an offset is converted to UTC",
    value: "2026-11-23T00:30:00+01:00",
    precision: 0,
    want: { text: "2026-11-22T23:30:00Z" },
  },
  {
    name: "MicroTime keeps six fraction digits, truncating",
    value: "2026-11-23T11:49:44.1234567Z",
    precision: 6,
    want: { text: "2026-11-23T11:49:44.123456Z" },
  },
  {
    name: "a year below 100 is not moved to the 1900s",
    value: "0050-01-01T00:00:00Z",
    precision: 0,
    want: { text: "0050-01-01T00:00:00Z" },
  },
  {
    name: "garbage fails at the year",
    value: "x",
    precision: 0,
    want: { error: `parsing time "x" as ${layout}: cannot parse "x" as "2006"` },
  },
  {
    name: "a space for T fails at the T",
    value: "2026-11-23 11:49:44Z",
    precision: 0,
    want: {
      error: `parsing time "2026-11-23 11:49:44Z" as ${layout}: cannot parse " 11:49:44Z" as "T"`,
    },
  },
  {
    name: "a missing zone fails at the zone",
    value: "2026-11-23T11:49:44",
    precision: 0,
    want: { error: `parsing time "2026-11-23T11:49:44" as ${layout}: cannot parse "" as "Z07:00"` },
  },
  {
    name: "trailing text is extra text",
    value: "2026-11-23T11:49:44Zjunk",
    precision: 0,
    want: { error: 'parsing time "2026-11-23T11:49:44Zjunk": extra text: "junk"' },
  },
  {
    name: "month 13 is out of range",
    value: "2026-13-01T00:00:00Z",
    precision: 0,
    want: { error: 'parsing time "2026-13-01T00:00:00Z": month out of range' },
  },
  {
    name: "February 30 is out of range",
    value: "2026-02-30T00:00:00Z",
    precision: 0,
    want: { error: 'parsing time "2026-02-30T00:00:00Z": day out of range' },
  },
] as const;

for (const c of cases) {
  test(`parseGoTime: ${c.name}`, () => {
    assert.deepEqual(parseGoTime(c.value, c.precision), c.want);
  });
}

test("parseGoTime: a value parsed again gets the same answer, per precision", () => {
  for (const c of cases) {
    assert.deepEqual(parseGoTime(c.value, c.precision), c.want, `${c.name}, asked again`);
  }
  const value = "2026-01-02T03:04:05.123456789+01:00";
  assert.deepEqual(parseGoTime(value, 0), { text: "2026-01-02T02:04:05Z" });
  assert.deepEqual(parseGoTime(value, 6), { text: "2026-01-02T02:04:05.123456Z" });
  assert.deepEqual(parseGoTime(value, 0), { text: "2026-01-02T02:04:05Z" });
});
