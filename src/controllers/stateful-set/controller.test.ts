import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event, Pod, StatefulSet } from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  newInformerFactory,
  podsResource,
  statefulSetsResource,
} from "../../client/index.ts";
import { eventually, makeStatefulSet, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newStatefulSetController } from "./controller.ts";

ensureNoLeaksInEachTest();

/** The API server plus a running StatefulSet controller; stops everything on dispose. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "statefulset-controller" },
  );
  const controller = newStatefulSetController({
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  return {
    client: harness.client as Client,
    events,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** Retries `check` until it stops throwing, or fails with its last error after `timeoutMs`. */
async function podNames(client: Client): Promise<string[]> {
  const list = await client.list<Pod>(podsResource, "default");
  return list.items.map((p) => p.metadata.name ?? "").sort();
}

/** Marks a pod Running and Ready through the status subresource, as a kubelet would. */
async function markReady(client: Client, name: string): Promise<void> {
  await client.patch(
    podsResource,
    "default",
    name,
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

async function statusOf(client: Client): Promise<StatefulSet["status"]> {
  return (await client.get<StatefulSet>(statefulSetsResource, "default", "web")).status;
}

/** Follows pod watch events of the namespace, keeping ADDED and DELETED names in order. */
function recordPodEvents(client: Client) {
  const added: string[] = [];
  const deleted: string[] = [];
  const stop = new AbortController();
  const done = (async () => {
    for await (const event of client.watch<Pod>(podsResource, "default", {}, stop.signal)) {
      if (event.type === "ADDED") added.push(event.object.metadata.name ?? "");
      if (event.type === "DELETED") deleted.push(event.object.metadata.name ?? "");
    }
  })();
  return {
    added,
    deleted,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await done;
    },
  };
}

test("StatefulSet controller: OrderedReady scales up one Ready pod at a time and down in reverse", async () => {
  await using env = await startEnv();
  await using seen = recordPodEvents(env.client);
  const created = await env.client.create<StatefulSet>(
    statefulSetsResource,
    makeStatefulSet("web").replicas(3).forCreate(),
  );
  // The sync that counted web-0 (not Ready yet) created nothing more.
  await eventually(async () => assert.equal((await statusOf(env.client))?.replicas, 1));
  const alone = await podNames(env.client);
  for (const name of ["web-0", "web-1"]) {
    await markReady(env.client, name);
    await eventually(async () => {
      const names = await podNames(env.client);
      assert.ok(
        names.includes(`web-${Number(name.slice(4)) + 1}`),
        `${name} is followed by web-${Number(name.slice(4)) + 1}`,
      );
    });
  }
  await markReady(env.client, "web-2");
  const full = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.readyReplicas, 3);
    return status;
  });
  const pod0 = await env.client.get<Pod>(podsResource, "default", "web-0");

  await env.client.patch(statefulSetsResource, "default", "web", "merge", {
    spec: { replicas: 1 },
  });
  await eventually(async () => assert.deepEqual(await podNames(env.client), ["web-0"]));
  await eventually(async () => assert.equal((await statusOf(env.client))?.replicas, 1));
  await env.events.flush();
  const events = await env.client.list<Event>(eventsResource, "default");
  const messages = events.items
    .filter((e) => e.involvedObject.uid === created.metadata.uid)
    .map((e) => `${e.reason}: ${e.message}`)
    .sort();

  assert.deepEqual(
    {
      alone,
      added: seen.added,
      deleted: seen.deleted,
      full: { ...full, currentRevision: undefined, updateRevision: undefined },
      revisionsEqual: full?.currentRevision === full?.updateRevision,
      revisionLabel: pod0.metadata.labels?.["controller-revision-hash"] === full?.updateRevision,
      identity: {
        labels: pod0.metadata.labels?.["statefulset.kubernetes.io/pod-name"],
        index: pod0.metadata.labels?.["apps.kubernetes.io/pod-index"],
        hostname: pod0.spec.hostname,
        subdomain: pod0.spec.subdomain,
        owner: pod0.metadata.ownerReferences?.[0]?.uid,
      },
      messages,
    },
    {
      alone: ["web-0"],
      added: ["web-0", "web-1", "web-2"],
      deleted: ["web-2", "web-1"],
      full: {
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 1,
        collisionCount: 0,
        currentRevision: undefined,
        updateRevision: undefined,
      },
      revisionsEqual: true,
      revisionLabel: true,
      identity: {
        labels: "web-0",
        index: "0",
        hostname: "web-0",
        subdomain: "web",
        owner: created.metadata.uid,
      },
      messages: [
        "SuccessfulCreate: create Pod web-0 in StatefulSet web successful",
        "SuccessfulCreate: create Pod web-1 in StatefulSet web successful",
        "SuccessfulCreate: create Pod web-2 in StatefulSet web successful",
        "SuccessfulDelete: delete Pod web-1 in StatefulSet web successful",
        "SuccessfulDelete: delete Pod web-2 in StatefulSet web successful",
      ],
    },
  );
});

test("StatefulSet controller: Parallel creates every pod without waiting for readiness", async () => {
  await using env = await startEnv();
  await env.client.create<StatefulSet>(
    statefulSetsResource,
    makeStatefulSet("web").replicas(3).podManagementPolicy("Parallel").forCreate(),
  );
  const names = await eventually(async () => {
    const found = await podNames(env.client);
    assert.equal(found.length, 3);
    return found;
  });
  assert.deepEqual(names, ["web-0", "web-1", "web-2"]);
});

test("StatefulSet controller: RollingUpdate replaces pods from the highest ordinal and completes the revision", async () => {
  await using env = await startEnv();
  await env.client.create<StatefulSet>(
    statefulSetsResource,
    makeStatefulSet("web").replicas(2).podManagementPolicy("Parallel").forCreate(),
  );
  await eventually(async () => assert.equal((await podNames(env.client)).length, 2));
  await markReady(env.client, "web-0");
  await markReady(env.client, "web-1");
  const before = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.readyReplicas, 2);
    return status;
  });
  await env.client.patch(statefulSetsResource, "default", "web", "merge", {
    spec: { template: { spec: { containers: [{ name: "c", image: "nginx:2" }] } } },
  });
  const revisionOf = async (name: string) =>
    (await env.client.get<Pod>(podsResource, "default", name)).metadata.labels?.[
      "controller-revision-hash"
    ];
  const updated = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.notEqual(status?.updateRevision, before?.updateRevision);
    assert.equal(await revisionOf("web-1"), status?.updateRevision);
    return status?.updateRevision;
  });
  const web0WhileWeb1Updated = await revisionOf("web-0");
  await markReady(env.client, "web-1");
  await eventually(async () => assert.equal(await revisionOf("web-0"), updated));
  await markReady(env.client, "web-0");
  const after = await eventually(async () => {
    const status = await statusOf(env.client);
    assert.equal(status?.currentRevision, updated);
    assert.equal(status?.readyReplicas, 2);
    return status;
  });
  const image = (await env.client.get<Pod>(podsResource, "default", "web-0")).spec.containers[0]
    ?.image;
  assert.deepEqual(
    {
      web0WhileWeb1Updated: web0WhileWeb1Updated === before?.updateRevision,
      image,
      current: after?.currentReplicas,
      updated: after?.updatedReplicas,
    },
    { web0WhileWeb1Updated: true, image: "nginx:2", current: 2, updated: 2 },
  );
});
