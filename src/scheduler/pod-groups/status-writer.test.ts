import assert from "node:assert/strict";
import { test } from "node:test";
import type { PodGroupStatus } from "../../api/index.ts";
import { computePodGroupStatus, type GroupCondition, timeoutMessage } from "./status-writer.ts";

const now = new Date("2026-01-01T00:00:10Z");
const earlier = "2026-01-01T00:00:00Z";
const scheduled: GroupCondition = { status: "True", reason: "Scheduled", message: "" };
const failed: GroupCondition = {
  status: "False",
  reason: "Unschedulable",
  message: "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
};

const cases: readonly {
  name: string;
  current?: PodGroupStatus;
  condition?: GroupCondition;
  bound: number;
  want: PodGroupStatus | undefined;
}[] = [
  {
    name: "a first outcome adds the condition with the generation",
    condition: failed,
    bound: 0,
    want: {
      scheduledPods: 0,
      conditions: [
        {
          type: "PodGroupScheduled",
          ...failed,
          lastTransitionTime: "2026-01-01T00:00:10Z",
          observedGeneration: 1,
        },
      ],
    },
  },
  {
    name: "an unchanged status writes nothing",
    current: {
      scheduledPods: 2,
      conditions: [
        {
          type: "PodGroupScheduled",
          ...scheduled,
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
    condition: scheduled,
    bound: 2,
    want: undefined,
  },
  {
    name: "True never regresses to False; only the count moves",
    current: {
      scheduledPods: 2,
      conditions: [
        {
          type: "PodGroupScheduled",
          ...scheduled,
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
    condition: failed,
    bound: 3,
    want: {
      scheduledPods: 3,
      conditions: [
        {
          type: "PodGroupScheduled",
          ...scheduled,
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
  },
  {
    name: "False to True moves the transition time; other conditions stay",
    current: {
      conditions: [
        { type: "Other", status: "True", reason: "R", message: "", lastTransitionTime: earlier },
        {
          type: "PodGroupScheduled",
          ...failed,
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
    condition: scheduled,
    bound: 0,
    want: {
      scheduledPods: 0,
      conditions: [
        { type: "Other", status: "True", reason: "R", message: "", lastTransitionTime: earlier },
        {
          type: "PodGroupScheduled",
          ...scheduled,
          lastTransitionTime: "2026-01-01T00:00:10Z",
          observedGeneration: 1,
        },
      ],
    },
  },
  {
    name: "a new message keeps the transition time while the status stays",
    current: {
      conditions: [
        {
          type: "PodGroupScheduled",
          ...failed,
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
    condition: { ...failed, message: "minCount (3) cannot be satisfied: 1 scheduled, 0 remaining" },
    bound: 0,
    want: {
      scheduledPods: 0,
      conditions: [
        {
          type: "PodGroupScheduled",
          ...failed,
          message: "minCount (3) cannot be satisfied: 1 scheduled, 0 remaining",
          lastTransitionTime: earlier,
          observedGeneration: 1,
        },
      ],
    },
  },
];

for (const c of cases) {
  test(`computePodGroupStatus: ${c.name}`, () => {
    assert.deepEqual(computePodGroupStatus(c.current, c.condition, c.bound, 1, now), c.want);
  });
}

test("timeoutMessage: names minCount, the timeout in Go's format and the members present", () => {
  assert.equal(
    timeoutMessage(4, 1, 300_000),
    "minCount (4) pods did not appear within 5m0s: 1 present",
  );
});
