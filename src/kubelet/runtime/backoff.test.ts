import assert from "node:assert/strict";
import test from "node:test";
import { type BackoffEntry, backoffWait, nextBackoff, noBackoff } from "./backoff.ts";

test("nextBackoff: 10s, doubling, capped at 5 minutes", () => {
  let entry: BackoffEntry = noBackoff;
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) {
    entry = nextBackoff(entry, i * 1000);
    delays.push(entry.delayMs / 1000);
  }
  assert.deepEqual(delays, [10, 20, 40, 80, 160, 300, 300, 300]);
});

const waitCases: readonly {
  name: string;
  entry: BackoffEntry;
  finishedAt: number;
  now: number;
  want: number;
}[] = [
  { name: "no entry: restart at once", entry: noBackoff, finishedAt: 0, now: 0, want: 0 },
  {
    name: "an entry: wait its delay after the exit",
    entry: { delayMs: 20_000, updatedAt: 0 },
    finishedAt: 5_000,
    now: 5_000,
    want: 20_000,
  },
  {
    name: "the delay has passed since the exit",
    entry: { delayMs: 20_000, updatedAt: 0 },
    finishedAt: 5_000,
    now: 25_000,
    want: 0,
  },
  {
    name: "an entry untouched for more than 10 minutes is forgotten",
    entry: { delayMs: 300_000, updatedAt: 0 },
    finishedAt: 600_001,
    now: 600_001,
    want: 0,
  },
];

for (const c of waitCases) {
  test(`backoffWait: ${c.name}`, () => {
    assert.equal(backoffWait(c.entry, c.finishedAt, c.now), c.want);
  });
}

test("nextBackoff: starts over at 10s after a long quiet spell", () => {
  assert.deepEqual(nextBackoff({ delayMs: 300_000, updatedAt: 0 }, 600_001), {
    delayMs: 10_000,
    updatedAt: 600_001,
  });
});
