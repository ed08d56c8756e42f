import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import {
  type BackoffRecord,
  finishedTime,
  nextBackoffRecord,
  remainingBackoffMs,
} from "./backoff.ts";

const t0 = Date.parse("2024-06-01T12:00:00Z");
const at = (s: number) => new Date(t0 + s * 1000).toISOString();

/** A pod that finished `s` seconds after t0 (its Ready=False transition). */
function finishedAt(name: string, s: number): Pod {
  return makePod(name)
    .phase("Failed")
    .condition({ type: "Ready", status: "False", lastTransitionTime: at(s) })
    .obj();
}

test("finishedTime: the Ready=False transition, else the latest container end, else the creation", () => {
  const byContainer = makePod("b").phase("Failed").obj();
  byContainer.status = {
    ...byContainer.status,
    containerStatuses: [
      {
        name: "c",
        ready: false,
        restartCount: 0,
        image: "x",
        imageID: "",
        state: { terminated: { exitCode: 1, finishedAt: at(7) } },
      },
    ],
  };
  const created = makePod("c").creationTimestamp(at(2)).obj();
  assert.deepEqual(
    [finishedTime(finishedAt("a", 5)), finishedTime(byContainer), finishedTime(created)],
    [t0 + 5000, t0 + 7000, t0 + 2000],
  );
});

const recordCases: readonly {
  name: string;
  previous: BackoffRecord;
  succeeded: Pod[];
  failed: Pod[];
  want: BackoffRecord;
}[] = [
  {
    name: "nothing new keeps the record",
    previous: { failuresAfterLastSuccess: 2, lastFailureTime: t0 },
    succeeded: [],
    failed: [],
    want: { failuresAfterLastSuccess: 2, lastFailureTime: t0 },
  },
  {
    name: "new failures add up and move the last failure time",
    previous: { failuresAfterLastSuccess: 1, lastFailureTime: t0 },
    succeeded: [],
    failed: [finishedAt("a", 30), finishedAt("b", 10)],
    want: { failuresAfterLastSuccess: 3, lastFailureTime: t0 + 30_000 },
  },
  {
    name: "a success resets the count to the failures after it",
    previous: { failuresAfterLastSuccess: 4, lastFailureTime: t0 },
    succeeded: [finishedAt("ok", 20)],
    failed: [finishedAt("a", 10), finishedAt("b", 25)],
    want: { failuresAfterLastSuccess: 1, lastFailureTime: t0 + 25_000 },
  },
  {
    name: "a success after every failure clears the record",
    previous: { failuresAfterLastSuccess: 4, lastFailureTime: t0 },
    succeeded: [finishedAt("ok", 20)],
    failed: [finishedAt("a", 10)],
    want: { failuresAfterLastSuccess: 0 },
  },
];

for (const c of recordCases) {
  test(`nextBackoffRecord: ${c.name}`, () => {
    assert.deepEqual(nextBackoffRecord(c.previous, c.succeeded, c.failed), c.want);
  });
}

const waitCases = [
  { name: "no failure, no wait", failures: 0, elapsed: 0, want: 0 },
  { name: "one failure waits 10 s", failures: 1, elapsed: 4, want: 6000 },
  { name: "three failures wait 40 s", failures: 3, elapsed: 0, want: 40_000 },
  { name: "the wait is capped", failures: 20, elapsed: 0, want: 600_000 },
  { name: "an elapsed backoff is over", failures: 2, elapsed: 21, want: 0 },
] as const;

for (const c of waitCases) {
  test(`remainingBackoffMs: ${c.name}`, () => {
    const record = { failuresAfterLastSuccess: c.failures, lastFailureTime: t0 };
    assert.equal(remainingBackoffMs(record, t0 + c.elapsed * 1000, 10_000, 600_000), c.want);
  });
}
