import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ConfigMap, Event } from "../../api/index.ts";
import {
  configMapsResource,
  eventsResource,
  type InformerFactory,
  namespacesResource,
  newInformerFactory,
} from "../../client/index.ts";
import { type ClusterHarness, eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import {
  defineController,
  done,
  requeueAfter,
  type TerminalError,
  terminal,
  watch,
} from "./controller.ts";
import { newEventRecorder, referenceTo } from "./events.ts";

let harness: ClusterHarness;
before(async () => {
  harness = await startClusterHarness();
});
after(async () => {
  await harness[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

/** Runs a controller over config maps in `namespace` until the returned dispose. */
async function run(
  namespace: string,
  reconcile: (key: string) => Promise<{ requeueAfterMs?: number }>,
  extra: { onTerminal?: (key: string, error: TerminalError) => void; secondary?: boolean } = {},
) {
  await harness.client.create(namespacesResource, { metadata: { name: namespace } });
  const informers: InformerFactory = newInformerFactory(harness.client, { clock: systemClock });
  const configMaps = informers.forResource<ConfigMap>(configMapsResource, { namespace });
  const controller = defineController<ConfigMap>({
    name: "test",
    primary: configMaps,
    ...(extra.secondary === true
      ? {
          // Events about a config map named "x-trigger" reconcile "x".
          primaryToKeys: () => [],
          secondary: [
            watch(configMaps, (event) => {
              const name = event.object.metadata.name ?? "";
              return name.endsWith("-trigger") ? [`${namespace}/${name.slice(0, -8)}`] : [];
            }),
          ],
        }
      : {}),
    reconcile,
    ...(extra.onTerminal === undefined ? {} : { onTerminal: extra.onTerminal }),
    workers: 2,
    clock: systemClock,
    logger: discardLogger,
  });
  const stop = new AbortController();
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  return {
    controller,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
    },
  };
}

const cm = (namespace: string, name: string): ConfigMap => ({
  metadata: { name, namespace },
});

test("defineController: a thrown error retries the key until it succeeds", async () => {
  const calls: string[] = [];
  await using _ = await run("retry", async (key) => {
    calls.push(key);
    if (calls.length < 3) throw new Error("not yet");
    return done;
  });
  await harness.client.create(configMapsResource, cm("retry", "a"));
  await eventually(() => assert.equal(calls.length, 3));
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(calls, ["retry/a", "retry/a", "retry/a"]);
});

test("defineController: a terminal error is reported once and not retried", async () => {
  const calls: string[] = [];
  const reported: string[] = [];
  await using _ = await run(
    "terminal",
    async (key) => {
      calls.push(key);
      throw terminal(new RangeError("bad selector"));
    },
    { onTerminal: (key, error) => reported.push(`${key}: ${error.message}`) },
  );
  await harness.client.create(configMapsResource, cm("terminal", "a"));
  await eventually(() => assert.equal(reported.length, 1));
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(
    { calls, reported },
    { calls: ["terminal/a"], reported: ["terminal/a: bad selector"] },
  );
});

test("defineController: requeueAfterMs reconciles the key again without an event", async () => {
  const times: number[] = [];
  await using _ = await run("later", async () => {
    times.push(Date.now());
    return times.length < 2 ? requeueAfter(50) : done;
  });
  await harness.client.create(configMapsResource, cm("later", "a"));
  await eventually(() => assert.equal(times.length, 2));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(times.length, 2);
});

test("defineController: secondary events are mapped to primary keys", async () => {
  const calls: string[] = [];
  await using _ = await run(
    "mapped",
    async (key) => {
      calls.push(key);
      return done;
    },
    { secondary: true },
  );
  await harness.client.create(configMapsResource, cm("mapped", "a"));
  await harness.client.create(configMapsResource, cm("mapped", "a-trigger"));
  await eventually(() => assert.deepEqual(calls, ["mapped/a"]));
});

test("newEventRecorder: identical events become one Event with a count", async () => {
  await harness.client.create(namespacesResource, { metadata: { name: "events" } });
  const recorder = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "test-controller" },
  );
  const subject = await harness.client.create<ConfigMap>(configMapsResource, cm("events", "web"));
  const involved = referenceTo(subject, configMapsResource);
  recorder.event(involved, "Normal", "Scaled", "Scaled up to 2");
  recorder.event(involved, "Normal", "Scaled", "Scaled up to 2");
  recorder.event(involved, "Normal", "Scaled", "Scaled up to 2");
  recorder.event(involved, "Warning", "Failed", "It broke");
  await recorder.flush();
  const events = (await harness.client.list<Event>(eventsResource, "events")).items.sort((a, b) =>
    (a.reason ?? "").localeCompare(b.reason ?? ""),
  );
  assert.deepEqual(
    events.map((e) => ({
      name: /^web\.[0-9a-f]+$/.test(e.metadata.name ?? ""),
      reason: e.reason,
      type: e.type,
      count: e.count,
      source: e.source,
      involved: e.involvedObject,
      stamped: e.firstTimestamp !== undefined && e.lastTimestamp !== undefined,
    })),
    [
      {
        name: true,
        reason: "Failed",
        type: "Warning",
        count: 1,
        source: { component: "test-controller" },
        involved,
        stamped: true,
      },
      {
        name: true,
        reason: "Scaled",
        type: "Normal",
        count: 3,
        source: { component: "test-controller" },
        involved,
        stamped: true,
      },
    ],
  );
});
