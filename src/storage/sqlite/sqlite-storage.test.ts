import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { storageConformance } from "../conformance.ts";
import { openSqliteStorage } from "./sqlite-storage.ts";

ensureNoLeaksInEachTest();

const dir = mkdtempSync(join(tmpdir(), "gantry-sqlite-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => join(dir, `store-${files++}.db`);

storageConformance("sqlite", () => openSqliteStorage({ path: freshPath() }));
storageConformance("sqlite (synchronous full)", () =>
  openSqliteStorage({ path: freshPath(), synchronous: "full" }),
);
storageConformance("sqlite (:memory:)", () => openSqliteStorage({ path: ":memory:" }));

test("SqliteStorage.open: reopening keeps data, revisions and the compacted revision", async () => {
  const path = freshPath();
  const first = await openSqliteStorage({ path });
  const a = await first.create("/registry/x/a", { n: 1 });
  const b = await first.create("/registry/x/b", { n: 2 });
  const a2 = await first.update("/registry/x/a", { n: 3 }, a.revision);
  await first.delete("/registry/x/b");
  await first.compact(a2.revision);
  const before = await first.list("/registry/x/");
  const revision = await first.currentRevision();
  await first.close();

  await using second = await openSqliteStorage({ path });
  assert.equal(await second.currentRevision(), revision);
  assert.equal(await second.compactedRevision(), a2.revision);
  assert.deepEqual(await second.list("/registry/x/"), before);
  assert.deepEqual(await second.get("/registry/x/a"), a2);
  assert.equal(await second.count("/registry/x/"), 1);
  await assert.rejects(second.list("/registry/x/", { revision: b.revision }), {
    name: "StorageError",
    reason: "Compacted",
    revision: a2.revision,
  });
  const c = await second.create("/registry/x/c", { n: 4 });
  assert.equal(c.revision, revision + 1);
});

test("SqliteStorage.open: the revision counter survives compacting away the latest rows", async () => {
  const path = freshPath();
  const first = await openSqliteStorage({ path });
  await first.create("/registry/x/a", { n: 1 });
  const deleted = await first.delete("/registry/x/a");
  await first.compact(deleted.revision);
  assert.deepEqual((await first.list("/registry/")).items, []);
  await first.close();

  await using second = await openSqliteStorage({ path });
  assert.equal(await second.currentRevision(), deleted.revision);
  const again = await second.create("/registry/x/a", { n: 2 });
  assert.equal(again.revision, deleted.revision + 1);
  assert.equal(again.createRevision, again.revision);
});

test("SqliteStorage.compact: large compactions run in batches and drop superseded rows", async () => {
  const path = freshPath();
  await using store = await openSqliteStorage({ path });
  const keys = Array.from({ length: 32 }, (_, i) => `/registry/x/k${String(i).padStart(2, "0")}`);
  await Promise.all(
    keys.map(async (key) => {
      let revision = (await store.create(key, { n: 0 })).revision;
      for (let n = 1; n <= 330; n++) revision = (await store.update(key, { n }, revision)).revision;
    }),
  );
  const current = await store.currentRevision();
  assert.equal(current, 32 * 331);
  await store.compact(current - 1);
  assert.equal(await store.compactedRevision(), current - 1);
  const latest = await store.list("/registry/x/");
  assert.deepEqual(
    latest.items.map((i) => [i.key, i.value]),
    keys.map((key) => [key, { n: 330 }]),
  );
  await store.compact(current);
  const raw = new Database(path, { readonly: true });
  try {
    assert.deepEqual(raw.prepare("SELECT COUNT(*) AS n FROM kine").get(), { n: 32 });
  } finally {
    raw.close();
  }
});
