import assert from "node:assert/strict";
import { test } from "node:test";
import {
  newMemoryStorage,
  type Storage,
  StorageError,
  type WatchEvent,
} from "../../storage/index.ts";
import { eventually } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, type JsonObject } from "../../util/index.ts";
import type { CacheEvent } from "./resource-cache.ts";
import { WatchCache } from "./watch-cache.ts";

ensureNoLeaksInEachTest();

/**
 * A storage whose watch can be cut as etcd's is during an outage: while `outage` is set, events
 * are dropped; `compactNow` then makes the running watch fail with Compacted, as a watch that
 * reconnects after storage compacted past it does. Later watches follow the real storage.
 */
function flakyStorage(inner: Storage) {
  let outage = false;
  let failWatch: (() => void) | undefined;
  let watches = 0;
  const storage: Storage = {
    ...inner,
    get: (key) => inner.get(key),
    list: (prefix, options) => inner.list(prefix, options),
    currentRevision: () => inner.currentRevision(),
    async *watch(prefix, after, signal): AsyncGenerator<WatchEvent> {
      watches++;
      const cut = new Promise<"cut">((resolve) => {
        failWatch = () => resolve("cut");
      });
      const events = inner.watch(prefix, after, signal)[Symbol.asyncIterator]();
      for (;;) {
        const next = await Promise.race([events.next(), cut]);
        if (next === "cut") {
          await events.return?.();
          throw new StorageError("Compacted", prefix, after);
        }
        if (next.done === true) return;
        if (!outage) yield next.value;
      }
    },
  };
  return {
    storage,
    startOutage: () => {
      outage = true;
    },
    compactNow: () => {
      outage = false;
      failWatch?.();
    },
    watchCount: () => watches,
  };
}

const pod = (name: string, image: string): JsonObject => ({
  metadata: { namespace: "ns", name },
  spec: { image },
});
const key = (name: string): string => `/registry/pods/ns/${name}`;

async function until(check: () => boolean, what: string): Promise<void> {
  await eventually(() => assert.ok(check(), `still waiting for ${what}`), 5_000);
}

test("WatchCache re-lists when storage compacted past it, and keeps following", async () => {
  const inner = newMemoryStorage();
  const flaky = flakyStorage(inner);
  await inner.create(key("a"), pod("a", "v1"));
  await inner.create(key("b"), pod("b", "v1"));
  const cache = new WatchCache(flaky.storage, discardLogger);
  const stop = new AbortController();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const done = cache.start(stop.signal, markReady);
  await ready;
  const pods = cache.resource("pods");

  const seen: CacheEvent[] = [];
  let terminated = 0;
  const everything = { namespace: "", matches: () => true };
  pods.watch(cache.revision, everything, { deliver: (event) => seen.push(event) });
  const httpLike: CacheEvent[] = [];
  pods.watch(cache.revision, everything, {
    deliver: (event) => httpLike.push(event),
    terminate: () => terminated++,
  });

  // While the watch is cut off, a pod goes, one changes and one comes: the cache misses it all.
  flaky.startOutage();
  const a = await inner.get(key("a"));
  await inner.delete(key("a"));
  const b = await inner.get(key("b"));
  await inner.update(key("b"), pod("b", "v2"), b?.revision ?? 0);
  await inner.create(key("c"), pod("c", "v1"));
  assert.ok(a !== undefined, "pod a existed before the outage");
  const listed = await inner.currentRevision();
  flaky.compactNow();

  await until(() => cache.revision === listed, "the re-list");
  assert.deepEqual(
    [...pods.list("")].map((o) => `${o.name}@${JSON.stringify(o.object["spec"])}`),
    ['b@{"image":"v2"}', 'c@{"image":"v1"}'],
  );
  assert.equal(pods.historyStart, listed, "history restarts at the fresh list");
  assert.deepEqual(
    seen.map((e) => `${e.type} ${e.object.name}`),
    ["DELETED a", "MODIFIED b", "ADDED c"],
    "a watcher that cannot end hears the difference",
  );
  assert.equal(terminated, 1, "a watch that can end is ended, once");
  assert.deepEqual(httpLike, [], "and is told nothing of the difference");

  // It follows storage again from the list's revision.
  await inner.create(key("d"), pod("d", "v1"));
  await until(() => pods.get(key("d")) !== undefined, "pod d in the cache");
  assert.equal(seen.at(-1)?.type, "ADDED");
  assert.equal(seen.at(-1)?.object.name, "d");
  assert.equal(flaky.watchCount(), 2, "one watch before the compaction, one after");

  stop.abort();
  await done;
});
