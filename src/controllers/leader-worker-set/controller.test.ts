import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event, LeaderWorkerSet, Pod, PodGroup, Workload } from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  newInformerFactory,
  podGroupsResource,
  podsResource,
  workloadsResource,
} from "../../client/index.ts";
import {
  componentLifetime,
  eventually,
  makeLeaderWorkerSet,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newGarbageCollector } from "../garbage-collector/index.ts";
import { newLeaderWorkerSetController } from "./controller.ts";
import { leaderWorkerSetsResource } from "./sync.ts";

ensureNoLeaksInEachTest();

/** The API server with the LeaderWorkerSet controller and the garbage collector running. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = componentLifetime();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const recorder = (component: string) =>
    newEventRecorder(
      { client: harness.client, clock: systemClock, logger: discardLogger },
      { component },
    );
  const events = recorder("leaderworkerset");
  const gcEvents = recorder("garbage-collector-controller");
  const deps = { client: harness.client, informers, clock: systemClock, logger: discardLogger };
  const controller = newLeaderWorkerSetController({ ...deps, events });
  const collector = newGarbageCollector({ ...deps, events: gcEvents });
  const running = Promise.all([
    informers.start(stop.signal),
    controller.start(stop.signal),
    collector.start(stop.signal),
  ]);
  return {
    client: harness.client as Client,
    events,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await Promise.all([events.flush(), gcEvents.flush()]);
      await harness[Symbol.asyncDispose]();
    },
  };
}

async function podsOf(client: Client): Promise<Pod[]> {
  return (await client.list<Pod>(podsResource, "default")).items.sort((a, b) =>
    (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""),
  );
}

async function podNames(client: Client): Promise<string[]> {
  return (await podsOf(client)).map((p) => p.metadata.name ?? "");
}

async function podGroupNames(client: Client): Promise<string[]> {
  const list = await client.list<PodGroup>(podGroupsResource, "default");
  return list.items.map((pg) => pg.metadata.name ?? "").sort();
}

/** Writes a pod's status through the status subresource, as a kubelet would. */
async function setPodStatus(client: Client, name: string, status: Pod["status"]): Promise<void> {
  await client.patch(podsResource, "default", name, "merge", { status }, { subresource: "status" });
}

const runningReady: Pod["status"] = {
  phase: "Running",
  conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }],
};

async function lwsOf(client: Client, name: string): Promise<LeaderWorkerSet> {
  return client.get<LeaderWorkerSet>(leaderWorkerSetsResource, "default", name);
}

/** The names `lws-<i>` and `lws-<i>-<j>` of `groups` groups of `size` pods. */
function expectedNames(lws: string, groups: number, size: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < groups; i++) {
    names.push(`${lws}-${i}`);
    for (let j = 1; j < size; j++) names.push(`${lws}-${i}-${j}`);
  }
  return names.sort();
}

async function eventMessages(env: Awaited<ReturnType<typeof startEnv>>, uid: string) {
  await env.events.flush();
  const list = await env.client.list<Event>(eventsResource, "default");
  return list.items
    .filter((e) => e.involvedObject.uid === uid)
    .map((e) => `${e.reason}: ${e.message}`)
    .sort();
}

test("LeaderWorkerSet controller: a set of 4 groups of 4 gets its Workload, 4 PodGroups and 16 pods, then scales by whole groups", async () => {
  await using env = await startEnv();
  const created = await env.client.create<LeaderWorkerSet>(
    leaderWorkerSetsResource,
    makeLeaderWorkerSet("lws").replicas(4).size(4).forCreate(),
  );
  const uid = created.metadata.uid ?? "";
  await eventually(async () =>
    assert.deepEqual(await podNames(env.client), expectedNames("lws", 4, 4)),
  );
  const workload = await env.client.get<Workload>(workloadsResource, "default", "lws");
  const groups = await env.client.list<PodGroup>(podGroupsResource, "default");
  const pod = await env.client.get<Pod>(podsResource, "default", "lws-2-3");
  const owner = (o: { metadata: { ownerReferences?: unknown[] } }) => o.metadata.ownerReferences;
  const ref = {
    apiVersion: "leaderworkerset.x-k8s.io/v1",
    kind: "LeaderWorkerSet",
    name: "lws",
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  assert.deepEqual(
    {
      workloadOwner: owner(workload),
      workloadSpec: workload.spec,
      podGroups: groups.items
        .map((pg) => ({ name: pg.metadata.name, spec: pg.spec, owner: owner(pg) }))
        .sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "")),
      podOwner: owner(pod),
      podWorkloadRef: pod.spec.workloadRef,
    },
    {
      workloadOwner: [ref],
      workloadSpec: {
        controllerRef: {
          apiGroup: "leaderworkerset.x-k8s.io",
          kind: "LeaderWorkerSet",
          name: "lws",
        },
        podGroupTemplates: [{ name: "lws-pg-template", policy: { gang: { minCount: 4 } } }],
      },
      podGroups: [0, 1, 2, 3].map((i) => ({
        name: `lws-${i}`,
        spec: { workloadRef: { name: "lws" }, podGroupTemplateName: "lws-pg-template" },
        owner: [ref],
      })),
      podOwner: [ref],
      podWorkloadRef: { name: "lws", podGroupName: "lws-2" },
    },
  );

  // Scale through /scale as `kubectl scale` does: whole groups go, highest first, PodGroups too.
  await env.client.patch(
    leaderWorkerSetsResource,
    "default",
    "lws",
    "merge",
    { spec: { replicas: 2 } },
    { subresource: "scale" },
  );
  await eventually(async () => {
    assert.deepEqual(await podNames(env.client), expectedNames("lws", 2, 4));
    assert.deepEqual(await podGroupNames(env.client), ["lws-0", "lws-1"]);
  });
  await env.client.patch(
    leaderWorkerSetsResource,
    "default",
    "lws",
    "merge",
    { spec: { replicas: 3 } },
    { subresource: "scale" },
  );
  await eventually(async () => {
    assert.deepEqual(await podNames(env.client), expectedNames("lws", 3, 4));
    assert.deepEqual(await podGroupNames(env.client), ["lws-0", "lws-1", "lws-2"]);
    assert.equal((await lwsOf(env.client, "lws")).status?.replicas, 3);
  });
});

test("LeaderWorkerSet controller: a failed or deleted worker recreates its whole group, and ready groups are counted", async () => {
  await using env = await startEnv();
  const created = await env.client.create<LeaderWorkerSet>(
    leaderWorkerSetsResource,
    makeLeaderWorkerSet("lws").replicas(2).size(3).forCreate(),
  );
  await eventually(async () =>
    assert.deepEqual(await podNames(env.client), expectedNames("lws", 2, 3)),
  );
  for (const name of expectedNames("lws", 1, 3)) await setPodStatus(env.client, name, runningReady);
  const ready = await eventually(async () => {
    const status = (await lwsOf(env.client, "lws")).status;
    assert.equal(status?.readyReplicas, 1);
    return status;
  });
  const before = new Map((await podsOf(env.client)).map((p) => [p.metadata.name, p.metadata.uid]));

  await setPodStatus(env.client, "lws-1-2", { phase: "Failed" });
  await eventually(async () => {
    const pods = await podsOf(env.client);
    assert.deepEqual(
      pods.map((p) => p.metadata.name),
      expectedNames("lws", 2, 3),
    );
    const replaced = pods
      .filter((p) => p.metadata.uid !== before.get(p.metadata.name))
      .map((p) => p.metadata.name);
    assert.deepEqual(replaced, ["lws-1", "lws-1-1", "lws-1-2"]);
  });
  // A pod deleted behind the controller's back (at once: it was never scheduled) does the same.
  const group0 = new Map((await podsOf(env.client)).map((p) => [p.metadata.name, p.metadata.uid]));
  await env.client.delete(podsResource, "default", "lws-0-1");
  await eventually(async () => {
    const pods = await podsOf(env.client);
    assert.deepEqual(
      pods.map((p) => p.metadata.name),
      expectedNames("lws", 2, 3),
    );
    const replaced = pods
      .filter((p) => p.metadata.uid !== group0.get(p.metadata.name))
      .map((p) => p.metadata.name);
    assert.deepEqual(replaced, ["lws-0", "lws-0-1", "lws-0-2"]);
  });
  assert.deepEqual(
    {
      readyReplicas: ready?.readyReplicas,
      replicas: ready?.replicas,
      hpaPodSelector: ready?.hpaPodSelector,
      progressing: ready?.conditions?.find((c) => c.type === "Progressing")?.status,
      events: (await eventMessages(env, created.metadata.uid ?? "")).filter((m) =>
        m.startsWith("RecreateGroupOnPodRestart"),
      ),
    },
    {
      readyReplicas: 1,
      replicas: 2,
      hpaPodSelector:
        "leaderworkerset.sigs.k8s.io/name=lws,leaderworkerset.sigs.k8s.io/worker-index=0",
      progressing: "True",
      events: [
        "RecreateGroupOnPodRestart: Worker pod lws-0-1 failed, deleted leader pod lws-0 and its workers to recreate group 0",
        "RecreateGroupOnPodRestart: Worker pod lws-1-2 failed, deleted leader pod lws-1 and its workers to recreate group 1",
      ],
    },
  );
});

test("LeaderWorkerSet controller: LeaderReady creates the workers only once the leader is Ready", async () => {
  await using env = await startEnv();
  await env.client.create<LeaderWorkerSet>(
    leaderWorkerSetsResource,
    makeLeaderWorkerSet("lr").size(3).startupPolicy("LeaderReady").forCreate(),
  );
  await eventually(async () => assert.deepEqual(await podNames(env.client), ["lr-0"]));
  // Nothing else comes while the leader is not Ready: the status sync has seen the leader.
  await eventually(async () => assert.equal((await lwsOf(env.client, "lr")).status?.replicas, 1));
  const alone = await podNames(env.client);
  const workload = await env.client.get<Workload>(workloadsResource, "default", "lr");
  await setPodStatus(env.client, "lr-0", runningReady);
  await eventually(async () =>
    assert.deepEqual(await podNames(env.client), ["lr-0", "lr-0-1", "lr-0-2"]),
  );
  assert.deepEqual(
    { alone, policy: workload.spec.podGroupTemplates?.[0]?.policy },
    { alone: ["lr-0"], policy: { basic: {} } },
  );
});

test("LeaderWorkerSet controller: a template change recreates the groups at the new revision", async () => {
  await using env = await startEnv();
  await env.client.create<LeaderWorkerSet>(
    leaderWorkerSetsResource,
    makeLeaderWorkerSet("ru").replicas(2).size(2).forCreate(),
  );
  await eventually(async () =>
    assert.deepEqual(await podNames(env.client), expectedNames("ru", 2, 2)),
  );
  const revisions = async () =>
    new Set(
      (await podsOf(env.client)).map(
        (p) => p.metadata.labels?.["leaderworkerset.sigs.k8s.io/template-revision-hash"],
      ),
    );
  const [oldRevision] = await revisions();
  await env.client.patch(leaderWorkerSetsResource, "default", "ru", "json", [
    {
      op: "replace",
      path: "/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image",
      value: "nginx:2",
    },
  ]);
  const pods = await eventually(async () => {
    const all = await podsOf(env.client);
    assert.deepEqual(
      all.map((p) => p.metadata.name),
      expectedNames("ru", 2, 2),
    );
    assert.ok(
      all.every((p) => p.spec.containers[0]?.image === "nginx:2"),
      "every pod runs the new image",
    );
    return all;
  });
  const [newRevision] = await revisions();
  assert.notEqual(newRevision, oldRevision);
  await eventually(async () =>
    assert.equal((await lwsOf(env.client, "ru")).status?.updatedReplicas, 2),
  );
  assert.equal(pods.length, 4);
});

test("LeaderWorkerSet controller: deleting the set lets the garbage collector remove its Workload, PodGroups and pods", async () => {
  await using env = await startEnv();
  await env.client.create<LeaderWorkerSet>(
    leaderWorkerSetsResource,
    makeLeaderWorkerSet("gone").replicas(2).size(2).forCreate(),
  );
  await eventually(async () =>
    assert.deepEqual(await podNames(env.client), expectedNames("gone", 2, 2)),
  );
  await env.client.delete(leaderWorkerSetsResource, "default", "gone");
  await eventually(async () => {
    const workloads = await env.client.list<Workload>(workloadsResource, "default");
    assert.deepEqual(
      {
        pods: await podNames(env.client),
        podGroups: await podGroupNames(env.client),
        workloads: workloads.items.map((w) => w.metadata.name),
      },
      { pods: [], podGroups: [], workloads: [] },
    );
  }, 20_000);
});
