import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event, Lease, Node, Pod, Toleration } from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  leasesResource,
  newInformerFactory,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import {
  componentLifetime,
  eventually,
  makeNode,
  makePod,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, rfc3339, rfc3339Micro, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newNodeLifecycleController } from "./controller.ts";
import { newPodGcController } from "./pod-gc.ts";
import { newTaintEvictionController } from "./taint-eviction.ts";

ensureNoLeaksInEachTest();

/** The API server plus the node lifecycle, taint eviction and pod GC controllers, on short timers. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = componentLifetime();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "node-controller" },
  );
  const deps = {
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  };
  const controllers = [
    newNodeLifecycleController(deps, {
      nodeMonitorPeriodMs: 100,
      nodeMonitorGracePeriodMs: 800,
      nodeStartupGracePeriodMs: 800,
    }),
    newTaintEvictionController(deps),
    newPodGcController(deps, { quarantineMs: 100, gcCheckPeriodMs: 100 }),
  ];
  const running = Promise.all([
    informers.start(stop.signal),
    ...controllers.map((c) => c.start(stop.signal)),
  ]);
  return {
    client: harness.client as Client,
    async events(): Promise<string[]> {
      await events.flush();
      const list = await harness.client.list<Event>(eventsResource, "default");
      return list.items.map((e) => `${e.involvedObject.name} ${e.reason}: ${e.message}`).sort();
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** Registers a Ready node and its Lease, as a kubelet does. */
async function registerNode(client: Client, name: string): Promise<void> {
  const now = rfc3339(new Date());
  const node = makeNode(name)
    .condition({
      type: "Ready",
      status: "True",
      reason: "KubeletReady",
      message: "kubelet is posting ready status",
      lastHeartbeatTime: now,
      lastTransitionTime: now,
    })
    .obj();
  delete node.metadata.uid;
  await client.create<Node>(nodesResource, node);
  await client.create<Lease>(leasesResource, {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name, namespace: "kube-node-lease" },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(new Date()) },
  });
}

async function renewLease(client: Client, name: string): Promise<void> {
  await client.patch(leasesResource, "kube-node-lease", name, "merge", {
    spec: { renewTime: rfc3339Micro(new Date()) },
  });
}

/** A Running, Ready pod bound to `node` with the given tolerations. */
async function runPod(client: Client, name: string, node: string, tolerations: Toleration[]) {
  const pod = makePod(name).nodeName(node).obj();
  delete pod.metadata.uid;
  pod.spec.tolerations = tolerations;
  await client.create<Pod>(podsResource, pod);
  await client.patch(
    podsResource,
    "default",
    name,
    "merge",
    {
      status: {
        phase: "Running",
        conditions: [{ type: "Ready", status: "True", lastTransitionTime: rfc3339(new Date()) }],
      },
    },
    { subresource: "status" },
  );
}

const unreachable = (seconds?: number): Toleration => ({
  key: "node.kubernetes.io/unreachable",
  operator: "Exists",
  effect: "NoExecute",
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
});

test("node lifecycle: a node whose Lease stops is Unknown and tainted, its pods evicted after tolerationSeconds, and recovers", async () => {
  await using env = await startEnv();
  await registerNode(env.client, "n1");
  await registerNode(env.client, "n2");
  // n2's kubelet keeps renewing its Lease; n1's has stopped.
  const keepAlive = setInterval(() => {
    renewLease(env.client, "n2").catch(() => undefined);
  }, 100);
  try {
    await runPod(env.client, "forever", "n1", [unreachable()]);
    await runPod(env.client, "short", "n1", [unreachable(1)]);
    await runPod(env.client, "default-toleration", "n1", []);
    await runPod(env.client, "healthy", "n2", [unreachable(0)]);

    const silent = await eventually(async () => {
      const node = await env.client.get<Node>(nodesResource, undefined, "n1");
      const taints = (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();
      assert.deepEqual(taints, [
        "node.kubernetes.io/unreachable:NoExecute",
        "node.kubernetes.io/unreachable:NoSchedule",
      ]);
      return node;
    });
    const evicted = await eventually(async () => {
      const pod = await env.client.get<Pod>(podsResource, "default", "short");
      assert.ok(
        pod.metadata.deletionTimestamp !== undefined,
        "pod.metadata.deletionTimestamp !== undefined",
      );
      return pod;
    });
    const forever = await env.client.get<Pod>(podsResource, "default", "forever");
    const byDefault = await env.client.get<Pod>(podsResource, "default", "default-toleration");
    const healthy = await env.client.get<Pod>(podsResource, "default", "healthy");
    const ready = silent.status?.conditions?.find((c) => c.type === "Ready");

    // The kubelet comes back: Lease renewed and Ready posted again.
    await renewLease(env.client, "n1");
    const now = rfc3339(new Date());
    await env.client.patch(
      nodesResource,
      undefined,
      "n1",
      "strategic",
      {
        status: {
          conditions: [
            {
              type: "Ready",
              status: "True",
              reason: "KubeletReady",
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
        },
      },
      { subresource: "status" },
    );
    const recovered = await eventually(async () => {
      await renewLease(env.client, "n1");
      const node = await env.client.get<Node>(nodesResource, undefined, "n1");
      assert.deepEqual(node.spec?.taints ?? [], []);
      return node;
    });
    const events = await env.events();

    assert.deepEqual(
      {
        ready: { status: ready?.status, reason: ready?.reason, message: ready?.message },
        silencedTypes: silent.status?.conditions
          ?.filter((c) => c.status === "Unknown")
          .map((c) => c.type)
          .sort(),
        disruption: evicted.status?.conditions?.find((c) => c.type === "DisruptionTarget"),
        forever: forever.metadata.deletionTimestamp,
        foreverReady: forever.status?.conditions?.find((c) => c.type === "Ready")?.status,
        byDefault: byDefault.metadata.deletionTimestamp,
        defaultToleration: byDefault.spec.tolerations?.find(
          (t) => t.key === "node.kubernetes.io/unreachable",
        )?.tolerationSeconds,
        healthy: healthy.metadata.deletionTimestamp,
        recoveredTaints: recovered.spec?.taints,
        nodeEvents: events.filter((e) => e.startsWith("n1 ")),
        podEvents: events.filter((e) => e.startsWith("short ")),
      },
      {
        ready: {
          status: "Unknown",
          reason: "NodeStatusUnknown",
          message: "Kubelet stopped posting node status.",
        },
        silencedTypes: ["DiskPressure", "MemoryPressure", "PIDPressure", "Ready"],
        disruption: {
          type: "DisruptionTarget",
          status: "True",
          reason: "DeletionByTaintManager",
          message: "Taint manager: deleting due to NoExecute taint",
          lastTransitionTime: evicted.status?.conditions?.find((c) => c.type === "DisruptionTarget")
            ?.lastTransitionTime,
        },
        forever: undefined,
        foreverReady: "False",
        byDefault: undefined,
        defaultToleration: 300,
        healthy: undefined,
        recoveredTaints: undefined,
        nodeEvents: [
          "n1 NodeNotReady: Node n1 status is now: NodeNotReady",
          "n1 RegisteredNode: Node n1 event: Registered Node n1 in Controller",
        ],
        podEvents: [
          "short NodeNotReady: Node is not ready",
          "short TaintManagerEviction: Marking for deletion Pod default/short",
        ],
      },
    );
  } finally {
    clearInterval(keepAlive);
  }
});

test("pod GC: pods bound to a deleted node are marked Failed and deleted", async () => {
  await using env = await startEnv();
  await registerNode(env.client, "n1");
  await runPod(env.client, "orphan", "n1", []);
  const seen: Pod[] = [];
  const stopWatch = new AbortController();
  const watching = (async () => {
    for await (const event of env.client.watch<Pod>(
      podsResource,
      "default",
      {},
      stopWatch.signal,
    )) {
      if (event.type === "MODIFIED") seen.push(event.object);
    }
  })();
  try {
    await env.client.delete(nodesResource, undefined, "n1");
    await eventually(async () => {
      const list = await env.client.list<Pod>(podsResource, "default");
      assert.equal(list.items.length, 0);
    });
  } finally {
    stopWatch.abort();
    await watching;
  }
  const failed = seen.find((p) => p.status?.phase === "Failed");
  assert.deepEqual(
    {
      phase: failed?.status?.phase,
      condition: failed?.status?.conditions?.find((c) => c.type === "DisruptionTarget")?.reason,
    },
    { phase: "Failed", condition: "DeletionByPodGC" },
  );
});

test("pod GC: a terminating pod on a failed node tainted out-of-service is force-deleted", async () => {
  await using env = await startEnv();
  await registerNode(env.client, "n1");
  await runPod(env.client, "stuck", "n1", [unreachable()]);
  // n1's Lease is not renewed: it goes Unknown; the deleted pod stays Terminating (no kubelet).
  await eventually(async () => {
    const node = await env.client.get<Node>(nodesResource, undefined, "n1");
    const ready = node.status?.conditions?.find((c) => c.type === "Ready");
    assert.equal(ready?.status, "Unknown");
  });
  await env.client.delete(podsResource, "default", "stuck");
  const terminating = await env.client.get<Pod>(podsResource, "default", "stuck");
  assert.ok(terminating.metadata.deletionTimestamp !== undefined, "the pod is Terminating");
  await env.client.patch(nodesResource, undefined, "n1", "strategic", {
    spec: {
      taints: [
        { key: "node.kubernetes.io/out-of-service", value: "nodeshutdown", effect: "NoExecute" },
      ],
    },
  });
  await eventually(async () => {
    const list = await env.client.list<Pod>(podsResource, "default");
    assert.deepEqual(
      list.items.map((p) => p.metadata.name),
      [],
    );
  });
});
