import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod } from "../testing/index.ts";
import { failureStatusPatch } from "./scheduling-failure.ts";

const now = new Date("2026-05-01T12:00:00Z");

test("failureStatusPatch: a first failure adds the PodScheduled=False condition", () => {
  assert.deepEqual(
    failureStatusPatch(
      makePod("p").obj(),
      "Unschedulable",
      "0/1 nodes are available: 1 Too many pods.",
      undefined,
      now,
    ),
    {
      status: {
        conditions: [
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            message: "0/1 nodes are available: 1 Too many pods.",
            lastProbeTime: null,
            lastTransitionTime: "2026-05-01T12:00:00Z",
          },
        ],
      },
    },
  );
});

test("failureStatusPatch: the same failure again changes nothing", () => {
  const pod = makePod("p")
    .condition({
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message: "m",
      lastTransitionTime: "2026-04-01T00:00:00Z",
    })
    .obj();
  assert.equal(failureStatusPatch(pod, "Unschedulable", "m", undefined, now), undefined);
});

test("failureStatusPatch: a new message keeps the transition time of the False condition", () => {
  const pod = makePod("p")
    .condition({
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message: "old",
      lastTransitionTime: "2026-04-01T00:00:00Z",
    })
    .obj();
  const patch = failureStatusPatch(pod, "Unschedulable", "new", undefined, now) as {
    status: { conditions: { lastTransitionTime: string; message: string }[] };
  };
  assert.deepEqual(
    [patch.status.conditions[0]?.message, patch.status.conditions[0]?.lastTransitionTime],
    ["new", "2026-04-01T00:00:00Z"],
  );
});

test("failureStatusPatch: a nomination is set, and cleared with null", () => {
  const pod = makePod("p")
    .condition({ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "m" })
    .obj();
  assert.deepEqual(
    failureStatusPatch(
      pod,
      "Unschedulable",
      "m",
      { nominatedNodeName: "n1", mode: "Override" },
      now,
    ),
    {
      status: { nominatedNodeName: "n1" },
    },
  );
  const nominated = makePod("q")
    .nominatedNodeName("n1")
    .condition({ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "m" })
    .obj();
  assert.deepEqual(
    failureStatusPatch(
      nominated,
      "Unschedulable",
      "m",
      { nominatedNodeName: "", mode: "Override" },
      now,
    ),
    {
      status: { nominatedNodeName: null },
    },
  );
});
