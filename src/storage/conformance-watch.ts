import assert from "node:assert/strict";
import { type It, k, p, v } from "./conformance-fixtures.ts";
import { openProbe, type Probe } from "./conformance-helpers.ts";
import type { Revision, WatchEvent } from "./storage.ts";

export function defineWatch(it: It): void {
  it("Storage.watch: streams create, update and delete with previous values", async (store) => {
    const probe = openProbe(store, p, await store.currentRevision());
    try {
      await probe.idle();
      const created = await store.create(k("a"), v(1));
      const updated = await store.update(k("a"), v(2), created.revision);
      const deleted = await store.delete(k("a"));
      const want: WatchEvent[] = [
        { type: "put", key: k("a"), value: v(1), revision: created.revision, created: true },
        {
          type: "put",
          key: k("a"),
          value: v(2),
          revision: updated.revision,
          created: false,
          prevValue: v(1),
        },
        { type: "delete", key: k("a"), revision: deleted.revision, prevValue: v(2) },
      ];
      assert.deepEqual(await probe.take(3), want);
    } finally {
      probe.stop();
    }
  });

  it("Storage.watch: from a past revision replays history, then streams", async (store) => {
    const a = await store.create(k("a"), v(1));
    const b = await store.create(k("b"), v(2));
    const a2 = await store.update(k("a"), v(3), a.revision);
    const probe = openProbe(store, p, a.revision);
    try {
      const replayed = await probe.take(2);
      assert.deepEqual(
        replayed.map((e) => e.revision),
        [b.revision, a2.revision],
      );
      const d = await store.delete(k("b"));
      assert.deepEqual(await probe.take(1), [
        { type: "delete", key: k("b"), revision: d.revision, prevValue: v(2) },
      ]);
    } finally {
      probe.stop();
    }
  });

  it("Storage.watch: writes made during a long replay arrive once, in order", async (store) => {
    const revisions: Revision[] = [];
    for (let batch = 0; batch < 25; batch++) {
      const written = await Promise.all(
        Array.from({ length: 100 }, (_, i) => store.create(k(`n${batch}-${i}`), v(i))),
      );
      revisions.push(...written.map((w) => w.revision));
    }
    revisions.sort((a, b) => a - b);
    const probe = openProbe(store, p, 0);
    try {
      const got = await probe.take(10);
      for (let i = 0; i < 20; i++) {
        revisions.push((await store.create(k(`late${i}`), v(i))).revision);
      }
      got.push(...(await probe.take(revisions.length - 10)));
      assert.deepEqual(
        got.map((e) => e.revision),
        revisions,
      );
      await probe.idle();
    } finally {
      probe.stop();
    }
  });

  it("Storage.watch: delivers only keys under the prefix", async (store) => {
    const probe = openProbe(store, "/registry/a/", await store.currentRevision());
    try {
      await store.create("/registry/ab/x", v(1));
      await store.create("/registry/b/x", v(1));
      const mine = await store.create("/registry/a/x", v(2));
      assert.deepEqual(await probe.take(1), [
        { type: "put", key: "/registry/a/x", value: v(2), revision: mine.revision, created: true },
      ]);
      await probe.idle();
    } finally {
      probe.stop();
    }
  });

  it("Storage.watch: several watchers each see every event in order", async (store) => {
    const from = await store.currentRevision();
    const probes: Probe[] = [0, 1, 2, 3].map(() => openProbe(store, p, from));
    try {
      const revisions: Revision[] = [];
      await Promise.all(
        [0, 1, 2, 3].map(async (w) => {
          for (let i = 0; i < 25; i++) {
            revisions.push((await store.create(k(`w${w}-${i}`), v(i))).revision);
          }
        }),
      );
      const sorted = [...revisions].sort((x, y) => x - y);
      for (const probe of probes) {
        assert.deepEqual(
          (await probe.take(100)).map((e) => e.revision),
          sorted,
        );
      }
    } finally {
      for (const probe of probes) probe.stop();
    }
  });

  it("Storage.watch: aborting the signal ends a waiting iterator", async (store) => {
    const probe = openProbe(store, p, await store.currentRevision());
    await store.create(k("a"), v(1));
    await probe.take(1);
    const pending = probe.next();
    probe.stop();
    assert.equal(await pending, "done");
  });

  it("Storage.watch: an already aborted signal yields nothing", async (store) => {
    await store.create(k("a"), v(1));
    const controller = new AbortController();
    controller.abort();
    const got: WatchEvent[] = [];
    for await (const event of store.watch(p, 0, controller.signal)) got.push(event);
    assert.deepEqual(got, []);
  });
}
