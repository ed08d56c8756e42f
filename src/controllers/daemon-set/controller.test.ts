import assert from "node:assert/strict";
import { test } from "node:test";
import type { DaemonSet, Node, Pod } from "../../api/index.ts";
import {
  type Client,
  daemonSetsResource,
  newInformerFactory,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { eventually, makeDaemonSet, makeNode, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newDaemonSetController } from "./controller.ts";
import { targetNodeName } from "./placement.ts";

ensureNoLeaksInEachTest();

async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "daemonset-controller" },
  );
  const controller = newDaemonSetController({
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  return {
    client: harness.client as Client,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

async function createNode(client: Client, node: Node): Promise<void> {
  delete node.metadata.uid;
  await client.create<Node>(nodesResource, node);
}

/** The live daemon pods by their target node. */
async function podsByNode(client: Client): Promise<Record<string, Pod>> {
  const list = await client.list<Pod>(podsResource, "default");
  const out: Record<string, Pod> = {};
  for (const pod of list.items) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    out[targetNodeName(pod) ?? "?"] = pod;
  }
  return out;
}

async function markReady(client: Client, pod: Pod): Promise<void> {
  await client.patch(
    podsResource,
    "default",
    pod.metadata.name ?? "",
    "merge",
    {
      status: {
        phase: "Running",
        conditions: [
          { type: "Ready", status: "True", lastTransitionTime: new Date().toISOString() },
        ],
      },
    },
    { subresource: "status" },
  );
}

async function statusOf(client: Client): Promise<DaemonSet["status"]> {
  return (await client.get<DaemonSet>(daemonSetsResource, "default", "agent")).status;
}

test("DaemonSet controller: one pinned pod per eligible node, none on a tainted node, following taint changes", async () => {
  await using env = await startEnv();
  await createNode(env.client, makeNode("n1").obj());
  await createNode(env.client, makeNode("n2").obj());
  await createNode(env.client, makeNode("n3").taint("dedicated", "gpu", "NoSchedule").obj());
  const ds = await env.client.create<DaemonSet>(
    daemonSetsResource,
    makeDaemonSet("agent").forCreate(),
  );

  const placed = await eventually(async () => {
    const pods = await podsByNode(env.client);
    assert.deepEqual(Object.keys(pods).sort(), ["n1", "n2"]);
    return pods;
  });
  const first = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.currentNumberScheduled, 2);
    return status;
  });
  const n1 = placed["n1"];
  assert.ok(n1 !== undefined, "n1 !== undefined");
  for (const pod of Object.values(placed)) await markReady(env.client, pod);
  const readyStatus = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.numberAvailable, 2);
    return status;
  });

  // A NoExecute taint the pod does not tolerate evicts it; lifting n3's taint admits one there.
  await env.client.patch(nodesResource, undefined, "n2", "merge", {
    spec: { taints: [{ key: "dedicated", value: "gpu", effect: "NoExecute" }] },
  });
  await env.client.patch(nodesResource, undefined, "n3", "merge", { spec: { taints: null } });
  const after = await eventually(async () => {
    const pods = await podsByNode(env.client);
    assert.deepEqual(Object.keys(pods).sort(), ["n1", "n3"]);
    return pods;
  });
  const finalStatus = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.currentNumberScheduled, 2);
    assert.equal(status?.desiredNumberScheduled, 2);
    assert.equal(status?.numberReady, 1);
    return status;
  });

  assert.deepEqual(
    {
      first,
      readyStatus,
      finalStatus,
      kept: after["n1"]?.metadata.name === n1.metadata.name,
      affinity: n1.spec.affinity,
      tolerations: n1.spec.tolerations?.map((t) => `${t.key}:${t.effect}`),
      owner: n1.metadata.ownerReferences?.[0]?.uid,
      hashed: (n1.metadata.labels?.["controller-revision-hash"] ?? "") !== "",
      generateName: n1.metadata.generateName,
    },
    {
      first: {
        currentNumberScheduled: 2,
        numberMisscheduled: 0,
        desiredNumberScheduled: 2,
        numberReady: 0,
        observedGeneration: 1,
        updatedNumberScheduled: 2,
        numberUnavailable: 2,
      },
      readyStatus: {
        currentNumberScheduled: 2,
        numberMisscheduled: 0,
        desiredNumberScheduled: 2,
        numberReady: 2,
        observedGeneration: 1,
        updatedNumberScheduled: 2,
        numberAvailable: 2,
      },
      finalStatus: {
        currentNumberScheduled: 2,
        numberMisscheduled: 0,
        desiredNumberScheduled: 2,
        numberReady: 1,
        observedGeneration: 1,
        updatedNumberScheduled: 2,
        numberAvailable: 1,
        numberUnavailable: 1,
      },
      kept: true,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] },
            ],
          },
        },
      },
      tolerations: [
        "node.kubernetes.io/not-ready:NoExecute",
        "node.kubernetes.io/unreachable:NoExecute",
        "node.kubernetes.io/disk-pressure:NoSchedule",
        "node.kubernetes.io/memory-pressure:NoSchedule",
        "node.kubernetes.io/pid-pressure:NoSchedule",
        "node.kubernetes.io/unschedulable:NoSchedule",
      ],
      owner: ds.metadata.uid,
      hashed: true,
      generateName: "agent-",
    },
  );
});

test("DaemonSet controller: RollingUpdate replaces pods one node at a time", async () => {
  await using env = await startEnv();
  await createNode(env.client, makeNode("n1").obj());
  await createNode(env.client, makeNode("n2").obj());
  await env.client.create<DaemonSet>(daemonSetsResource, makeDaemonSet("agent").forCreate());
  const readyAll = async (): Promise<void> => {
    for (const pod of Object.values(await podsByNode(env.client))) {
      if (pod.status?.phase !== "Running") await markReady(env.client, pod);
    }
  };
  await eventually(async () => {
    await readyAll();
    assert.equal((await statusOf(env.client))?.numberAvailable, 2);
  });
  const before = await podsByNode(env.client);
  await env.client.patch(daemonSetsResource, "default", "agent", "merge", {
    spec: { template: { spec: { containers: [{ name: "c", image: "agent:2" }] } } },
  });
  // While one node is being replaced, the other keeps its available pod.
  const midway = await eventually(async () => {
    const pods = await podsByNode(env.client);
    const images = Object.values(pods).map((p) => p.spec.containers[0]?.image);
    assert.ok(images.includes("agent:2"), 'images.includes("agent:2")');
    return images.filter((i) => i === "agent:1").length;
  });
  await eventually(async () => {
    await readyAll();
    const status = await statusOf(env.client);
    assert.equal(status?.updatedNumberScheduled, 2);
    assert.equal(status?.numberAvailable, 2);
  });
  const after = await podsByNode(env.client);
  assert.deepEqual(
    {
      midway,
      images: Object.values(after).map((p) => p.spec.containers[0]?.image),
      replaced: Object.keys(after).every((n) => after[n]?.metadata.uid !== before[n]?.metadata.uid),
    },
    { midway: 1, images: ["agent:2", "agent:2"], replaced: true },
  );
});
