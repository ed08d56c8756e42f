import assert from "node:assert/strict";
import { test } from "node:test";
import type { Event } from "../../api/index.ts";
import { startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { type Client, eventsResource } from "../client.ts";
import { TransportError } from "../errors.ts";
import { newEventBroadcaster, referenceTo } from "./broadcaster.ts";

ensureNoLeaksInEachTest();

const pod = referenceTo(
  { metadata: { name: "web", namespace: "default", uid: "u1" } },
  { group: "", version: "v1", kind: "Pod" },
  "spec.containers{nginx}",
);

/** `client` with its create and patch calls counted, and optionally held or failed. */
function instrumented(client: Client) {
  const calls = { create: 0, patch: 0 };
  let gate: Promise<void> | undefined;
  let failures = 0;
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property !== "create" && property !== "patch") || typeof value !== "function") {
        return value;
      }
      return async (...args: unknown[]) => {
        calls[property]++;
        if (gate !== undefined) await gate;
        if (failures > 0) {
          failures--;
          throw new TransportError("connect ECONNREFUSED", "ECONNREFUSED");
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    client: proxy,
    calls,
    hold(): () => void {
      let release = (): void => undefined;
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    failNext(n: number): void {
      failures = n;
    },
  };
}

async function events(client: Client): Promise<Event[]> {
  return (await client.list<Event>(eventsResource, "default")).items;
}

test("EventBroadcaster.recorder: writes an Event with upstream's source, reference and reporting fields", async () => {
  await using harness = await startClusterHarness();
  const broadcaster = newEventBroadcaster({
    client: harness.client,
    clock: systemClock,
    logger: discardLogger,
  });
  broadcaster
    .recorder({ component: "kubelet", host: "node-0" })
    .event(pod, "Normal", "Started", "Started container nginx");
  await broadcaster.flush();
  const [written, ...rest] = await events(harness.client);
  assert.equal(rest.length, 0);
  assert.deepEqual(
    {
      involvedObject: written?.involvedObject,
      reason: written?.reason,
      message: written?.message,
      type: written?.type,
      count: written?.count,
      source: written?.source,
      reportingComponent: written?.reportingComponent,
      reportingInstance: written?.reportingInstance,
    },
    {
      involvedObject: pod,
      reason: "Started",
      message: "Started container nginx",
      type: "Normal",
      count: 1,
      source: { component: "kubelet", host: "node-0" },
      reportingComponent: "kubelet",
      reportingInstance: "node-0",
    },
  );
  assert.match(written?.metadata.name ?? "", /^web\.[0-9a-f]+$/);
});

test("EventBroadcaster.recorder: repeats queued behind one write are coalesced into one patch", async () => {
  await using harness = await startClusterHarness();
  const counted = instrumented(harness.client);
  const broadcaster = newEventBroadcaster({
    client: counted.client,
    clock: systemClock,
    logger: discardLogger,
  });
  const recorder = broadcaster.recorder({ component: "kubelet", host: "node-0" });
  const release = counted.hold();
  for (let i = 0; i < 20; i++) recorder.event(pod, "Warning", "BackOff", "Back-off");
  release();
  await broadcaster.flush();
  const list = await events(harness.client);
  assert.deepEqual(
    list.map((e) => e.count),
    [20],
  );
  assert.deepEqual(counted.calls, { create: 1, patch: 1 });
});

test("EventBroadcaster.recorder: drops events once maxQueued are waiting", async () => {
  await using harness = await startClusterHarness();
  const counted = instrumented(harness.client);
  const broadcaster = newEventBroadcaster(
    { client: counted.client, clock: systemClock, logger: discardLogger },
    { maxQueued: 2 },
  );
  const recorder = broadcaster.recorder({ component: "kubelet" });
  const release = counted.hold();
  for (let i = 0; i < 5; i++) recorder.event(pod, "Normal", "Pulled", `image ${i}`);
  release();
  await broadcaster.flush();
  const messages = (await events(harness.client)).map((e) => e.message).sort();
  assert.deepEqual(messages, ["image 0", "image 1", "image 2"]);
});

test("EventBroadcaster.recorder: retries while the server cannot be reached", async () => {
  await using harness = await startClusterHarness();
  const counted = instrumented(harness.client);
  const broadcaster = newEventBroadcaster(
    { client: counted.client, clock: systemClock, logger: discardLogger },
    { retryDelayMs: 1 },
  );
  counted.failNext(2);
  broadcaster.recorder({ component: "kubelet" }).event(pod, "Normal", "Created", "c");
  await broadcaster.flush();
  assert.equal(counted.calls.create, 3);
  assert.deepEqual(
    (await events(harness.client)).map((e) => e.message),
    ["c"],
  );
});

test("EventBroadcaster.shutdown: writes what is queued without retrying, and records nothing more", async () => {
  await using harness = await startClusterHarness();
  const counted = instrumented(harness.client);
  const broadcaster = newEventBroadcaster(
    { client: counted.client, clock: systemClock, logger: discardLogger },
    { retryDelayMs: 1 },
  );
  const recorder = broadcaster.recorder({ component: "kubelet" });
  const release = counted.hold();
  recorder.event(pod, "Normal", "Pulled", "first");
  recorder.event(pod, "Normal", "Pulled", "second");
  counted.failNext(1);
  const stopped = broadcaster.shutdown();
  release();
  await stopped;
  recorder.event(pod, "Normal", "Pulled", "third");
  await broadcaster.flush();
  assert.deepEqual(
    (await events(harness.client)).map((e) => e.message),
    ["second"],
  );
  assert.equal(counted.calls.create, 2, "the failed write was not retried");
});
