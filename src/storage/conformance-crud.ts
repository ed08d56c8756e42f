import assert from "node:assert/strict";
import { type It, k, v } from "./conformance-fixtures.ts";
import { expectStorageError } from "./conformance-helpers.ts";
import type { Revision, Storage, StorageErrorReason } from "./storage.ts";

export function defineCrud(it: It): void {
  it("Storage.get: a missing key is undefined", async (store) => {
    assert.equal(await store.get(k("nope")), undefined);
  });

  it("Storage.create: returns the stored value with the write's revisions", async (store) => {
    const before = await store.currentRevision();
    const created = await store.create(k("a"), v(1));
    assert.ok(created.revision > before, "created.revision > before");
    assert.deepEqual(created, {
      key: k("a"),
      value: v(1),
      revision: created.revision,
      createRevision: created.revision,
    });
    assert.deepEqual(await store.get(k("a")), created);
    assert.equal(await store.currentRevision(), created.revision);
  });

  it("Storage.create: a live key is AlreadyExists and writes nothing", async (store) => {
    const first = await store.create(k("a"), v(1));
    await assert.rejects(store.create(k("a"), v(2)), expectStorageError("AlreadyExists", k("a")));
    assert.deepEqual((await store.get(k("a")))?.value, v(1));
    assert.equal(await store.currentRevision(), first.revision);
  });

  it("Storage.create: a deleted key can be created again as a new generation", async (store) => {
    const first = await store.create(k("a"), v(1));
    await store.delete(k("a"));
    const again = await store.create(k("a"), v(2));
    assert.ok(
      again.createRevision > first.createRevision,
      "again.createRevision > first.createRevision",
    );
    assert.equal(again.createRevision, again.revision);
    assert.deepEqual(await store.get(k("a")), again);
  });

  it("Storage.create: later changes to the caller's object do not reach the store", async (store) => {
    const input = { kind: "Thing", spec: { n: 1 } };
    await store.create(k("a"), input);
    input.spec.n = 99;
    assert.deepEqual((await store.get(k("a")))?.value, v(1));
  });

  it("Storage.create and update: the caller's JSON text of the value is what is stored", async (store) => {
    const created = await store.create(k("a"), v(1), JSON.stringify(v(1)));
    assert.deepEqual((await store.get(k("a")))?.value, v(1), "created from its text");
    await store.update(k("a"), v(2), created.revision, JSON.stringify(v(2)));
    assert.deepEqual((await store.get(k("a")))?.value, v(2), "updated from its text");
    const listed = await store.list(k(""));
    assert.deepEqual(
      listed.items.map((i) => i.value),
      [v(2)],
      "a list reads the text back as the value",
    );
  });

  it("Storage.create: of two concurrent creates of one key exactly one wins", async (store) => {
    const results = await Promise.allSettled([
      store.create(k("a"), v(1)),
      store.create(k("a"), v(2)),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    expectStorageError("AlreadyExists", k("a"))(lost[0]?.reason);
    assert.deepEqual((await store.get(k("a")))?.value, won[0]?.value.value);
  });

  it("Storage.update: replaces the value when the expected revision matches", async (store) => {
    const created = await store.create(k("a"), v(1));
    const updated = await store.update(k("a"), v(2), created.revision);
    assert.ok(updated.revision > created.revision, "updated.revision > created.revision");
    assert.deepEqual(updated, {
      key: k("a"),
      value: v(2),
      revision: updated.revision,
      createRevision: created.revision,
    });
    assert.deepEqual(await store.get(k("a")), updated);
  });

  const updateErrors: readonly {
    name: string;
    setup: (store: Storage) => Promise<Revision>;
    want: StorageErrorReason;
    wantRevision: (store: Storage) => Promise<Revision | undefined>;
  }[] = [
    {
      name: "a missing key is NotFound",
      setup: async () => 1,
      want: "NotFound",
      wantRevision: async () => undefined,
    },
    {
      name: "a deleted key is NotFound",
      setup: async (store) => {
        const created = await store.create(k("a"), v(1));
        await store.delete(k("a"));
        return created.revision;
      },
      want: "NotFound",
      wantRevision: async () => undefined,
    },
    {
      name: "a stale expected revision is Conflict carrying the current revision",
      setup: async (store) => {
        const created = await store.create(k("a"), v(1));
        await store.update(k("a"), v(2), created.revision);
        return created.revision;
      },
      want: "Conflict",
      wantRevision: async (store) => (await store.get(k("a")))?.revision,
    },
  ];
  for (const c of updateErrors) {
    it(`Storage.update: ${c.name}`, async (store) => {
      const expected = await c.setup(store);
      const revision = await c.wantRevision(store);
      const before = await store.currentRevision();
      await assert.rejects(
        store.update(k("a"), v(3), expected),
        expectStorageError(c.want, k("a"), revision),
      );
      assert.equal(await store.currentRevision(), before);
    });
  }

  it("Storage.update: of two updates from the same revision exactly one wins", async (store) => {
    const created = await store.create(k("a"), v(0));
    const results = await Promise.allSettled([
      store.update(k("a"), v(1), created.revision),
      store.update(k("a"), v(2), created.revision),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    expectStorageError("Conflict", k("a"), won[0]?.value.revision)(lost[0]?.reason);
    assert.deepEqual(await store.get(k("a")), won[0]?.value);
  });

  it("Storage.delete: returns the last value at the deletion's own revision", async (store) => {
    const created = await store.create(k("a"), v(1));
    const updated = await store.update(k("a"), v(2), created.revision);
    const deleted = await store.delete(k("a"));
    assert.ok(deleted.revision > updated.revision, "deleted.revision > updated.revision");
    assert.deepEqual(deleted, {
      key: k("a"),
      value: v(2),
      revision: deleted.revision,
      createRevision: created.revision,
    });
    assert.equal(await store.get(k("a")), undefined);
    assert.equal(await store.currentRevision(), deleted.revision);
  });

  it("Storage.delete: deletes when the expected revision is current", async (store) => {
    const created = await store.create(k("a"), v(1));
    const deleted = await store.delete(k("a"), created.revision);
    assert.deepEqual(deleted.value, v(1));
    assert.equal(await store.get(k("a")), undefined);
  });

  const deleteErrors: readonly {
    name: string;
    setup: (store: Storage) => Promise<Revision | undefined>;
    want: StorageErrorReason;
  }[] = [
    { name: "a missing key is NotFound", setup: async () => undefined, want: "NotFound" },
    {
      name: "a deleted key is NotFound",
      setup: async (store) => {
        await store.create(k("a"), v(1));
        await store.delete(k("a"));
        return undefined;
      },
      want: "NotFound",
    },
    {
      name: "a stale expected revision is Conflict",
      setup: async (store) => {
        const created = await store.create(k("a"), v(1));
        await store.update(k("a"), v(2), created.revision);
        return created.revision;
      },
      want: "Conflict",
    },
  ];
  for (const c of deleteErrors) {
    it(`Storage.delete: ${c.name}`, async (store) => {
      const expected = await c.setup(store);
      const before = await store.currentRevision();
      await assert.rejects(store.delete(k("a"), expected), expectStorageError(c.want, k("a")));
      assert.equal(await store.currentRevision(), before);
    });
  }

  it("Storage.currentRevision: revisions are global and strictly increasing", async (store) => {
    const seen: Revision[] = [await store.currentRevision()];
    const a = await store.create(k("a"), v(1));
    seen.push(a.revision);
    seen.push((await store.create("/registry/others/b", v(1))).revision);
    seen.push((await store.update(k("a"), v(2), a.revision)).revision);
    await assert.rejects(store.update(k("a"), v(3), a.revision));
    seen.push((await store.delete(k("a"))).revision);
    for (let i = 1; i < seen.length; i++) {
      assert.ok((seen[i] as Revision) > (seen[i - 1] as Revision), `revisions: ${seen.join(",")}`);
    }
    assert.equal(await store.currentRevision(), seen.at(-1));
  });
}
