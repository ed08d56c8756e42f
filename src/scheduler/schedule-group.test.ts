import assert from "node:assert/strict";
import { test } from "node:test";
import type { Node, Pod, PodGroup, PriorityClass, Workload } from "../api/index.ts";
import {
  isNotFound,
  newInformerFactory,
  nodesResource,
  podGroupsResource,
  podsResource,
  priorityClassesResource,
  workloadsResource,
} from "../client/index.ts";
import {
  type ClusterHarness,
  componentLifetime,
  eventually,
  makeNode,
  makePod,
  makePodGroup,
  makeWorkload,
  startClusterHarness,
} from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger, seededRandom, systemClock } from "../util/index.ts";
import { defaultProfile, inTreeRegistry, newScheduler, type SchedulerOptions } from "./index.ts";

ensureNoLeaksInEachTest();

// The group cycle against a real API server (memory storage) and the real scheduler: each test
// gets its own cluster of 1-cpu nodes, so outcomes depend only on the pods it creates.

interface Cluster {
  readonly harness: ClusterHarness;
  pod(name: string): Promise<Pod | undefined>;
  create(objects: readonly (Pod | Workload | PodGroup)[]): Promise<void>;
}

async function withCluster(
  nodes: number,
  run: (cluster: Cluster) => Promise<void>,
  options: SchedulerOptions = {},
): Promise<void> {
  const harness = await startClusterHarness();
  const stop = componentLifetime();
  let running: Promise<unknown> = Promise.resolve();
  try {
    await harness.client.create<PriorityClass>(priorityClassesResource, {
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name: "high" },
      value: 1000,
    });
    for (let i = 1; i <= nodes; i++) {
      const node = makeNode(`n${i}`).capacity({ cpu: "1", memory: "4Gi", pods: "10" }).obj();
      const created = await harness.client.create<Node>(nodesResource, node);
      await harness.client.updateStatus(nodesResource, { ...created, status: node.status });
    }
    const informers = newInformerFactory(harness.client);
    const scheduler = newScheduler(
      {
        client: harness.client,
        informers,
        clock: systemClock,
        random: seededRandom(3),
        logger: discardLogger,
        registry: inTreeRegistry(),
        profiles: [defaultProfile()],
      },
      { podInitialBackoffMs: 50, podMaxBackoffMs: 200, ...options },
    );
    running = Promise.all([informers.start(stop.signal), scheduler.start(stop.signal)]);
    await run({
      harness,
      async pod(name) {
        try {
          return await harness.client.get<Pod>(podsResource, "default", name);
        } catch (error: unknown) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      },
      async create(objects) {
        for (const o of objects) {
          const resource =
            o.kind === "Workload"
              ? workloadsResource
              : o.kind === "PodGroup"
                ? podGroupsResource
                : podsResource;
          await harness.client.create(resource, o);
        }
      },
    });
  } finally {
    stop.abort();
    await running;
    await harness[Symbol.asyncDispose]();
  }
}

/** A 1-cpu member of PodGroup `group` (Workload `group`). */
function member(name: string, group: string): Pod {
  const { uid: _uid, ...metadata } = makePod(name).obj().metadata;
  const pod = makePod(name).requests({ cpu: "1" }).podGroup(group, group).obj();
  return { ...pod, metadata };
}

function gang(name: string, minCount: number): (Workload | PodGroup)[] {
  return [
    makeWorkload(name).template("worker", minCount).forCreate(),
    makePodGroup(name, name, "worker").forCreate(),
  ];
}

function nodeOf(pod: Pod | undefined): string {
  return pod?.spec.nodeName ?? "";
}

function scheduledCondition(pod: Pod | undefined) {
  return pod?.status?.conditions?.find((c) => c.type === "PodScheduled");
}

async function podGroup(cluster: Cluster, name: string): Promise<PodGroup> {
  return cluster.harness.client.get<PodGroup>(podGroupsResource, "default", name);
}

test("scheduleGroup: a gang that fits binds every member and reports Scheduled", async () => {
  await withCluster(3, async (cluster) => {
    await cluster.create([...gang("g", 3), member("a", "g"), member("b", "g"), member("c", "g")]);
    const nodes = await eventually(async () => {
      const bound = await Promise.all(
        ["a", "b", "c"].map(async (n) => nodeOf(await cluster.pod(n))),
      );
      assert.ok(
        bound.every((n) => n !== ""),
        `every member bound: ${bound.join(",")}`,
      );
      return bound;
    });
    assert.equal(new Set(nodes).size, 3, "one member per 1-cpu node");
    const status = await eventually(async () => {
      const pg = await podGroup(cluster, "g");
      assert.equal(pg.status?.scheduledPods, 3, "scheduledPods counts the bound members");
      return pg.status;
    });
    const condition = status?.conditions?.find((c) => c.type === "PodGroupScheduled");
    assert.deepEqual(
      { status: condition?.status, reason: condition?.reason },
      { status: "True", reason: "Scheduled" },
    );
  });
});

test("scheduleGroup: a gang larger than the cluster binds nothing and holds no capacity", async () => {
  await withCluster(2, async (cluster) => {
    await cluster.create([...gang("g", 3), member("a", "g"), member("b", "g"), member("c", "g")]);
    const conditions = await eventually(async () => {
      const pods = await Promise.all(["a", "b", "c"].map((n) => cluster.pod(n)));
      const messages = pods.map((p) => scheduledCondition(p)?.message ?? "");
      assert.ok(
        messages.every((m) => m !== ""),
        `every member has a PodScheduled condition: ${messages}`,
      );
      return pods.map((p) => ({ node: nodeOf(p), reason: scheduledCondition(p)?.reason }));
    });
    assert.deepEqual(conditions, [
      { node: "", reason: "Unschedulable" },
      { node: "", reason: "Unschedulable" },
      { node: "", reason: "Unschedulable" },
    ]);
    const messages = await Promise.all(
      ["a", "b", "c"].map(async (n) => scheduledCondition(await cluster.pod(n))?.message),
    );
    assert.deepEqual(messages.sort(), [
      "0/2 nodes are available: 2 Insufficient cpu.",
      "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
      "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
    ]);
    const condition = await eventually(async () => {
      const c = (await podGroup(cluster, "g")).status?.conditions?.[0];
      assert.equal(c?.status, "False", "PodGroupScheduled is False");
      return c;
    });
    assert.deepEqual(
      { type: condition?.type, reason: condition?.reason, message: condition?.message },
      {
        type: "PodGroupScheduled",
        reason: "Unschedulable",
        message: "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
      },
    );
    // Nothing of the gang holds capacity: a plain pod takes a node at once.
    const { uid: _uid, ...metadata } = makePod("plain").obj().metadata;
    await cluster.create([{ ...makePod("plain").requests({ cpu: "1" }).obj(), metadata }]);
    await eventually(async () => {
      assert.notEqual(nodeOf(await cluster.pod("plain")), "", "the plain pod is bound");
    });
  });
});

test("scheduleGroup: members beyond minCount wait as ordinary failures while the gang runs", async () => {
  await withCluster(2, async (cluster) => {
    await cluster.create([...gang("g", 2), member("a", "g"), member("b", "g"), member("c", "g")]);
    await eventually(async () => {
      const pods = await Promise.all(["a", "b", "c"].map((n) => cluster.pod(n)));
      const bound = pods.filter((p) => nodeOf(p) !== "");
      const waiting = pods.filter((p) => scheduledCondition(p)?.status === "False");
      assert.equal(bound.length, 2, "minCount members bound");
      assert.equal(waiting.length, 1, "the extra member is Unschedulable");
      assert.equal(
        scheduledCondition(waiting[0])?.message,
        "0/2 nodes are available: 2 Insufficient cpu.",
      );
      const c = (await podGroup(cluster, "g")).status?.conditions?.[0];
      assert.equal(c?.status, "True", "the gang is Scheduled: extras do not undo it");
    });
  });
});

test("scheduleGroup: of two gangs that fit alone but not together one runs whole", async () => {
  await withCluster(3, async (cluster) => {
    await cluster.create([
      ...gang("x", 2),
      ...gang("y", 2),
      member("x1", "x"),
      member("y1", "y"),
      member("x2", "x"),
      member("y2", "y"),
    ]);
    await eventually(async () => {
      const bound = async (names: string[]) =>
        (await Promise.all(names.map((n) => cluster.pod(n)))).filter((p) => nodeOf(p) !== "")
          .length;
      const x = await bound(["x1", "x2"]);
      const y = await bound(["y1", "y2"]);
      assert.deepEqual([x, y].sort(), [0, 2], `one gang whole, the other none: x=${x} y=${y}`);
      const failed = await Promise.all(
        (x === 0 ? ["x1", "x2"] : ["y1", "y2"]).map(async (n) =>
          scheduledCondition(await cluster.pod(n)),
        ),
      );
      assert.ok(
        failed.every((c) => c?.status === "False"),
        "the losing gang's pods are Unschedulable",
      );
    });
  });
});

test("scheduleGroup: legacy replica keys are separate gangs", async () => {
  await withCluster(4, async (cluster) => {
    const legacy = (name: string, key: string): Pod => {
      const { uid: _uid, ...metadata } = makePod(name).obj().metadata;
      return {
        ...makePod(name).requests({ cpu: "1" }).workloadGroup("train", "workers", key).obj(),
        metadata,
      };
    };
    await cluster.create([
      makeWorkload("train").group("workers", 2).forCreate(),
      legacy("r0a", "0"),
      legacy("r0b", "0"),
      legacy("r1a", "1"),
    ]);
    await eventually(async () => {
      assert.notEqual(nodeOf(await cluster.pod("r0a")), "", "replica 0 is bound");
      assert.notEqual(nodeOf(await cluster.pod("r0b")), "", "replica 0 is bound");
    });
    // Replica 1 has one member of two: it waits in PreEnqueue, with no condition written.
    const r1 = await cluster.pod("r1a");
    assert.deepEqual(
      { node: nodeOf(r1), condition: scheduledCondition(r1) },
      {
        node: "",
        condition: undefined,
      },
    );
    await cluster.create([legacy("r1b", "1")]);
    await eventually(async () => {
      const r1a = await cluster.pod("r1a");
      assert.notEqual(nodeOf(r1a), "", "replica 1 is bound once complete");
    });
  });
});

test("scheduleGroup: pods created before their PodGroup wait, then start together", async () => {
  await withCluster(2, async (cluster) => {
    await cluster.create([member("a", "g"), member("b", "g")]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(nodeOf(await cluster.pod("a")), "", "no PodGroup yet: Pending");
    await cluster.create(gang("g", 2));
    await eventually(async () => {
      assert.notEqual(nodeOf(await cluster.pod("a")), "", "a bound");
      assert.notEqual(nodeOf(await cluster.pod("b")), "", "b bound");
    });
  });
});

function low(name: string, node: string): Pod {
  const { uid: _uid, ...metadata } = makePod(name).obj().metadata;
  const pod = makePod(name).requests({ cpu: "1" }).nodeName(node).obj();
  // No kubelet here: a zero grace period lets the victim's deletion complete at once.
  return { ...pod, metadata, spec: { ...pod.spec, terminationGracePeriodSeconds: 0 } };
}

function high(name: string, group: string): Pod {
  const pod = member(name, group);
  return { ...pod, spec: { ...pod.spec, priorityClassName: "high" } };
}

test("scheduleGroup: preemption evicts lower-priority pods when the whole gang then fits", async () => {
  await withCluster(3, async (cluster) => {
    await cluster.create([low("low1", "n1"), low("low2", "n2")]);
    await cluster.create([...gang("g", 3), high("a", "g"), high("b", "g"), high("c", "g")]);
    await eventually(async () => {
      const bound = await Promise.all(
        ["a", "b", "c"].map(async (n) => nodeOf(await cluster.pod(n))),
      );
      assert.equal(bound.filter((n) => n !== "").length, 3, `gang bound: ${bound.join(",")}`);
    }, 20_000);
    assert.deepEqual(
      [await cluster.pod("low1"), await cluster.pod("low2")],
      [undefined, undefined],
      "both victims are gone",
    );
  });
});

test("scheduleGroup: preemption evicts nothing when the gang would not fit anyway", async () => {
  await withCluster(2, async (cluster) => {
    await cluster.create([low("low1", "n1"), low("low2", "n2")]);
    await cluster.create([...gang("g", 3), high("a", "g"), high("b", "g"), high("c", "g")]);
    await eventually(async () => {
      const c = (await podGroup(cluster, "g")).status?.conditions?.[0];
      assert.equal(c?.status, "False", "the gang failed");
    });
    const kept = [nodeOf(await cluster.pod("low1")), nodeOf(await cluster.pod("low2"))];
    assert.deepEqual(kept, ["n1", "n2"], "no victim was evicted");
  });
});

test("scheduleGroup: a gang assembling for longer than the timeout reports Timeout", async () => {
  await withCluster(
    2,
    async (cluster) => {
      await cluster.create([...gang("g", 3), member("a", "g")]);
      const condition = await eventually(async () => {
        const c = (await podGroup(cluster, "g")).status?.conditions?.[0];
        assert.equal(c?.reason, "Timeout", "PodGroupScheduled says Timeout");
        return c;
      });
      assert.deepEqual(
        { status: condition?.status, message: condition?.message },
        { status: "False", message: "minCount (3) pods did not appear within 300ms: 1 present" },
      );
      assert.equal(nodeOf(await cluster.pod("a")), "", "the member stays Pending");
    },
    { gangSchedulingTimeoutMs: 300 },
  );
});
