import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod, ReplicaSet, ReplicationController } from "../../api/index.ts";
import {
  type Client,
  newInformerFactory,
  podsResource,
  replicaSetsResource,
  replicationControllersResource,
} from "../../client/index.ts";
import { eventually, makePod, makeReplicaSet, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

ensureNoLeaksInEachTest();

/** The control plane plus a running ReplicaSet controller; stops everything on dispose. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const manager = newControllerManager(
    {
      client: harness.client,
      informers,
      clock: systemClock,
      random: systemRandom,
      logger: discardLogger,
    },
    { controllers: ["replicaset", "replicationcontroller"] },
  );
  const running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
  return {
    client: harness.client as Client,
    manager,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** Retries `check` until it stops throwing, or fails with its last error after `timeoutMs`. */
const podName = /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/;

async function podsOf(client: Client, rs: ReplicaSet): Promise<Pod[]> {
  const list = await client.list<Pod>(podsResource, "default");
  return list.items.filter((p) =>
    (p.metadata.ownerReferences ?? []).some((r) => r.uid === rs.metadata.uid),
  );
}

async function markReady(client: Client, pod: Pod, since = new Date()): Promise<void> {
  await client.patch(
    podsResource,
    pod.metadata.namespace,
    pod.metadata.name ?? "",
    "merge",
    {
      status: {
        phase: "Running",
        conditions: [
          {
            type: "Ready",
            status: "True",
            lastTransitionTime: `${since.toISOString().slice(0, 19)}Z`,
          },
        ],
      },
    },
    { subresource: "status" },
  );
}

const web = () =>
  makeReplicaSet("web").labels({ app: "web" }).obj() as ReplicaSet & { metadata: { uid?: string } };

function fresh(rs: ReplicaSet): ReplicaSet {
  const copy = structuredClone(rs);
  delete copy.metadata.uid;
  delete copy.metadata.creationTimestamp;
  delete copy.metadata.generation;
  return copy;
}

test("ReplicaSet controller: creates the replicas with a controller reference and generated names", async () => {
  await using env = await startEnv();
  const rs = await env.client.create<ReplicaSet>(
    replicaSetsResource,
    fresh({ ...web(), spec: { ...web().spec, replicas: 3 } }),
  );
  const pods = await eventually(async () => {
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 3);
    return found;
  });
  const stored = await eventually(async () => {
    const got = await env.client.get<ReplicaSet>(replicaSetsResource, "default", "web");
    assert.deepEqual(got.status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    return got;
  });
  assert.deepEqual(
    {
      names: pods.every((p) => podName.test(p.metadata.name ?? "")),
      refs: pods.map((p) => p.metadata.ownerReferences),
      status: stored.status,
    },
    {
      names: true,
      refs: pods.map(() => [
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          name: "web",
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]),
      status: { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 },
    },
  );
});

test("ReplicaSet controller: replaces a deleted pod and never runs more pods than asked under churn", async () => {
  await using env = await startEnv();
  const replicas = 4;
  const rs = await env.client.create<ReplicaSet>(
    replicaSetsResource,
    fresh({ ...web(), spec: { ...web().spec, replicas } }),
  );
  // Follow every pod of the ReplicaSet from the start and remember the most alive at once.
  const alive = new Set<string>();
  let most = 0;
  let created = 0;
  const stopWatch = new AbortController();
  const watching = (async () => {
    for await (const event of env.client.watch<Pod>(
      podsResource,
      "default",
      {},
      stopWatch.signal,
    )) {
      if (event.type === "BOOKMARK" || event.type === "ERROR") continue;
      const name = event.object.metadata.name ?? "";
      if (event.type === "DELETED") alive.delete(name);
      else if (!alive.has(name)) {
        alive.add(name);
        created++;
      }
      most = Math.max(most, alive.size);
    }
  })();
  try {
    await eventually(async () => assert.equal((await podsOf(env.client, rs)).length, replicas));
    const deletedNames: string[] = [];
    for (let round = 0; round < 3; round++) {
      const pods = await podsOf(env.client, rs);
      const victims = pods.slice(0, 2);
      await Promise.all(
        victims.map((p) => env.client.delete(podsResource, "default", p.metadata.name ?? "")),
      );
      deletedNames.push(...victims.map((p) => p.metadata.name ?? ""));
    }
    const final = await eventually(async () => {
      const pods = await podsOf(env.client, rs);
      assert.equal(pods.length, replicas);
      assert.ok(
        pods.every((p) => !deletedNames.includes(p.metadata.name ?? "")),
        'pods.every((p) => !deletedNames.includes(p.metadata.name ?? ""))',
      );
      assert.equal(created, replicas + deletedNames.length);
      return pods;
    });
    assert.deepEqual(
      { most, pods: final.length, created },
      { most: replicas, pods: replicas, created: replicas + deletedNames.length },
    );
  } finally {
    stopWatch.abort();
    await watching;
  }
});

test("ReplicaSet controller: ready and available counts honour minReadySeconds", async () => {
  await using env = await startEnv();
  const rs = await env.client.create<ReplicaSet>(
    replicaSetsResource,
    fresh({ ...web(), spec: { ...web().spec, replicas: 2, minReadySeconds: 3600 } }),
  );
  const pods = await eventually(async () => {
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 2);
    return found;
  });
  const [first, second] = pods;
  assert.ok(
    first !== undefined && second !== undefined,
    "first !== undefined && second !== undefined",
  );
  await markReady(env.client, first, new Date(Date.now() - 2 * 3600 * 1000));
  await markReady(env.client, second);
  await eventually(async () => {
    const got = await env.client.get<ReplicaSet>(replicaSetsResource, "default", "web");
    assert.deepEqual(got.status, {
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      observedGeneration: 1,
    });
  });
});

test("ReplicaSet controller: scaling down deletes not-ready pods before ready ones", async () => {
  await using env = await startEnv();
  const rs = await env.client.create<ReplicaSet>(
    replicaSetsResource,
    fresh({ ...web(), spec: { ...web().spec, replicas: 3 } }),
  );
  const pods = await eventually(async () => {
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 3);
    return found;
  });
  const keep = pods[1];
  assert.ok(keep !== undefined, "keep !== undefined");
  await markReady(env.client, keep);
  await eventually(async () => {
    const got = await env.client.get<ReplicaSet>(replicaSetsResource, "default", "web");
    assert.equal(got.status?.readyReplicas, 1);
  });
  await env.client.patch(replicaSetsResource, "default", "web", "merge", { spec: { replicas: 1 } });
  const left = await eventually(async () => {
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 1);
    return found;
  });
  assert.deepEqual(
    left.map((p) => p.metadata.name),
    [keep.metadata.name],
  );
});

test("ReplicaSet controller: adopts a matching orphan and releases a pod that stops matching", async () => {
  await using env = await startEnv();
  const orphan = makePod("orphan").labels({ app: "web" }).obj();
  delete orphan.metadata.uid;
  await env.client.create<Pod>(podsResource, orphan);
  const rs = await env.client.create<ReplicaSet>(
    replicaSetsResource,
    fresh({ ...web(), spec: { ...web().spec, replicas: 2 } }),
  );
  const owned = await eventually(async () => {
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 2);
    return found;
  });
  assert.ok(
    owned.some((p) => p.metadata.name === "orphan"),
    'owned.some((p) => p.metadata.name === "orphan")',
  );
  await env.client.patch(podsResource, "default", "orphan", "merge", {
    metadata: { labels: { app: "other" } },
  });
  const after = await eventually(async () => {
    const released = await env.client.get<Pod>(podsResource, "default", "orphan");
    assert.deepEqual(released.metadata.ownerReferences ?? [], []);
    const found = await podsOf(env.client, rs);
    assert.equal(found.length, 2);
    return found;
  });
  assert.ok(
    after.every((p) => p.metadata.name !== "orphan"),
    'after.every((p) => p.metadata.name !== "orphan")',
  );
});

test("ReplicationController manager: runs the same logic for a ReplicationController", async () => {
  await using env = await startEnv();
  const rc = await env.client.create<ReplicationController>(replicationControllersResource, {
    apiVersion: "v1",
    kind: "ReplicationController",
    metadata: { name: "web", namespace: "default" },
    spec: {
      replicas: 2,
      selector: { app: "web" },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "nginx:1" }] },
      },
    },
  });
  const pods = await eventually(async () => {
    const list = await env.client.list<Pod>(podsResource, "default");
    const owned = list.items.filter(
      (p) => p.metadata.ownerReferences?.[0]?.uid === rc.metadata.uid,
    );
    assert.equal(owned.length, 2);
    return owned;
  });
  const status = await eventually(async () => {
    const got = await env.client.get<ReplicationController>(
      replicationControllersResource,
      "default",
      "web",
    );
    assert.equal(got.status?.replicas, 2);
    return got.status;
  });
  assert.deepEqual(
    { kinds: pods.map((p) => p.metadata.ownerReferences?.[0]?.kind), status },
    {
      kinds: ["ReplicationController", "ReplicationController"],
      status: { replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 },
    },
  );
});
