import assert from "node:assert/strict";
import { test } from "node:test";
import { type It, k, p, v } from "./conformance-fixtures.ts";
import { expectStorageError, openProbe } from "./conformance-helpers.ts";
import type { Revision, Storage } from "./storage.ts";

export function defineCompaction(it: It, open: () => Promise<Storage>): void {
  const history = async (store: Storage): Promise<Revision[]> => {
    const a = await store.create(k("a"), v(1));
    const b = await store.create(k("b"), v(2));
    const a2 = await store.update(k("a"), v(3), a.revision);
    const bDel = await store.delete(k("b"));
    const c = await store.create(k("c"), v(4));
    return [a.revision, b.revision, a2.revision, bDel.revision, c.revision];
  };

  it("Storage.compact: reads below the compacted revision throw Compacted", async (store) => {
    const [r1, r2, r3] = await history(store);
    assert.equal(await store.compactedRevision(), 0);
    await store.compact(r3 as Revision);
    assert.equal(await store.compactedRevision(), r3);
    await assert.rejects(
      store.list(p, { revision: r2 as Revision }),
      expectStorageError("Compacted", p, r3),
    );
    const probe = openProbe(store, p, r1 as Revision);
    try {
      await assert.rejects(probe.next(), expectStorageError("Compacted", p, r3));
    } finally {
      probe.stop();
    }
  });

  it("Storage.compact: the state at and after the compacted revision stays", async (store) => {
    const [, r2, r3, r4, r5] = await history(store);
    const before = await store.list(p, { revision: r3 as Revision });
    const latest = await store.list(p);
    await store.compact(r3 as Revision);
    assert.deepEqual(await store.list(p, { revision: r3 as Revision }), before);
    assert.deepEqual(await store.list(p), latest);
    assert.deepEqual(await store.get(k("a")), latest.items[0]);
    const probe = openProbe(store, p, r3 as Revision);
    try {
      const events = await probe.take(2);
      assert.deepEqual(
        events.map((e) => [e.type, e.revision]),
        [
          ["delete", r4],
          ["put", r5],
        ],
      );
      assert.deepEqual(events[0], {
        type: "delete",
        key: k("b"),
        revision: r4,
        prevValue: v(2),
      });
    } finally {
      probe.stop();
    }
    assert.ok((r2 as Revision) < (r3 as Revision), "(r2 as Revision) < (r3 as Revision)");
  });

  it("Storage.compact: is idempotent and a smaller revision is a no-op", async (store) => {
    const [r1, , r3] = await history(store);
    await store.compact(r3 as Revision);
    await store.compact(r3 as Revision);
    await store.compact(r1 as Revision);
    assert.equal(await store.compactedRevision(), r3);
    assert.equal((await store.list(p)).items.length, 2);
  });

  it("Storage.compact: deleted keys are dropped and can be created again", async (store) => {
    const revisions = await history(store);
    const last = revisions.at(-1) as Revision;
    await store.compact(last);
    assert.equal(await store.get(k("b")), undefined);
    const again = await store.create(k("b"), v(5));
    assert.ok(again.revision > last, "again.revision > last");
    assert.deepEqual(
      (await store.list(p)).items.map((i) => i.key),
      [k("a"), k("b"), k("c")],
    );
    await store.compact(again.revision);
    assert.deepEqual(await store.get(k("b")), again);
    assert.equal(await store.count(p), 3);
  });

  it("Storage.compact: a revision in the future is a RangeError", async (store) => {
    const current = await store.currentRevision();
    await assert.rejects(store.compact(current + 1), RangeError);
  });

  it("Storage.close: ends open watches and is idempotent", async (store) => {
    const probe = openProbe(store, p, await store.currentRevision());
    try {
      const pending = probe.next();
      await store.close();
      assert.equal(await pending, "done");
      await store.close();
    } finally {
      probe.stop();
    }
  });

  test("Storage.close: later calls reject with Unavailable", async () => {
    const store = await open();
    await store.create(k("a"), v(1));
    await store.close();
    await assert.rejects(store.get(k("a")), expectStorageError("Unavailable", k("a")));
    await assert.rejects(store.create(k("b"), v(1)), expectStorageError("Unavailable", k("b")));
    const probe = openProbe(store, p, 0);
    try {
      await assert.rejects(probe.next(), expectStorageError("Unavailable", p));
    } finally {
      probe.stop();
    }
  });
}
