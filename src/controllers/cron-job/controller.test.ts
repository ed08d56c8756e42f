import assert from "node:assert/strict";
import { test } from "node:test";
import type { CronJob, Event, Job } from "../../api/index.ts";
import {
  type Client,
  cronJobsResource,
  eventsResource,
  jobsResource,
  newInformerFactory,
} from "../../client/index.ts";
import { eventually, FakeClock, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, rfc3339, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { jobNameFor, newCronJobController } from "./index.ts";

ensureNoLeaksInEachTest();

const minute = 60_000;

/**
 * The API server (system clock: creation timestamps are real) and the CronJob controller on a
 * FakeClock that starts at the real time, so that schedules fire when the test advances it.
 */
async function startEnv() {
  const harness = await startClusterHarness();
  const clock = new FakeClock(new Date());
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "cronjob-controller" },
  );
  const controller = newCronJobController({
    client: harness.client,
    informers,
    clock,
    logger: discardLogger,
    events,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  const client = harness.client as Client;
  return {
    client,
    clock,
    /** Moves the controller's clock just past the next whole minute (second 1 of it). */
    async toNextMinute(): Promise<Date> {
      const now = clock.now().getTime();
      const next = Math.floor(now / minute) * minute + minute;
      await clock.advance(next + 1000 - now);
      return new Date(next);
    },
    async cronJob(name: string): Promise<CronJob> {
      return client.get<CronJob>(cronJobsResource, "default", name);
    },
    async jobs(): Promise<Job[]> {
      return (await client.list<Job>(jobsResource, "default")).items;
    },
    async events(name: string): Promise<string[]> {
      await events.flush();
      const list = await client.list<Event>(eventsResource, "default");
      return list.items
        .filter((e) => e.involvedObject.kind === "CronJob" && e.involvedObject.name === name)
        .map((e) => `${e.reason}: ${e.message}`);
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

type Env = Awaited<ReturnType<typeof startEnv>>;

async function createCronJob(env: Env, name: string, spec: Partial<CronJob["spec"]> = {}) {
  const waiting = env.clock.waiters;
  const created = await env.client.create<CronJob>(cronJobsResource, {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name, namespace: "default" },
    spec: {
      schedule: "* * * * *",
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: {
          template: {
            spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] },
          },
        },
      },
      ...spec,
    },
  });
  // The controller has seen it once it waits for the next activation on its clock (a suspended
  // one waits for nothing: only an update wakes it).
  if (spec.suspend !== true) {
    await eventually(() =>
      assert.ok(env.clock.waiters > waiting, "the controller waits for the next minute"),
    );
  }
  return created;
}

/** Ends a Job as the Job controller would. */
async function finishJob(env: Env, job: Job, type: "Complete" | "Failed", start: Date) {
  const at = rfc3339(new Date(start.getTime() + 5000));
  await env.client.updateStatus<Job>(jobsResource, {
    ...job,
    status: {
      startTime: rfc3339(start),
      ...(type === "Complete" ? { completionTime: at, succeeded: 1 } : { failed: 1 }),
      conditions: [{ type, status: "True", lastTransitionTime: at, reason: "Test", message: "" }],
    },
  });
}

test("CronJob controller: a Job per scheduled minute, named, annotated and owned as upstream's", async () => {
  await using env = await startEnv();
  const cronJob = await createCronJob(env, "hello");
  const scheduled = await env.toNextMinute();
  const name = jobNameFor("hello", scheduled);
  const job = await eventually(async () => {
    const found = (await env.jobs()).find((j) => j.metadata.name === name);
    assert.ok(found !== undefined, `Job ${name} created`);
    return found;
  });
  assert.deepEqual(job.metadata.ownerReferences, [
    {
      apiVersion: "batch/v1",
      kind: "CronJob",
      name: "hello",
      uid: cronJob.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
  assert.equal(job.metadata.labels?.["app"], "hello", "the template's labels");
  assert.equal(
    job.metadata.annotations?.["batch.kubernetes.io/cronjob-scheduled-timestamp"],
    rfc3339(scheduled),
  );
  const status = await eventually(async () => {
    const s = (await env.cronJob("hello")).status;
    assert.equal(s?.active?.length, 1, "the Job is active");
    return s;
  });
  assert.equal(status?.active?.[0]?.name, name);
  assert.equal(status?.lastScheduleTime, rfc3339(scheduled));
  assert.deepEqual(await env.events("hello"), [`SuccessfulCreate: Created job ${name}`]);
});

test("CronJob controller: a finished Job leaves the active list and sets lastSuccessfulTime", async () => {
  await using env = await startEnv();
  await createCronJob(env, "done");
  const scheduled = await env.toNextMinute();
  const job = await eventually(async () => {
    const [found] = await env.jobs();
    assert.ok(found !== undefined, "a Job was created");
    return found;
  });
  await eventually(async () =>
    assert.equal((await env.cronJob("done")).status?.active?.length, 1, "active"),
  );
  await finishJob(env, job, "Complete", scheduled);
  const status = await eventually(async () => {
    const s = (await env.cronJob("done")).status;
    assert.equal(s?.active?.length ?? 0, 0, "no longer active");
    assert.ok(s?.lastSuccessfulTime !== undefined, "lastSuccessfulTime set");
    return s;
  });
  assert.equal(status?.lastSuccessfulTime, rfc3339(new Date(scheduled.getTime() + 5000)));
  assert.ok(
    (await env.events("done")).includes(
      `SawCompletedJob: Saw completed job: ${job.metadata.name}, condition: Complete`,
    ),
    "SawCompletedJob recorded",
  );
});

test("CronJob controller: Forbid skips a run while one is active; Replace deletes it and starts the next", async () => {
  await using env = await startEnv();
  await createCronJob(env, "forbid", { concurrencyPolicy: "Forbid" });
  await createCronJob(env, "replace", { concurrencyPolicy: "Replace" });
  const first = await env.toNextMinute();
  await eventually(async () => assert.equal((await env.jobs()).length, 2, "one Job each"));
  const second = await env.toNextMinute();
  const replaced = jobNameFor("replace", second);
  await eventually(async () => {
    const names = (await env.jobs()).map((j) => j.metadata.name).sort();
    assert.deepEqual(
      names,
      [jobNameFor("forbid", first), replaced],
      "Forbid kept its Job; Replace swapped",
    );
  });
  await eventually(async () =>
    assert.ok(
      (await env.events("forbid")).includes(
        "JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid",
      ),
      "JobAlreadyActive recorded",
    ),
  );
  assert.ok(
    (await env.events("replace")).includes(
      `SuccessfulDelete: Deleted job ${jobNameFor("replace", first)}`,
    ),
    "the replaced Job's deletion recorded",
  );
});

test("CronJob controller: a suspended CronJob starts nothing; history limits delete the oldest finished Jobs", async () => {
  await using env = await startEnv();
  await createCronJob(env, "paused", { suspend: true });
  await createCronJob(env, "kept", { successfulJobsHistoryLimit: 1 });
  const first = await env.toNextMinute();
  const firstJob = await eventually(async () => {
    const found = (await env.jobs()).find((j) => j.metadata.name === jobNameFor("kept", first));
    assert.ok(found !== undefined, "the first run of kept");
    return found;
  });
  await finishJob(env, firstJob, "Complete", first);
  await eventually(async () =>
    assert.equal((await env.cronJob("kept")).status?.active?.length ?? 0, 0, "first run done"),
  );
  const second = await env.toNextMinute();
  const secondJob = await eventually(async () => {
    const found = (await env.jobs()).find((j) => j.metadata.name === jobNameFor("kept", second));
    assert.ok(found !== undefined, "the second run of kept");
    return found;
  });
  await finishJob(env, secondJob, "Complete", second);
  await eventually(async () => {
    const names = (await env.jobs()).map((j) => j.metadata.name);
    assert.deepEqual(names, [jobNameFor("kept", second)], "only the newest finished Job is kept");
  });
  assert.ok(
    (await env.events("kept")).includes(
      `SuccessfulDelete: Deleted job ${jobNameFor("kept", first)}`,
    ),
    "the history cleanup recorded",
  );
  assert.deepEqual(await env.events("paused"), [], "the suspended CronJob did nothing");
});
