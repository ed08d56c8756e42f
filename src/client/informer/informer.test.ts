import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { ConfigMap, KubeObject } from "../../api/index.ts";
import { type ClusterHarness, startClusterHarness } from "../../testing/cluster-harness.ts";
import { FakeClock, settle } from "../../testing/fake-clock.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { type Client, configMapsResource, namespacesResource, type WatchEvent } from "../client.ts";
import { TransportError } from "../errors.ts";
import { newClient } from "../http-transport.ts";
import {
  type EventHandler,
  type InformerOptions,
  newSharedInformer,
  type SharedInformer,
  stripManagedFields,
} from "./informer.ts";
import { DeletedFinalStateUnknown } from "./tombstone.ts";

/** Bounds every wait. */
const waitMs = 10_000;
/** Fast retries, so recovery takes milliseconds rather than seconds. */
const fastBackoff = { initialMs: 10, maxMs: 100 };

/** Records notifications as `[event, name, detail]` and lets a test wait for a condition. */
class Recorder implements EventHandler<ConfigMap> {
  readonly events: (string | boolean | undefined)[][] = [];
  #waiters: (() => void)[] = [];

  onAdd(object: DeepReadonly<ConfigMap>, initial: boolean): void {
    this.#push(["add", object.metadata.name, initial]);
  }
  onUpdate(old: DeepReadonly<ConfigMap>, next: DeepReadonly<ConfigMap>): void {
    this.#push(["update", next.metadata.name, `${old.data?.["k"]}->${next.data?.["k"]}`]);
  }
  onDelete(object: DeepReadonly<ConfigMap> | DeletedFinalStateUnknown<ConfigMap>): void {
    this.#push(
      object instanceof DeletedFinalStateUnknown
        ? ["delete", object.obj.metadata.name, "tombstone"]
        : ["delete", object.metadata.name, "event"],
    );
  }

  /** Resolves once `count` events arrived; rejects after a bounded wait. */
  async waitForCount(count: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) {
        assert.fail(`waited for ${count} events, got ${JSON.stringify(this.events)}`);
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  #push(event: (string | boolean | undefined)[]): void {
    this.events.push(event);
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
}

let namespaces = 0;
async function freshNamespace(client: Client): Promise<string> {
  const ns = `informer-${++namespaces}`;
  await client.create(namespacesResource, { metadata: { name: ns } });
  return ns;
}

/** Objects and informers of these tests carry this label, so nothing else in a namespace counts. */
const testLabel = { "gantry.test/informer": "true" };
const selector = "gantry.test/informer=true";

const configMap = (ns: string, name: string, k = "1") => ({
  metadata: { name, namespace: ns, labels: testLabel },
  data: { k },
});

/** Runs an informer until the test ends. */
async function withInformer(
  informer: SharedInformer<ConfigMap>,
  body: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const running = informer.start(controller.signal);
  try {
    await body(controller.signal);
  } finally {
    controller.abort();
    await running;
  }
}

describe("SharedInformer against an API server", { timeout: 60_000 }, () => {
  let harness: ClusterHarness;
  before(async () => {
    harness = await startClusterHarness();
  });
  after(async () => {
    await harness[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();
  /** An informer of the test config maps of one namespace, with fast retries. */
  const newTestInformer = (ns: string, options: InformerOptions = {}) =>
    newSharedInformer<ConfigMap>(harness.client, configMapsResource, {
      namespace: ns,
      labelSelector: selector,
      backoff: fastBackoff,
      ...options,
    });

  test("SharedInformer.start: syncs the existing objects and notifies them as initial adds", async () => {
    const ns = await freshNamespace(harness.client);
    await harness.client.create(configMapsResource, configMap(ns, "a"));
    await harness.client.create(configMapsResource, configMap(ns, "b"));
    const informer = newTestInformer(ns);
    const recorder = new Recorder();
    const registration = informer.addEventHandler(recorder);
    await withInformer(informer, async (signal) => {
      assert.equal(
        await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)])),
        true,
      );
      assert.deepEqual(recorder.events, [
        ["add", "a", true],
        ["add", "b", true],
      ]);
      assert.deepEqual([informer.hasSynced(), registration.hasSynced()], [true, true]);
      assert.deepEqual(
        informer.lister
          .list(ns)
          .map((o) => o.metadata.name)
          .sort(),
        ["a", "b"],
      );
      assert.ok(Object.isFrozen(informer.lister.get(ns, "a")?.data), "cached objects are frozen");
    });
  });

  test("SharedInformer: a transform shapes listed and watched objects before they are cached", async () => {
    const ns = await freshNamespace(harness.client);
    await harness.client.create(configMapsResource, configMap(ns, "listed"));
    const informer = newTestInformer(ns, { transform: stripManagedFields });
    const seen: (string | undefined)[] = [];
    informer.addEventHandler({
      onAdd: (o) => seen.push(`${o.metadata.name}:${o.metadata.managedFields === undefined}`),
    });
    await withInformer(informer, async (signal) => {
      assert.equal(
        await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)])),
        true,
      );
      const watched = await harness.client.create(configMapsResource, configMap(ns, "watched"));
      assert.ok(watched.metadata.managedFields !== undefined, "the server keeps managedFields");
      const deadline = Date.now() + waitMs;
      while (informer.lister.get(ns, "watched") === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(seen, ["listed:true", "watched:true"]);
      assert.deepEqual(
        ["listed", "watched"].map((name) => informer.lister.get(ns, name)?.metadata.managedFields),
        [undefined, undefined],
      );
    });
  });

  test("SharedInformer: watch events become add, update and delete notifications in order", async () => {
    const ns = await freshNamespace(harness.client);
    const created = await harness.client.create<ConfigMap>(configMapsResource, configMap(ns, "a"));
    await harness.client.create(configMapsResource, configMap(ns, "b"));
    const informer = newTestInformer(ns);
    const recorder = new Recorder();
    informer.addEventHandler(recorder);
    await withInformer(informer, async (signal) => {
      await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)]));
      await harness.client.create(configMapsResource, configMap(ns, "c"));
      await harness.client.update<ConfigMap>(configMapsResource, { ...created, data: { k: "2" } });
      await harness.client.delete(configMapsResource, ns, "b");
      await recorder.waitForCount(5);
      assert.deepEqual(recorder.events.slice(2), [
        ["add", "c", false],
        ["update", "a", "1->2"],
        ["delete", "b", "event"],
      ]);
      assert.deepEqual(
        informer.lister
          .list(ns)
          .map((o) => [o.metadata.name, o.data?.["k"]])
          .sort(),
        [
          ["a", "2"],
          ["c", "1"],
        ],
      );
      assert.ok(
        Number(informer.lastSyncResourceVersion()) > Number(created.metadata.resourceVersion),
        "the informer follows the revisions it has seen",
      );
    });
  });

  test("SharedInformer.addEventHandler: a late handler gets synthetic adds, then live events", async () => {
    const ns = await freshNamespace(harness.client);
    await harness.client.create(configMapsResource, configMap(ns, "a"));
    const informer = newTestInformer(ns);
    await withInformer(informer, async (signal) => {
      await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)]));
      const late = new Recorder();
      const registration = informer.addEventHandler(late);
      assert.equal(registration.hasSynced(), false, "not before its catch-up ran");
      await settle();
      assert.equal(registration.hasSynced(), true);
      await harness.client.create(configMapsResource, configMap(ns, "b"));
      await late.waitForCount(2);
      assert.deepEqual(late.events, [
        ["add", "a", true],
        ["add", "b", false],
      ]);
      registration.remove();
      await harness.client.create(configMapsResource, configMap(ns, "c"));
      const probe = new Recorder();
      informer.addEventHandler(probe);
      await probe.waitForCount(3);
      assert.equal(late.events.length, 2, "a removed handler hears nothing more");
    });
  });

  test("SharedInformer: after a 410 it relists and delivers what the watch missed", async () => {
    const ns = await freshNamespace(harness.client);
    const kept = await harness.client.create<ConfigMap>(configMapsResource, configMap(ns, "kept"));
    await harness.client.create(configMapsResource, configMap(ns, "doomed"));
    const partition = partitionedClient(harness.client);
    const informer = newSharedInformer<ConfigMap>(partition.client, configMapsResource, {
      namespace: ns,
      labelSelector: selector,
      backoff: fastBackoff,
    });
    const recorder = new Recorder();
    informer.addEventHandler(recorder);
    await withInformer(informer, async (signal) => {
      await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)]));
      partition.dropEvents = true;
      await harness.client.create(configMapsResource, configMap(ns, "fresh"));
      await harness.client.update<ConfigMap>(configMapsResource, { ...kept, data: { k: "2" } });
      await harness.client.delete(configMapsResource, ns, "doomed");
      // The silent watch ends; the next one is told its revision expired.
      partition.expireNextWatch = true;
      partition.dropEvents = false;
      partition.breakWatches();
      await recorder.waitForCount(5);
      assert.deepEqual(recorder.events.slice(2).sort(), [
        ["add", "fresh", false],
        ["delete", "doomed", "tombstone"],
        ["update", "kept", "1->2"],
      ]);
      assert.equal(partition.expired, 1);
    });
  });

  test("SharedInformer: resync re-delivers every cached object as an update", async () => {
    const ns = await freshNamespace(harness.client);
    await harness.client.create(configMapsResource, configMap(ns, "a"));
    const clock = new FakeClock();
    const informer = newSharedInformer<ConfigMap>(harness.client, configMapsResource, {
      namespace: ns,
      labelSelector: selector,
      resyncPeriodMs: 30_000,
      clock,
      backoff: fastBackoff,
    });
    const recorder = new Recorder();
    informer.addEventHandler(recorder);
    await withInformer(informer, async (signal) => {
      await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)]));
      await clock.advance(29_999);
      assert.deepEqual(recorder.events, [["add", "a", true]]);
      await clock.advance(1);
      assert.deepEqual(recorder.events, [
        ["add", "a", true],
        ["update", "a", "1->1"],
      ]);
    });
  });
});

test("SharedInformer: survives an API server restart on the same port and data", {
  timeout: 60_000,
}, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gantry-informer-restart-"));
  let current: ClusterHarness | undefined;
  try {
    const first = await startClusterHarness({ storage: "sqlite", dataDir });
    current = first;
    await first.client.create(configMapsResource, configMap("default", "kept"));
    await first.client.create(configMapsResource, configMap("default", "doomed"));
    await using client = newClient({ server: first.url, userAgent: "gantry/informer-test" });
    const informer = newSharedInformer<ConfigMap>(client, configMapsResource, {
      namespace: "default",
      labelSelector: selector,
      backoff: fastBackoff,
    });
    const recorder = new Recorder();
    informer.addEventHandler(recorder);
    await withInformer(informer, async (signal) => {
      await informer.waitForSync(AbortSignal.any([signal, AbortSignal.timeout(waitMs)]));
      await first[Symbol.asyncDispose]();
      current = undefined;

      // While the informer's server is down, another server on the same data deletes an object.
      const meanwhile = await startClusterHarness({ storage: "sqlite", dataDir });
      await meanwhile.client.delete(configMapsResource, "default", "doomed");
      await meanwhile[Symbol.asyncDispose]();

      // The server comes back where the informer expects it.
      current = await startClusterHarness({ storage: "sqlite", dataDir, port: first.port });
      await current.client.create(configMapsResource, configMap("default", "fresh"));

      await recorder.waitForCount(4);
      assert.deepEqual(recorder.events.slice(2).sort(), [
        ["add", "fresh", false],
        ["delete", "doomed", "tombstone"],
      ]);
      assert.deepEqual(
        informer.lister
          .list("default")
          .map((o) => o.metadata.name)
          .sort(),
        ["fresh", "kept"],
      );
    });
  } finally {
    await current?.[Symbol.asyncDispose]();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * Wraps a client so a test can cut its watches: while `dropEvents` is set, events are swallowed
 * (a silently dead connection); `breakWatches` fails the running ones as a reset connection
 * would; with `expireNextWatch` the next watch gets the ERROR event a server sends for an expired
 * revision.
 */
function partitionedClient(inner: Client) {
  let cut = new AbortController();
  const state = {
    dropEvents: false,
    expireNextWatch: false,
    expired: 0,
    breakWatches(): void {
      cut.abort();
      cut = new AbortController();
    },
  };
  const client: Client = {
    ...inner,
    get: inner.get.bind(inner),
    list: inner.list.bind(inner),
    create: inner.create.bind(inner),
    update: inner.update.bind(inner),
    updateStatus: inner.updateStatus.bind(inner),
    patch: inner.patch.bind(inner),
    delete: inner.delete.bind(inner),
    createSubresource: inner.createSubresource.bind(inner),
    async *watch<T extends KubeObject>(
      ...[resource, namespace, options, signal]: Parameters<Client["watch"]>
    ): AsyncGenerator<WatchEvent<T>> {
      if (state.expireNextWatch) {
        state.expireNextWatch = false;
        state.expired++;
        yield {
          type: "ERROR",
          object: {
            kind: "Status",
            apiVersion: "v1",
            metadata: {},
            status: "Failure",
            message: `too old resource version: ${options.resourceVersion} (999999)`,
            reason: "Expired",
            code: 410,
          },
        };
        return;
      }
      const broken = cut.signal;
      for await (const event of inner.watch<T>(
        resource,
        namespace,
        options,
        AbortSignal.any([signal, broken]),
      )) {
        if (!state.dropEvents) yield event;
      }
      if (broken.aborted && !signal.aborted) {
        throw new TransportError("Cannot watch: connection reset by the test", "ECONNRESET");
      }
    },
  };
  return Object.assign(state, { client });
}
