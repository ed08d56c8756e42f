import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Event, Node, Pod, PriorityClass } from "../api/index.ts";
import {
  eventsResource,
  isNotFound,
  newInformerFactory,
  nodesResource,
  podsResource,
  priorityClassesResource,
} from "../client/index.ts";
import {
  type ClusterHarness,
  componentLifetime,
  makeNode,
  makePod,
  startClusterHarness,
} from "../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import { discardLogger, seededRandom, systemClock } from "../util/index.ts";
import { defaultProfile, inTreeRegistry, newScheduler } from "./index.ts";

let harness: ClusterHarness;
const stop = componentLifetime();
let running: Promise<unknown>;

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function getPod(name: string): Promise<Pod> {
  return harness.client.get<Pod>(podsResource, "default", name);
}

async function createNode(node: Node): Promise<void> {
  const created = await harness.client.create<Node>(nodesResource, node);
  if (created.status?.allocatable === undefined) {
    await harness.client.updateStatus(nodesResource, { ...created, status: node.status });
  }
}

before(async () => {
  harness = await startClusterHarness();
  const informers = newInformerFactory(harness.client);
  const scheduler = newScheduler(
    {
      client: harness.client,
      informers,
      clock: systemClock,
      random: seededRandom(7),
      logger: discardLogger,
      registry: inTreeRegistry(),
      profiles: [defaultProfile()],
    },
    { podInitialBackoffMs: 50, podMaxBackoffMs: 200 },
  );
  await harness.client.create<PriorityClass>(priorityClassesResource, {
    apiVersion: "scheduling.k8s.io/v1",
    kind: "PriorityClass",
    metadata: { name: "high" },
    value: 1000,
  });
  await createNode(
    makeNode("cp")
      .capacity({ cpu: "4", memory: "8Gi", pods: "10" })
      .taint("node-role.kubernetes.io/control-plane", "", "NoSchedule")
      .obj(),
  );
  await createNode(makeNode("w1").capacity({ cpu: "1", memory: "4Gi", pods: "10" }).obj());
  await createNode(makeNode("w2").capacity({ cpu: "1", memory: "4Gi", pods: "10" }).obj());
  running = Promise.all([informers.start(stop.signal), scheduler.start(stop.signal)]);
});

after(async () => {
  stop.abort();
  await running;
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

test("Scheduler: binds a pod that fits to an untainted node and records Scheduled", async () => {
  await harness.client.create(podsResource, makePod("small").requests({ cpu: "100m" }).obj());
  const pod = await waitFor("small to be bound", async () => {
    const p = await getPod("small");
    return (p.spec.nodeName ?? "") === "" ? undefined : p;
  });
  assert.ok(pod.spec.nodeName === "w1" || pod.spec.nodeName === "w2", pod.spec.nodeName);
  const event = await waitFor("the Scheduled event", async () => {
    const list = await harness.client.list<Event>(eventsResource, "default");
    return list.items.find((e) => e.involvedObject.name === "small" && e.reason === "Scheduled");
  });
  assert.equal(event.message, `Successfully assigned default/small to ${pod.spec.nodeName}`);
  assert.equal(event.type, "Normal");
});

test("Scheduler: an impossible request gets upstream's Unschedulable condition and event", async () => {
  await harness.client.create(podsResource, makePod("huge").requests({ cpu: "2" }).obj());
  const want =
    "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  const condition = await waitFor("the PodScheduled condition", async () => {
    const p = await getPod("huge");
    return p.status?.conditions?.find((c) => c.type === "PodScheduled");
  });
  assert.deepEqual(
    { status: condition.status, reason: condition.reason, message: condition.message },
    { status: "False", reason: "Unschedulable", message: want },
  );
  const event = await waitFor("the FailedScheduling event", async () => {
    const list = await harness.client.list<Event>(eventsResource, "default");
    return list.items.find(
      (e) => e.involvedObject.name === "huge" && e.reason === "FailedScheduling",
    );
  });
  assert.equal(event.message, want);
  assert.equal(event.type, "Warning");
});

test("Scheduler: gated pods and pods of other schedulers stay pending; removing the gate schedules", async () => {
  await harness.client.create(
    podsResource,
    makePod("gated").schedulingGates(["example.com/hold"]).obj(),
  );
  await harness.client.create(
    podsResource,
    makePod("foreign").schedulerName("other-scheduler").obj(),
  );
  await harness.client.create(podsResource, makePod("after").obj());
  await waitFor("the pod created after them to be bound", async () => {
    const p = await getPod("after");
    return (p.spec.nodeName ?? "") === "" ? undefined : p;
  });
  for (const name of ["gated", "foreign"]) {
    const p = await getPod(name);
    assert.deepEqual(
      {
        node: p.spec.nodeName,
        scheduled: p.status?.conditions?.find((c) => c.type === "PodScheduled"),
      },
      { node: undefined, scheduled: undefined },
      name,
    );
  }
  await harness.client.patch(podsResource, "default", "gated", "merge", {
    spec: { schedulingGates: null },
  });
  const bound = await waitFor("the ungated pod to be bound", async () => {
    const p = await getPod("gated");
    return (p.spec.nodeName ?? "") === "" ? undefined : p;
  });
  assert.notEqual(bound.spec.nodeName, "cp");
});

test("Scheduler: a higher-priority pod preempts a lower-priority one and takes its node", async () => {
  for (const name of ["low-a", "low-b"]) {
    await harness.client.create(podsResource, makePod(name).requests({ cpu: "800m" }).obj());
    await waitFor(`${name} to be bound`, async () => {
      const p = await getPod(name);
      return (p.spec.nodeName ?? "") === "" ? undefined : p;
    });
  }
  await harness.client.create(
    podsResource,
    makePod("high").priorityClassName("high").requests({ cpu: "500m" }).obj(),
  );
  const nominated = await waitFor("high to be nominated", async () => {
    const p = await getPod("high");
    return p.status?.nominatedNodeName;
  });
  assert.ok(nominated === "w1" || nominated === "w2", nominated);
  const lows = await Promise.all(["low-a", "low-b"].map((n) => getPod(n)));
  const victim = lows.find((p) => p.spec.nodeName === nominated);
  assert.ok(victim !== undefined, "victim !== undefined");
  const victimName = victim.metadata.name ?? "";
  const disrupted = await waitFor("the victim's DisruptionTarget condition", async () => {
    const p = await harness.client.get<Pod>(podsResource, "default", victimName);
    return p.status?.conditions?.find((c) => c.type === "DisruptionTarget");
  });
  assert.deepEqual(
    { status: disrupted.status, reason: disrupted.reason, message: disrupted.message },
    {
      status: "True",
      reason: "PreemptionByScheduler",
      message: "default-scheduler: preempting to accommodate a higher priority pod",
    },
  );
  const preempted = await waitFor("the Preempted event", async () => {
    const list = await harness.client.list<Event>(eventsResource, "default");
    return list.items.find((e) => e.involvedObject.name === victimName && e.reason === "Preempted");
  });
  assert.equal(
    preempted.message,
    `Preempted by pod ${(await getPod("high")).metadata.uid} on node ${nominated}`,
  );
  // No kubelet runs here: finish the victim's graceful deletion as a kubelet would.
  try {
    await harness.client.delete(podsResource, "default", victimName, { gracePeriodSeconds: 0 });
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
  const high = await waitFor("high to be bound", async () => {
    const p = await getPod("high");
    return (p.spec.nodeName ?? "") === "" ? undefined : p;
  });
  assert.equal(high.spec.nodeName, nominated);
});
