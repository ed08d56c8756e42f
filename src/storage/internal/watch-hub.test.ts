import assert from "node:assert/strict";
import { test } from "node:test";
import { expectStorageError } from "../conformance-helpers.ts";
import type { Revision, StorageKey, WatchEvent } from "../storage.ts";
import { newWatchHub, type WatchHub, type WatchSource } from "./watch-hub.ts";

/** A hub over an in-test log; `write` appends and publishes like a backend would. */
function fixture(options = { maxBufferedEvents: 100, replayPageSize: 1000 }): {
  hub: WatchHub;
  write: (key: StorageKey) => WatchEvent;
  compact: (revision: Revision) => void;
  made: () => number;
} {
  const log: WatchEvent[] = [];
  let compacted = 0;
  let made = 0;
  const source: WatchSource = {
    currentRevision: () => log.length,
    compactedRevision: () => compacted,
    replay: (prefix, after, upTo, limit) => {
      const events: WatchEvent[] = [];
      for (let rev = after + 1; rev <= upTo; rev++) {
        const event = log[rev - 1] as WatchEvent;
        if (!event.key.startsWith(prefix)) continue;
        events.push(event);
        if (events.length === limit) return { events, scannedTo: rev };
      }
      return { events, scannedTo: upTo };
    },
  };
  const hub = newWatchHub(source, options);
  return {
    hub,
    write: (key) => {
      const event: WatchEvent = {
        type: "put",
        key,
        value: {},
        revision: log.length + 1,
        created: true,
      };
      log.push(event);
      hub.publish(key, () => {
        made++;
        return event;
      });
      return event;
    },
    compact: (revision) => {
      compacted = revision;
    },
    made: () => made,
  };
}

const iterate = (hub: WatchHub, prefix: StorageKey, after: Revision, signal: AbortSignal) =>
  hub.watch(prefix, after, signal)[Symbol.asyncIterator]();

test("WatchHub.watch: a watcher that falls too far behind ends with Compacted", async () => {
  const f = fixture({ maxBufferedEvents: 3, replayPageSize: 1000 });
  const it = iterate(f.hub, "/a/", 0, new AbortController().signal);
  const first = it.next();
  for (let i = 0; i < 5; i++) f.write(`/a/${i}`);
  await assert.rejects(first, expectStorageError("Compacted", "/a/", 0));
  assert.equal(f.hub.size, 0);
});

test("WatchHub.watch: compaction overtaking a replay ends it with Compacted", async () => {
  const f = fixture({ maxBufferedEvents: 100, replayPageSize: 2 });
  for (let i = 0; i < 6; i++) f.write(`/a/${i}`);
  const it = iterate(f.hub, "/a/", 0, new AbortController().signal);
  assert.equal((await it.next()).value?.revision, 1);
  assert.equal((await it.next()).value?.revision, 2);
  f.compact(4);
  await assert.rejects(it.next(), expectStorageError("Compacted", "/a/", 4));
  assert.equal(f.hub.size, 0);
});

test("WatchHub.watch: replay and live events join without gap or duplicate", async () => {
  const f = fixture({ maxBufferedEvents: 100, replayPageSize: 2 });
  for (let i = 0; i < 5; i++) f.write(`/a/${i}`);
  const controller = new AbortController();
  const it = iterate(f.hub, "/a/", 1, controller.signal);
  const got: Revision[] = [];
  got.push(((await it.next()).value as WatchEvent).revision);
  f.write("/a/late-1");
  f.write("/b/other");
  f.write("/a/late-2");
  for (let i = 0; i < 5; i++) got.push(((await it.next()).value as WatchEvent).revision);
  assert.deepEqual(got, [2, 3, 4, 5, 6, 8]);
  controller.abort();
  assert.deepEqual(await it.next(), { done: true, value: undefined });
  assert.equal(f.hub.size, 0);
});

test("WatchHub.watch: a start ahead of the latest revision skips events up to it", async () => {
  const f = fixture();
  f.write("/a/0");
  const it = iterate(f.hub, "/a/", 3, new AbortController().signal);
  const next = it.next();
  f.write("/a/1");
  f.write("/a/2");
  f.write("/a/3");
  assert.equal(((await next).value as WatchEvent).revision, 4);
  await it.return?.();
});

test("WatchHub.publish: builds no event when no watcher wants the key", async () => {
  const f = fixture();
  const it = iterate(f.hub, "/a/", 0, new AbortController().signal);
  const next = it.next();
  f.write("/b/0");
  f.write("/ab/0");
  assert.equal(f.made(), 0);
  f.write("/a/0");
  assert.equal(((await next).value as WatchEvent).key, "/a/0");
  assert.equal(f.made(), 1);
  await it.return?.();
  assert.equal(f.hub.size, 0);
});

test("WatchHub.close: ends open watches; later watches throw Unavailable", async () => {
  const f = fixture();
  const it = iterate(f.hub, "/a/", 0, new AbortController().signal);
  const next = it.next();
  f.hub.close();
  assert.deepEqual(await next, { done: true, value: undefined });
  assert.equal(f.hub.size, 0);
  await assert.rejects(
    iterate(f.hub, "/a/", 0, new AbortController().signal).next(),
    expectStorageError("Unavailable", "/a/"),
  );
});
