import assert from "node:assert/strict";
import { type It, k, p, v } from "./conformance-fixtures.ts";
import type { Storage } from "./storage.ts";

export function defineList(it: It): void {
  const seed = async (store: Storage, names: readonly string[]): Promise<void> => {
    for (const [i, n] of names.entries()) await store.create(k(n), v(i));
  };

  it("Storage.list: items in key order, only live keys under the prefix", async (store) => {
    await seed(store, ["c", "a", "d", "b"]);
    await store.create("/registry/thingsx/a", v(9));
    await store.create("/registry/thing", v(9));
    await store.delete(k("d"));
    const got = await store.list(p);
    assert.deepEqual(
      got.items.map((i) => [i.key, i.value]),
      [
        [k("a"), v(1)],
        [k("b"), v(3)],
        [k("c"), v(0)],
      ],
    );
    assert.equal(got.revision, await store.currentRevision());
    assert.equal(got.more, false);
    assert.equal(got.remaining, 0);
    for (const item of got.items) assert.deepEqual(await store.get(item.key), item);
  });

  it("Storage.list: revision is the store's latest even after writes elsewhere", async (store) => {
    await seed(store, ["a"]);
    const other = await store.create("/registry/others/x", v(1));
    const got = await store.list(p);
    assert.equal(got.revision, other.revision);
    assert.deepEqual(await store.list("/registry/none/"), {
      items: [],
      revision: other.revision,
      more: false,
      remaining: 0,
    });
  });

  it("Storage.list: at a past revision returns the state as of then", async (store) => {
    const a = await store.create(k("a"), v(1));
    const b = await store.create(k("b"), v(2));
    const past = b.revision;
    await store.update(k("a"), v(10), a.revision);
    await store.delete(k("b"));
    await store.create(k("c"), v(3));
    const got = await store.list(p, { revision: past });
    assert.equal(got.revision, past);
    assert.deepEqual(got.items, [a, b]);
    assert.deepEqual(
      (await store.list(p, { revision: a.revision })).items.map((i) => i.key),
      [k("a")],
    );
  });

  it("Storage.list: a revision in the future is a RangeError", async (store) => {
    await seed(store, ["a"]);
    const current = await store.currentRevision();
    await assert.rejects(store.list(p, { revision: current + 5 }), RangeError);
  });

  it("Storage.list: limit pages with more and remaining; startKey continues", async (store) => {
    await seed(store, ["a", "b", "c", "d", "e"]);
    const page1 = await store.list(p, { limit: 2 });
    assert.deepEqual(
      page1.items.map((i) => i.key),
      [k("a"), k("b")],
    );
    assert.equal(page1.more, true);
    assert.equal(page1.remaining, 3);
    const page2 = await store.list(p, { limit: 2, startKey: `${k("b")}\x00` });
    assert.deepEqual(
      page2.items.map((i) => i.key),
      [k("c"), k("d")],
    );
    assert.deepEqual([page2.more, page2.remaining], [true, 1]);
    const page3 = await store.list(p, { limit: 2, startKey: `${k("d")}\x00` });
    assert.deepEqual(
      page3.items.map((i) => i.key),
      [k("e")],
    );
    assert.deepEqual([page3.more, page3.remaining], [false, 0]);
  });

  const limitCases = [
    { name: "limit 0 returns everything", options: { limit: 0 }, want: ["a", "b", "c"] },
    { name: "a limit equal to the size is not cut", options: { limit: 3 }, want: ["a", "b", "c"] },
    { name: "startKey is inclusive", options: { startKey: k("b") }, want: ["b", "c"] },
    {
      name: "a startKey before the prefix starts at it",
      options: { startKey: "/" },
      want: ["a", "b", "c"],
    },
    { name: "a startKey after the prefix is empty", options: { startKey: "/zzz" }, want: [] },
  ] as const;
  for (const c of limitCases) {
    it(`Storage.list: ${c.name}`, async (store) => {
      await seed(store, ["c", "a", "b"]);
      const got = await store.list(p, c.options);
      assert.deepEqual(
        got.items.map((i) => i.key),
        c.want.map(k),
      );
      assert.deepEqual([got.more, got.remaining], [false, 0]);
    });
  }

  it("Storage.list: pages at a fixed revision ignore writes between pages", async (store) => {
    await seed(store, ["a", "b", "c", "d"]);
    const page1 = await store.list(p, { limit: 2 });
    const c = await store.get(k("c"));
    await store.create(k("bb"), v(9));
    await store.update(k("c"), v(42), c?.revision ?? 0);
    await store.delete(k("d"));
    const page2 = await store.list(p, {
      limit: 2,
      revision: page1.revision,
      startKey: `${k("b")}\x00`,
    });
    assert.equal(page2.revision, page1.revision);
    assert.deepEqual(
      page2.items.map((i) => [i.key, i.value]),
      [
        [k("c"), v(2)],
        [k("d"), v(3)],
      ],
    );
    assert.deepEqual([page2.more, page2.remaining], [false, 0]);
    const history = await store.list(p, { limit: 1, revision: page1.revision });
    assert.deepEqual([history.more, history.remaining], [true, 3]);
  });

  it("Storage.count: counts live keys under the prefix", async (store) => {
    assert.equal(await store.count(p), 0);
    await seed(store, ["a", "b", "c"]);
    await store.create("/registry/thingsx/a", v(1));
    await store.delete(k("b"));
    assert.equal(await store.count(p), 2);
    assert.equal(await store.count("/registry/"), 3);
  });
}
