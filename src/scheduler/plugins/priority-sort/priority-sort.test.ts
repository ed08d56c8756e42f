import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod } from "../../../testing/index.ts";
import { newQueuedPodInfo } from "../../framework/index.ts";
import { newPrioritySort } from "./priority-sort.ts";

const cases = [
  {
    name: "higher priority first",
    a: { priority: 10, at: 2 },
    b: { priority: 1, at: 1 },
    want: true,
  },
  {
    name: "lower priority later",
    a: { priority: 1, at: 1 },
    b: { priority: 10, at: 2 },
    want: false,
  },
  {
    name: "equal priority: earlier first",
    a: { priority: 5, at: 1 },
    b: { priority: 5, at: 2 },
    want: true,
  },
  {
    name: "equal priority and time: not before",
    a: { priority: 5, at: 1 },
    b: { priority: 5, at: 1 },
    want: false,
  },
] as const;

for (const c of cases) {
  test(`PrioritySort.less: ${c.name}`, () => {
    const less = newPrioritySort().less;
    const a = newQueuedPodInfo(makePod("a").priority(c.a.priority).obj(), c.a.at);
    const b = newQueuedPodInfo(makePod("b").priority(c.b.priority).obj(), c.b.at);
    assert.equal(less?.(a, b), c.want);
  });
}
