import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { FakeClock, makeNode, makePod, newTestFramework } from "../../testing/index.ts";
import { discardLogger } from "../../util/index.ts";
import { clusterEvents, type QueuedPodInfo } from "../framework/index.ts";
import { SchedulingQueue } from "./scheduling-queue.ts";

function newQueue(clock = new FakeClock()): { queue: SchedulingQueue; clock: FakeClock } {
  const { framework } = newTestFramework();
  const queue = new SchedulingQueue({
    clock,
    logger: discardLogger,
    less: framework.less,
    profiles: new Map([
      [
        "default-scheduler",
        {
          preEnqueue: (pod) => framework.runPreEnqueuePlugins(pod),
          eventsToRegister: framework.eventsToRegister,
        },
      ],
    ]),
  });
  return { queue, clock };
}

async function popNow(queue: SchedulingQueue): Promise<QueuedPodInfo> {
  const signal = AbortSignal.timeout(1000);
  const info = await queue.pop(signal);
  if (info === undefined) throw new Error("Timed out popping: the active queue is empty");
  return info;
}

/** Pops the pod and fails its attempt as if `plugins` rejected it. */
async function failAttempt(
  queue: SchedulingQueue,
  ...plugins: string[]
): Promise<string | undefined> {
  const info = await popNow(queue);
  for (const p of plugins) info.unschedulablePlugins.add(p);
  return queue.addUnschedulableIfNotPresent(info);
}

const big = (name: string) => makeNode(name).capacity({ cpu: "16" }).obj();
const needy = (): Pod => makePod("p").requests({ cpu: "8" }).obj();

test("SchedulingQueue.pop: higher priority first, then first come", async () => {
  const { queue, clock } = newQueue();
  queue.add(makePod("low").priority(1).obj());
  await clock.advance(1);
  queue.add(makePod("early").priority(5).obj());
  await clock.advance(1);
  queue.add(makePod("late").priority(5).obj());
  const order = [];
  for (let i = 0; i < 3; i++) order.push((await popNow(queue)).podInfo.pod.metadata.name);
  assert.deepEqual(order, ["early", "late", "low"]);
});

test("SchedulingQueue.add: a gated pod waits aside until an update removes its gates", async () => {
  const { queue } = newQueue();
  const gated = makePod("g").schedulingGates(["example.com/wait"]).obj();
  queue.add(gated);
  assert.deepEqual(queue.pendingPods(), { active: [], backoff: [], unschedulable: ["default/g"] });
  queue.moveAllToActiveOrBackoffQueue(clusterEvents.nodeAdd, undefined, big("n1"));
  assert.deepEqual(queue.pendingPods().unschedulable, ["default/g"]);
  queue.update(gated, makePod("g").obj());
  assert.deepEqual(queue.pendingPods(), { active: ["default/g"], backoff: [], unschedulable: [] });
});

test("SchedulingQueue.addUnschedulableIfNotPresent: a rejected pod waits for an event its plugin cares about", async () => {
  const { queue, clock } = newQueue();
  queue.add(needy());
  assert.equal(await failAttempt(queue, "NodeResourcesFit"), "Unschedulable");
  queue.moveAllToActiveOrBackoffQueue(
    clusterEvents.nodeAdd,
    undefined,
    makeNode("small").capacity({ cpu: "1" }).obj(),
  );
  assert.deepEqual(queue.pendingPods().unschedulable, ["default/p"]);
  queue.moveAllToActiveOrBackoffQueue(clusterEvents.nodeAdd, undefined, big("n1"));
  assert.deepEqual(queue.pendingPods().backoff, ["default/p"]);
  await clock.advance(1000);
  queue.flushBackoffQCompleted();
  assert.deepEqual(queue.pendingPods().active, ["default/p"]);
});

test("SchedulingQueue.addUnschedulableIfNotPresent: an event seen while the pod was in flight requeues it", async () => {
  const { queue } = newQueue();
  queue.add(needy());
  const info = await popNow(queue);
  queue.moveAllToActiveOrBackoffQueue(clusterEvents.nodeAdd, undefined, big("n1"));
  info.unschedulablePlugins.add("NodeResourcesFit");
  assert.equal(queue.addUnschedulableIfNotPresent(info), "Backoff");
});

test("SchedulingQueue.addUnschedulableIfNotPresent: errors back off 1s, 2s, 4s, 8s, then 10s", async () => {
  const { queue, clock } = newQueue();
  queue.add(makePod("p").obj());
  const waits: number[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    assert.equal(await failAttempt(queue), "Backoff");
    let waited = 0;
    while (queue.pendingPods().active.length === 0) {
      await clock.advance(500);
      waited += 500;
      queue.flushBackoffQCompleted();
    }
    waits.push(waited);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 10000]);
});

test("SchedulingQueue.flushUnschedulablePodsLeftover: retries pods unschedulable for over 5 minutes", async () => {
  const { queue, clock } = newQueue();
  queue.add(needy());
  await failAttempt(queue, "NodeResourcesFit");
  await clock.advance(300_000);
  queue.flushUnschedulablePodsLeftover();
  assert.deepEqual(queue.pendingPods().unschedulable, ["default/p"]);
  await clock.advance(1);
  queue.flushUnschedulablePodsLeftover();
  assert.deepEqual(queue.pendingPods().active, ["default/p"]);
});

test("SchedulingQueue.activate: moves an unschedulable pod to the active queue", async () => {
  const { queue } = newQueue();
  const pod = needy();
  queue.add(pod);
  await failAttempt(queue, "NodeResourcesFit");
  queue.activate([pod]);
  assert.deepEqual(queue.pendingPods().active, ["default/p"]);
});

test("SchedulingQueue.delete: forgets the pod wherever it waits", async () => {
  const { queue } = newQueue();
  const pod = needy();
  queue.add(pod);
  await failAttempt(queue, "NodeResourcesFit");
  queue.delete(pod);
  assert.deepEqual(queue.pendingPods(), { active: [], backoff: [], unschedulable: [] });
});

test("SchedulingQueue.update: a pod update its plugin does not care about leaves it waiting", async () => {
  const { queue } = newQueue();
  const pod = needy();
  queue.add(pod);
  await failAttempt(queue, "NodeResourcesFit");
  queue.update(pod, makePod("p").requests({ cpu: "8" }).label("x", "y").obj());
  assert.deepEqual(queue.pendingPods().unschedulable, ["default/p"]);
});

test("SchedulingQueue.pop: resolves undefined when the signal aborts on an empty queue", async () => {
  const { queue } = newQueue();
  const controller = new AbortController();
  const popped = queue.pop(controller.signal);
  controller.abort();
  assert.equal(await popped, undefined);
});

test("SchedulingQueue.nominator: a popped nominated pod is listed on its node until deleted", async () => {
  const { queue } = newQueue();
  const pod = makePod("p").nominatedNodeName("n1").obj();
  queue.add(pod);
  assert.deepEqual(
    queue.nominator.nominatedPodsForNode("n1").map((p) => p.pod.metadata.name),
    ["p"],
  );
  queue.delete(pod);
  assert.deepEqual(queue.nominator.nominatedPodsForNode("n1"), []);
});
