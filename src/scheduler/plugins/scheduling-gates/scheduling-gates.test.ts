import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod, minimalPlugins, newTestFramework } from "../../../testing/index.ts";
import { name } from "./scheduling-gates.ts";

test("SchedulingGates.preEnqueue: a gated pod waits with upstream's message", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  const { status, plugin } = tf.framework.runPreEnqueuePlugins(
    makePod("p").schedulingGates(["foo", "bar"]).obj(),
  );
  assert.deepEqual(
    { code: status.code, reasons: status.reasons, plugin },
    {
      code: "UnschedulableAndUnresolvable",
      reasons: ["waiting for scheduling gates: [foo bar]"],
      plugin: name,
    },
  );
});

test("SchedulingGates.preEnqueue: a pod without gates may enter the queue", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  assert.equal(tf.framework.runPreEnqueuePlugins(makePod("p").obj()).status.code, "Success");
});

test("SchedulingGates.eventsToRegister: only the pod's own gate removal queues it", () => {
  const tf = newTestFramework({ plugins: minimalPlugins(name) });
  const hint = tf.framework.eventsToRegister.get(name)?.[0]?.queueingHintFn;
  const pod = makePod("p").schedulingGates(["g"]).obj();
  assert.equal(hint?.(pod, pod, makePod("p").obj()), "Queue");
  assert.equal(hint?.(pod, undefined, makePod("other").obj()), "QueueSkip");
});
