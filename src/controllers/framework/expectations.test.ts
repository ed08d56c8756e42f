import assert from "node:assert/strict";
import { test } from "node:test";
import type { Clock } from "../../util/index.ts";
import { Expectations } from "./expectations.ts";

function manualClock(start = 0): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => new Date(now),
    sleep: () => Promise.resolve(),
    advance: (ms) => {
      now += ms;
    },
  };
}

type Step =
  | { readonly op: "expectCreations"; readonly count: number }
  | { readonly op: "expectDeletions"; readonly keys: readonly string[] }
  | { readonly op: "creationObserved" }
  | { readonly op: "deletionObserved"; readonly key: string }
  | { readonly op: "advance"; readonly ms: number }
  | { readonly op: "delete" };

const cases: readonly { name: string; steps: readonly Step[]; want: boolean }[] = [
  { name: "no record is satisfied", steps: [], want: true },
  {
    name: "pending creations are not satisfied",
    steps: [{ op: "expectCreations", count: 2 }, { op: "creationObserved" }],
    want: false,
  },
  {
    name: "every creation observed is satisfied",
    steps: [
      { op: "expectCreations", count: 2 },
      { op: "creationObserved" },
      { op: "creationObserved" },
    ],
    want: true,
  },
  {
    name: "a deletion observed twice counts once",
    steps: [
      { op: "expectDeletions", keys: ["ns/a", "ns/b"] },
      { op: "deletionObserved", key: "ns/a" },
      { op: "deletionObserved", key: "ns/a" },
    ],
    want: false,
  },
  {
    name: "deletions of unexpected objects do not count",
    steps: [
      { op: "expectDeletions", keys: ["ns/a"] },
      { op: "deletionObserved", key: "ns/other" },
    ],
    want: false,
  },
  {
    name: "every expected deletion observed is satisfied",
    steps: [
      { op: "expectDeletions", keys: ["ns/a", "ns/b"] },
      { op: "deletionObserved", key: "ns/b" },
      { op: "deletionObserved", key: "ns/a" },
    ],
    want: true,
  },
  {
    name: "records older than five minutes are satisfied",
    steps: [
      { op: "expectCreations", count: 3 },
      { op: "advance", ms: 5 * 60 * 1000 + 1 },
    ],
    want: true,
  },
  {
    name: "records exactly five minutes old still wait",
    steps: [
      { op: "expectCreations", count: 3 },
      { op: "advance", ms: 5 * 60 * 1000 },
    ],
    want: false,
  },
  {
    name: "a new expectation replaces the old record",
    steps: [
      { op: "expectCreations", count: 3 },
      { op: "expectCreations", count: 0 },
    ],
    want: true,
  },
  {
    name: "a deleted record is satisfied",
    steps: [{ op: "expectCreations", count: 1 }, { op: "delete" }],
    want: true,
  },
];

for (const c of cases) {
  test(`Expectations.satisfied: ${c.name}`, () => {
    const clock = manualClock();
    const expectations = new Expectations(clock);
    const key = "default/rs";
    for (const step of c.steps) {
      switch (step.op) {
        case "expectCreations":
          expectations.expectCreations(key, step.count);
          break;
        case "expectDeletions":
          expectations.expectDeletions(key, step.keys);
          break;
        case "creationObserved":
          expectations.creationObserved(key);
          break;
        case "deletionObserved":
          expectations.deletionObserved(key, step.key);
          break;
        case "advance":
          clock.advance(step.ms);
          break;
        case "delete":
          expectations.delete(key);
          break;
      }
    }
    assert.equal(expectations.satisfied(key), c.want);
  });
}

test("Expectations.pending: reports what is still awaited", () => {
  const expectations = new Expectations(manualClock());
  expectations.expectDeletions("ns/x", ["ns/a", "ns/b"]);
  expectations.deletionObserved("ns/x", "ns/a");
  assert.deepEqual(expectations.pending("ns/x"), { creations: 0, deletions: 1 });
  assert.equal(expectations.pending("ns/y"), undefined);
});
