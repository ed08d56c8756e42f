import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type Event,
  gangSchedulingAnnotation,
  type Job,
  type KubeObject,
  type Pod,
  type PodGroup,
  type Workload,
} from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  jobsResource,
  newInformerFactory,
  podGroupsResource,
  podsResource,
  type ResourceRef,
  workloadsResource,
} from "../../client/index.ts";
import {
  componentLifetime,
  eventually,
  makeJob,
  startClusterHarness,
} from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newGarbageCollector } from "../garbage-collector/index.ts";
import { newJobController } from "./controller.ts";

ensureNoLeaksInEachTest();

/** The API server with the Job controller (short batching) and the garbage collector. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = componentLifetime();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const recorder = (component: string) =>
    newEventRecorder(
      { client: harness.client, clock: systemClock, logger: discardLogger },
      { component },
    );
  const events = recorder("job-controller");
  const gcEvents = recorder("garbage-collector-controller");
  const deps = { client: harness.client, informers, clock: systemClock, logger: discardLogger };
  const jobs = newJobController({ ...deps, events }, { batchPeriodMs: 10 });
  const collector = newGarbageCollector({ ...deps, events: gcEvents });
  const running = Promise.all([
    informers.start(stop.signal),
    jobs.start(stop.signal),
    collector.start(stop.signal),
  ]);
  return {
    client: harness.client as Client,
    /** `reason: message` of the events about `job`, sorted. */
    async events(job: Job): Promise<string[]> {
      await events.flush();
      const list = await harness.client.list<Event>(eventsResource, "default");
      return list.items
        .filter((e) => e.involvedObject.uid === job.metadata.uid)
        .map((e) => `${e.reason}: ${e.message}`)
        .sort();
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await Promise.all([events.flush(), gcEvents.flush()]);
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** The objects of `resource` in `default` whose controller is `owner`. */
async function ownedBy<T extends KubeObject>(
  client: Client,
  resource: ResourceRef,
  owner: Job,
): Promise<T[]> {
  const list = await client.list<T>(resource, "default");
  return list.items.filter((o) =>
    (o.metadata.ownerReferences ?? []).some(
      (r) => r.controller === true && r.uid === owner.metadata.uid,
    ),
  );
}

/** The Job's pods that are not being deleted. */
async function livePods(client: Client, job: Job): Promise<Pod[]> {
  const pods = await ownedBy<Pod>(client, podsResource, job);
  return pods.filter((p) => p.metadata.deletionTimestamp === undefined);
}

/** The revision an object was written at; creation, for objects nothing has updated since. */
function revisionOf(object: KubeObject): number {
  return Number(object.metadata.resourceVersion);
}

test("Job controller: a gang Job gets its Workload and PodGroup before its first pod, and every pod joins the group", async () => {
  await using env = await startEnv();
  const gang = await env.client.create<Job>(
    jobsResource,
    makeJob("train").indexed().completions(3).parallelism(3).gang().forCreate(),
  );
  const plain = await env.client.create<Job>(
    jobsResource,
    makeJob("plain").indexed().completions(3).parallelism(3).forCreate(),
  );
  const pods = await eventually(async () => {
    const found = await livePods(env.client, gang);
    assert.equal(found.length, 3);
    return found;
  });
  const [workloads, groups] = await Promise.all([
    ownedBy<Workload>(env.client, workloadsResource, gang),
    ownedBy<PodGroup>(env.client, podGroupsResource, gang),
  ]);
  assert.deepEqual(
    workloads.map((w) => ({ spec: w.spec })),
    [
      {
        spec: {
          controllerRef: { apiGroup: "batch", kind: "Job", name: "train" },
          podGroupTemplates: [{ name: "train-pgt-0", policy: { gang: { minCount: 3 } } }],
        },
      },
    ],
  );
  const [workload] = workloads;
  const [group] = groups;
  assert.ok(workload !== undefined && group !== undefined, "one Workload and one PodGroup");
  assert.deepEqual(group.spec, {
    workloadRef: { name: workload.metadata.name },
    podGroupTemplateName: "train-pgt-0",
  });
  const ref = { name: workload.metadata.name, podGroupName: group.metadata.name };
  assert.deepEqual(
    pods.map((p) => p.spec?.workloadRef),
    pods.map(() => ref),
  );
  // Nothing updates these objects in this test, so their revisions are their creation order.
  const firstPod = Math.min(...pods.map(revisionOf));
  assert.ok(
    revisionOf(workload) < revisionOf(group) && revisionOf(group) < firstPod,
    `Workload ${revisionOf(workload)} < PodGroup ${revisionOf(group)} < first pod ${firstPod}`,
  );
  const events = await env.events(gang);
  assert.deepEqual(
    events.filter((e) => !e.startsWith("SuccessfulCreate")),
    [
      `PodGroupCreated: Created PodGroup ${group.metadata.name} for Job train`,
      `WorkloadCreated: Created Workload ${workload.metadata.name} for Job train`,
    ],
  );

  // A Job that did not opt in: by the time its pods exist, no group was made for it.
  const plainPods = await eventually(async () => {
    const found = await livePods(env.client, plain);
    assert.equal(found.length, 3);
    return found;
  });
  assert.deepEqual(
    plainPods.map((p) => p.spec?.workloadRef),
    [undefined, undefined, undefined],
  );
  assert.deepEqual(await ownedBy<Workload>(env.client, workloadsResource, plain), []);
});

test("Job controller: the annotation opts in, and suspending and resuming keeps the same Workload and PodGroup", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("legacy")
      .completions(2)
      .parallelism(2)
      .annotation(gangSchedulingAnnotation, "true")
      .forCreate(),
  );
  const first = await eventually(async () => {
    const found = await livePods(env.client, job);
    assert.equal(found.length, 2);
    return found;
  });
  const ref = first[0]?.spec?.workloadRef;
  assert.ok(ref?.podGroupName !== undefined, "the pods name a PodGroup");
  const uidsOf = async () => ({
    workloads: (await ownedBy<Workload>(env.client, workloadsResource, job)).map(
      (w) => w.metadata.uid,
    ),
    podGroups: (await ownedBy<PodGroup>(env.client, podGroupsResource, job)).map(
      (g) => g.metadata.uid,
    ),
  });
  const before = await uidsOf();
  assert.equal(before.workloads.length, 1);
  assert.equal(before.podGroups.length, 1);

  await env.client.patch(jobsResource, "default", "legacy", "merge", { spec: { suspend: true } });
  await eventually(async () => assert.deepEqual(await ownedBy(env.client, podsResource, job), []));
  await env.client.patch(jobsResource, "default", "legacy", "merge", { spec: { suspend: false } });
  const again = await eventually(async () => {
    const found = await livePods(env.client, job);
    assert.equal(found.length, 2);
    return found;
  });
  assert.ok(
    again.every((p) => !first.some((f) => f.metadata.uid === p.metadata.uid)),
    "resuming created new pods",
  );
  assert.deepEqual(
    again.map((p) => p.spec?.workloadRef),
    [ref, ref],
  );
  assert.deepEqual(await uidsOf(), before);
});

test("Job controller: deleting a gang Job lets the garbage collector remove its Workload, PodGroup and pods", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("doomed").indexed().completions(2).parallelism(2).gang().forCreate(),
  );
  await eventually(async () => assert.equal((await livePods(env.client, job)).length, 2));
  await env.client.delete(jobsResource, "default", "doomed", { propagationPolicy: "Background" });
  await eventually(async () => {
    const [workloads, groups, pods] = await Promise.all([
      env.client.list<Workload>(workloadsResource, "default"),
      env.client.list<PodGroup>(podGroupsResource, "default"),
      env.client.list<Pod>(podsResource, "default"),
    ]);
    assert.deepEqual(
      {
        workloads: workloads.items.map((w) => w.metadata.name),
        podGroups: groups.items.map((g) => g.metadata.name),
        pods: pods.items.map((p) => p.metadata.name),
      },
      { workloads: [], podGroups: [], pods: [] },
    );
  }, 20_000);
});
