import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event, Job, Pod } from "../../api/index.ts";
import {
  type Client,
  eventsResource,
  jobsResource,
  newInformerFactory,
  podsResource,
} from "../../client/index.ts";
import { eventually, makeJob, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newJobController } from "./controller.ts";
import { newTtlAfterFinishedController } from "./ttl-after-finished.ts";

ensureNoLeaksInEachTest();

/** The API server plus running Job and TTL controllers (short backoff and batching). */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "job-controller" },
  );
  const deps = {
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  };
  const jobs = newJobController(deps, { podFailureBackoffMs: 50, batchPeriodMs: 10 });
  const ttl = newTtlAfterFinishedController(deps);
  const running = Promise.all([
    informers.start(stop.signal),
    jobs.start(stop.signal),
    ttl.start(stop.signal),
  ]);
  return {
    client: harness.client as Client,
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
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** The Job's pods that have not finished. */
async function runningPods(client: Client, job: Job): Promise<Pod[]> {
  const list = await client.list<Pod>(podsResource, "default");
  return list.items.filter(
    (p) =>
      p.metadata.ownerReferences?.[0]?.uid === job.metadata.uid &&
      p.metadata.deletionTimestamp === undefined &&
      p.status?.phase !== "Succeeded" &&
      p.status?.phase !== "Failed",
  );
}

/** Ends a pod as its kubelet would: phase, and Ready=False at the given time. */
async function finish(client: Client, pod: Pod, phase: "Succeeded" | "Failed", at = new Date()) {
  await client.patch(
    podsResource,
    "default",
    pod.metadata.name ?? "",
    "merge",
    {
      status: {
        phase,
        conditions: [{ type: "Ready", status: "False", lastTransitionTime: at.toISOString() }],
      },
    },
    { subresource: "status" },
  );
}

async function jobOf(client: Client, name: string): Promise<Job> {
  return client.get<Job>(jobsResource, "default", name);
}

/** The status with times blanked, for comparison. */
function shape(job: Job) {
  const status = structuredClone(job.status ?? {});
  const started = status.startTime !== undefined;
  const completed = status.completionTime !== undefined;
  delete status.startTime;
  delete status.completionTime;
  return {
    ...status,
    started,
    completed,
    conditions: (status.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason ?? ""}`),
  };
}

test("Job controller: completions 3 with parallelism 2 runs at most 2 pods and completes", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("pi").completions(3).parallelism(2).forCreate(),
  );
  let most = 0;
  const names = new Set<string>();
  for (let done = 0; done < 3; done++) {
    const pods = await eventually(async () => {
      const found = await runningPods(env.client, job);
      assert.equal(found.length, Math.min(2, 3 - done));
      return found;
    });
    most = Math.max(most, pods.length);
    for (const p of pods) names.add(p.metadata.name ?? "");
    const first = pods[0];
    assert.ok(first !== undefined, "first !== undefined");
    await finish(env.client, first, "Succeeded");
    await eventually(async () => {
      assert.equal((await jobOf(env.client, "pi")).status?.succeeded ?? 0, done + 1);
    });
  }
  const final = await eventually(async () => {
    const got = await jobOf(env.client, "pi");
    assert.ok(
      (got.status?.conditions ?? []).some((c) => c.type === "Complete"),
      '(got.status?.conditions ?? []).some((c) => c.type === "Complete")',
    );
    return got;
  });
  const leftovers = await env.client.list<Pod>(podsResource, "default");
  assert.deepEqual(
    {
      most,
      created: names.size,
      status: shape(final),
      finalizers: leftovers.items.flatMap((p) => p.metadata.finalizers ?? []),
      events: await env.events(job),
    },
    {
      most: 2,
      created: 3,
      status: {
        succeeded: 3,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        started: true,
        completed: true,
        conditions: [
          "SuccessCriteriaMet=True CompletionsReached",
          "Complete=True CompletionsReached",
        ],
      },
      finalizers: [],
      events: [
        "Completed: Job completed",
        ...[...names].sort().map((n) => `SuccessfulCreate: Created pod: ${n}`),
      ].sort(),
    },
  );
});

test("Job controller: a Job whose pods keep failing stops at BackoffLimitExceeded", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("bad").backoffLimit(1).forCreate(),
  );
  const failedPods: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const pod = await eventually(async () => {
      const found = await runningPods(env.client, job);
      assert.equal(found.length, 1);
      return found[0];
    });
    assert.ok(pod !== undefined, "pod !== undefined");
    failedPods.push(pod.metadata.name ?? "");
    await finish(env.client, pod, "Failed");
  }
  const final = await eventually(async () => {
    const got = await jobOf(env.client, "bad");
    assert.ok(
      (got.status?.conditions ?? []).some((c) => c.type === "Failed"),
      '(got.status?.conditions ?? []).some((c) => c.type === "Failed")',
    );
    return got;
  });
  const events = await env.events(job);
  assert.deepEqual(
    {
      status: shape(final),
      distinct: new Set(failedPods).size,
      failure: events.filter((e) => e.startsWith("BackoffLimitExceeded")),
      remaining: (await runningPods(env.client, job)).length,
    },
    {
      status: {
        failed: 2,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        started: true,
        completed: false,
        conditions: ["FailureTarget=True BackoffLimitExceeded", "Failed=True BackoffLimitExceeded"],
      },
      distinct: 2,
      failure: ["BackoffLimitExceeded: Job has reached the specified backoff limit"],
      remaining: 0,
    },
  );
});

test("Job controller: an Indexed Job gives each pod its index and records completedIndexes", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("idx").indexed().completions(3).parallelism(3).forCreate(),
  );
  const pods = await eventually(async () => {
    const found = await runningPods(env.client, job);
    assert.equal(found.length, 3);
    return found;
  });
  const byIndex = new Map(
    pods.map((p) => [p.metadata.annotations?.["batch.kubernetes.io/job-completion-index"], p]),
  );
  const pod1 = byIndex.get("1");
  assert.ok(pod1 !== undefined, "pod1 !== undefined");
  await finish(env.client, pod1, "Succeeded");
  const partial = await eventually(async () => {
    const got = await jobOf(env.client, "idx");
    assert.equal(got.status?.completedIndexes, "1");
    return got.status?.succeeded;
  });
  for (const index of ["0", "2"]) {
    const pod = byIndex.get(index);
    assert.ok(pod !== undefined, "pod !== undefined");
    await finish(env.client, pod, "Succeeded");
  }
  const final = await eventually(async () => {
    const got = await jobOf(env.client, "idx");
    assert.ok(
      (got.status?.conditions ?? []).some((c) => c.type === "Complete"),
      '(got.status?.conditions ?? []).some((c) => c.type === "Complete")',
    );
    return got;
  });
  assert.deepEqual(
    {
      indexes: [...byIndex.keys()].sort(),
      labels: pods
        .map((p) => p.metadata.labels?.["batch.kubernetes.io/job-completion-index"])
        .sort(),
      hostnames: pods.map((p) => p.spec.hostname).sort(),
      names: pods.every((p) =>
        (p.metadata.name ?? "").startsWith(
          `idx-${p.metadata.annotations?.["batch.kubernetes.io/job-completion-index"]}-`,
        ),
      ),
      env: pod1.spec.containers[0]?.env,
      partial,
      completedIndexes: final.status?.completedIndexes,
      succeeded: final.status?.succeeded,
    },
    {
      indexes: ["0", "1", "2"],
      labels: ["0", "1", "2"],
      hostnames: ["idx-0", "idx-1", "idx-2"],
      names: true,
      env: [
        {
          name: "JOB_COMPLETION_INDEX",
          valueFrom: {
            fieldRef: {
              apiVersion: "v1",
              fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']",
            },
          },
        },
      ],
      partial: 1,
      completedIndexes: "0-2",
      succeeded: 3,
    },
  );
});

test("Job controller: suspend deletes the active pods, resuming starts them again, and the TTL deletes the finished Job", async () => {
  await using env = await startEnv();
  const job = await env.client.create<Job>(
    jobsResource,
    makeJob("s").parallelism(2).completions(2).ttlSecondsAfterFinished(0).forCreate(),
  );
  await eventually(async () => assert.equal((await runningPods(env.client, job)).length, 2));
  await env.client.patch(jobsResource, "default", "s", "merge", { spec: { suspend: true } });
  const suspended = await eventually(async () => {
    assert.equal((await runningPods(env.client, job)).length, 0);
    const got = await jobOf(env.client, "s");
    assert.ok(
      (got.status?.conditions ?? []).some((c) => c.type === "Suspended" && c.status === "True"),
      '(got.status?.conditions ?? []).some((c) => c.type === "Suspended" && c.status === "True")',
    );
    return shape(got);
  });
  await env.client.patch(jobsResource, "default", "s", "merge", { spec: { suspend: false } });
  const pods = await eventually(async () => {
    const found = await runningPods(env.client, job);
    assert.equal(found.length, 2);
    return found;
  });
  for (const pod of pods) await finish(env.client, pod, "Succeeded");
  // The TTL controller deletes in the foreground: the garbage collector (not running here)
  // would remove the Job once its pods are gone.
  const deleting = await eventually(async () => {
    const got = await jobOf(env.client, "s");
    assert.ok(
      got.metadata.deletionTimestamp !== undefined,
      "got.metadata.deletionTimestamp !== undefined",
    );
    return got;
  });
  const events = await env.events(job);
  assert.deepEqual(
    {
      suspended: suspended.conditions,
      active: suspended.active,
      lifecycle: events.filter((e) => /^(Suspended|Resumed|Completed)/.test(e)),
      finalizers: deleting.metadata.finalizers,
    },
    {
      suspended: ["Suspended=True JobSuspended"],
      active: undefined,
      lifecycle: ["Completed: Job completed", "Resumed: Job resumed", "Suspended: Job suspended"],
      finalizers: ["foregroundDeletion"],
    },
  );
});
