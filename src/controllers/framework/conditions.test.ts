import assert from "node:assert/strict";
import { test } from "node:test";
import { type StatusCondition, setCondition } from "./conditions.ts";

const at = (time: string, status: StatusCondition["status"], reason: string): StatusCondition => ({
  type: "Available",
  status,
  lastUpdateTime: time,
  lastTransitionTime: time,
  reason,
  message: reason,
});
const other: StatusCondition = { type: "Progressing", status: "True", reason: "X" };

const cases: readonly {
  name: string;
  current: StatusCondition[];
  next: StatusCondition;
  want: StatusCondition[];
}[] = [
  {
    name: "a new type is appended",
    current: [other],
    next: at("t2", "True", "A"),
    want: [other, at("t2", "True", "A")],
  },
  {
    name: "the same status and reason change nothing",
    current: [at("t1", "True", "A"), other],
    next: at("t2", "True", "A"),
    want: [at("t1", "True", "A"), other],
  },
  {
    name: "a new reason with the same status keeps the transition time and moves to the end",
    current: [at("t1", "True", "A"), other],
    next: at("t2", "True", "B"),
    want: [other, { ...at("t2", "True", "B"), lastTransitionTime: "t1" }],
  },
  {
    name: "a new status takes the new transition time",
    current: [at("t1", "True", "A")],
    next: at("t2", "False", "B"),
    want: [at("t2", "False", "B")],
  },
];

for (const c of cases) {
  test(`setCondition: ${c.name}`, () => {
    assert.deepEqual(setCondition(c.current, c.next), c.want);
  });
}
