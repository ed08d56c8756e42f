import assert from "node:assert/strict";
import { test } from "node:test";
import { makeNode, makePod } from "../../testing/index.ts";
import { eventLabel } from "../framework/index.ts";
import { nodeSchedulingPropertiesChange, podSchedulingPropertiesChange } from "./object-events.ts";

test("nodeSchedulingPropertiesChange: a heartbeat is no event", () => {
  const condition = { type: "Ready", status: "True" as const, reason: "KubeletReady" };
  const old = makeNode("n")
    .condition({ ...condition, lastHeartbeatTime: "2026-01-01T00:00:00Z" })
    .obj();
  const now = makeNode("n")
    .condition({ ...condition, lastHeartbeatTime: "2026-01-01T00:00:10Z" })
    .obj();
  assert.deepEqual(nodeSchedulingPropertiesChange(now, old), []);
});

test("nodeSchedulingPropertiesChange: cordon, labels and allocatable each become an event", () => {
  const old = makeNode("n").obj();
  const now = makeNode("n").unschedulable().label("zone", "a").capacity({ cpu: "8" }).obj();
  assert.deepEqual(nodeSchedulingPropertiesChange(now, old).map(eventLabel), [
    "NodeSpecUnschedulableChange",
    "NodeAllocatableChange",
    "NodeLabelChange",
  ]);
});

test("podSchedulingPropertiesChange: gate removal and scale-down are named; the rest is other", () => {
  const gated = makePod("p").schedulingGates(["g"]).requests({ cpu: "2" }).obj();
  const open = makePod("p").requests({ cpu: "1" }).obj();
  assert.deepEqual(podSchedulingPropertiesChange(open, gated).map(eventLabel), [
    "UnscheduledPodUpdatePodScaleDown",
    "UnscheduledPodUpdatePodSchedulingGatesEliminated",
  ]);
  const annotated = makePod("p").annotation("a", "b").obj();
  assert.deepEqual(podSchedulingPropertiesChange(annotated, makePod("p").obj()).map(eventLabel), [
    "UnscheduledPodUpdatePodOther",
  ]);
});
