import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Event } from "../api/index.ts";
import { eventsResource } from "../client/index.ts";
import { type ClusterHarness, FakeClock, makePod, startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import { discardLogger } from "../util/index.ts";
import { ConcurrencyLimit } from "./concurrency-limit.ts";
import { ApiEventRecorder, truncateMessage } from "./event-recorder.ts";

let harness: ClusterHarness;

before(async () => {
  harness = await startClusterHarness();
});

after(async () => {
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

async function eventsFor(name: string): Promise<Event[]> {
  const list = await harness.client.list<Event>(eventsResource, "default");
  return list.items.filter((e) => e.involvedObject.name === name);
}

test("ApiEventRecorder.event: writes a core/v1 Event about the object", async () => {
  const clock = new FakeClock(new Date("2026-03-01T10:00:00Z"));
  const recorder = new ApiEventRecorder({ client: harness.client, clock, logger: discardLogger });
  recorder.event(makePod("one").obj(), "Warning", "FailedScheduling", "Scheduling", "no luck");
  await recorder.flush();
  const [event] = await eventsFor("one");
  assert.deepEqual(
    {
      reason: event?.reason,
      message: event?.message,
      type: event?.type,
      count: event?.count,
      source: event?.source,
      firstTimestamp: event?.firstTimestamp,
      involvedObject: event?.involvedObject,
    },
    {
      reason: "FailedScheduling",
      message: "no luck",
      type: "Warning",
      count: 1,
      source: { component: "default-scheduler" },
      firstTimestamp: "2026-03-01T10:00:00Z",
      involvedObject: {
        kind: "Pod",
        apiVersion: "v1",
        namespace: "default",
        name: "one",
        uid: "uid-one",
      },
    },
  );
});

test("ApiEventRecorder.event: a repeat bumps the count of the first event", async () => {
  const clock = new FakeClock(new Date("2026-03-01T10:00:00Z"));
  const recorder = new ApiEventRecorder({ client: harness.client, clock, logger: discardLogger });
  const pod = makePod("two").obj();
  recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", "still no luck");
  await clock.advance(5000);
  recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", "still no luck");
  await recorder.flush();
  const events = await eventsFor("two");
  assert.deepEqual(
    events.map((e) => [e.count, e.lastTimestamp]),
    [[2, "2026-03-01T10:00:05Z"]],
  );
});

test("ApiEventRecorder.event: once maxSeries are remembered, the oldest half is forgotten", async () => {
  const clock = new FakeClock(new Date("2026-03-01T10:00:00Z"));
  const recorder = new ApiEventRecorder({
    client: harness.client,
    clock,
    logger: discardLogger,
    maxSeries: 4,
  });
  const pods = ["ev-a", "ev-b", "ev-c", "ev-d", "ev-e"].map((name) => makePod(name).obj());
  for (const pod of pods) recorder.event(pod, "Normal", "Scheduled", "Binding", "assigned");
  // ev-e found the series full: ev-a and ev-b went, ev-c and ev-d stayed.
  recorder.event(pods[3] ?? assert.fail("pod ev-d"), "Normal", "Scheduled", "Binding", "assigned");
  recorder.event(pods[0] ?? assert.fail("pod ev-a"), "Normal", "Scheduled", "Binding", "assigned");
  await recorder.flush();
  const counts = async (name: string): Promise<number[]> =>
    (await eventsFor(name)).map((e) => e.count ?? 0).sort();
  assert.deepEqual(
    { a: await counts("ev-a"), d: await counts("ev-d"), e: await counts("ev-e") },
    { a: [1, 1], d: [2], e: [1] },
  );
});

test("truncateMessage: cuts long messages to 1024 characters ending in ' ...'", () => {
  const cut = truncateMessage("x".repeat(2000));
  assert.deepEqual([cut.length, cut.slice(-4)], [1024, " ..."]);
  assert.equal(truncateMessage("short"), "short");
});

test("ApiEventRecorder.event: with a limit, writes beyond maxQueued waiting are dropped", async () => {
  const recorder = new ApiEventRecorder({
    client: harness.client,
    clock: new FakeClock(new Date("2026-03-01T10:00:00Z")),
    logger: discardLogger,
    limit: new ConcurrencyLimit(1),
    maxQueued: 1,
  });
  for (const name of ["limited-a", "limited-b", "limited-c"]) {
    recorder.event(makePod(name).obj(), "Normal", "Scheduled", "Binding", `assigned ${name}`);
  }
  await recorder.flush();
  const written = await Promise.all(
    ["limited-a", "limited-b", "limited-c"].map(async (name) => (await eventsFor(name)).length),
  );
  assert.deepEqual(written, [1, 1, 0]);
});
