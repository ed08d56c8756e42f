import assert from "node:assert/strict";
import { test } from "node:test";
import { startEtcd } from "../../testing/etcd.ts";
import { eventually } from "../../testing/eventually.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { expectStorageError, openProbe } from "../conformance-helpers.ts";
import { type Revision, StorageError, type WatchEvent } from "../storage.ts";
import { openEtcdStorage } from "./etcd-storage.ts";

ensureNoLeaksInEachTest();

const p = "/registry/things/";
const value = (n: number) => ({ kind: "Thing", spec: { n } });

/** Asserts that events have strictly increasing revisions (no duplicate, no reordering). */
function assertOrdered(events: readonly WatchEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    const prev = events[i - 1] as WatchEvent;
    const next = events[i] as WatchEvent;
    assert.ok(next.revision > prev.revision, `revision ${next.revision} after ${prev.revision}`);
  }
}

test("EtcdStorage.create: every acknowledged write survives killing a member of three, and writes continue", {
  timeout: 120_000,
}, async () => {
  await using cluster = await startEtcd({ members: 3 });
  await using store = await openEtcdStorage({
    endpoints: cluster.endpoints,
    prefix: "/faults-kill",
    requestTimeoutMs: 5000,
  });
  const probe = openProbe(store, p, 0);
  const acknowledged = new Map<string, Revision>();
  const failures: unknown[] = [];
  let next = 0;
  const writer = async (until: () => boolean): Promise<void> => {
    while (!until()) {
      const key = `${p}w${next}`;
      const n = next++;
      try {
        acknowledged.set(key, (await store.create(key, value(n))).revision);
      } catch (error: unknown) {
        failures.push(error);
        assert.ok(failures.length < 20, `too many failed writes: ${String(error)}`);
      }
    }
  };
  try {
    await Promise.all([0, 1, 2, 3].map(() => writer(() => acknowledged.size >= 100)));
    // The first endpoint is the one the store prefers: kill it under load.
    const killed = cluster.members[0]?.kill();
    const before = acknowledged.size;
    await Promise.all([
      killed,
      ...[0, 1, 2, 3].map(() => writer(() => acknowledged.size >= before + 200)),
    ]);
    for (const error of failures) expectStorageError("Unavailable")(error);

    const listed = await store.list(p);
    const stored = new Map(listed.items.map((item) => [item.key, item.revision]));
    for (const [key, revision] of acknowledged) {
      assert.equal(stored.get(key), revision, `acknowledged ${key}@${revision} is stored`);
    }
    // The watch opened before the kill resumed on another member: every write, once, in order.
    const events = await probe.take(listed.items.length);
    assertOrdered(events);
    assert.deepEqual(new Set(events.map((e) => e.key)), new Set(stored.keys()));
    await probe.idle(100);
  } finally {
    probe.stop();
  }
});

test("EtcdStorage: while etcd is down every operation rejects with Unavailable; after a restart it works again", {
  timeout: 120_000,
}, async () => {
  await using cluster = await startEtcd({ members: 1 });
  const member = cluster.members[0];
  assert.ok(member !== undefined, "one member");
  await using store = await openEtcdStorage({
    endpoints: cluster.endpoints,
    prefix: "/faults-down",
    requestTimeoutMs: 1500,
  });
  const a = await store.create(`${p}a`, value(1));
  const probe = openProbe(store, p, a.revision);
  try {
    await member.kill();
    const operations: [string, () => Promise<unknown>][] = [
      ["get", () => store.get(`${p}a`)],
      ["list", () => store.list(p)],
      ["count", () => store.count(p)],
      ["create", () => store.create(`${p}b`, value(2))],
      ["update", () => store.update(`${p}a`, value(3), a.revision)],
      ["delete", () => store.delete(`${p}a`)],
      ["currentRevision", () => store.currentRevision()],
      ["compact", () => store.compact(a.revision)],
    ];
    await Promise.all(
      operations.map(([name, run]) =>
        assert.rejects(run(), (error: unknown) => {
          assert.ok(error instanceof StorageError, `${name}: ${String(error)}`);
          assert.equal(error.reason, "Unavailable", `${name}: ${error.message}`);
          assert.match(error.message, /etcd/, `${name}: the message names etcd`);
          return true;
        }),
      ),
    );

    await member.restart();
    const b = await eventually(() => store.create(`${p}b`, value(2)), 20_000, 100);
    assert.deepEqual((await store.get(`${p}a`))?.value, value(1));
    // The watch opened before the outage resumes from where it was: b, and nothing else.
    const [event] = await probe.take(1);
    assert.deepEqual(event, {
      type: "put",
      key: `${p}b`,
      value: value(2),
      revision: b.revision,
      created: true,
    });
    await probe.idle(100);
  } finally {
    probe.stop();
  }
});

test("openEtcdStorage: rejects with Unavailable naming the endpoints when etcd cannot be reached", {
  timeout: 30_000,
}, async () => {
  const cluster = await startEtcd({ members: 1 });
  const endpoints = cluster.endpoints;
  await cluster.close();
  await assert.rejects(openEtcdStorage({ endpoints, dialTimeoutMs: 500 }), (error: unknown) => {
    expectStorageError("Unavailable")(error);
    assert.ok(error instanceof Error && error.message.includes(endpoints[0] ?? "?"), String(error));
    return true;
  });
});
