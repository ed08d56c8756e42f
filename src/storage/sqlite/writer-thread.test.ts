import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { prepareStatements } from "./statements.ts";
import type { WriteDone, WriteOp } from "./write-ops.ts";
import { startWriterThread, WriterThreadError } from "./writer-thread.ts";

ensureNoLeaksInEachTest();

const dir = mkdtempSync(join(tmpdir(), "gantry-writer-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A database file with gantry's schema in WAL mode, and a reader connection to it. */
function database() {
  const path = join(dir, `db-${files++}.db`);
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  const stmts = prepareStatements(db);
  const rows = () =>
    db
      .prepare<[], { id: number; name: string; deleted: number }>(
        "SELECT id, name, deleted FROM kine ORDER BY id",
      )
      .all();
  return { path, db, stmts, rows };
}

const create = (key: string): WriteOp => ({ op: "create", key, text: JSON.stringify({ key }) });

test("SqliteWriter.submit: a turn's writes commit together, callbacks in submission order", async () => {
  const { path, db, rows } = database();
  const writer = await startWriterThread({ path, synchronous: "NORMAL" });
  try {
    const committed: string[] = [];
    const note = (name: string) => (done: WriteDone) => committed.push(`${name}@${done.revision}`);
    const outcomes = await Promise.all([
      writer.submit(create("/a"), note("a")),
      writer.submit(create("/b"), note("b")),
      writer.submit({ op: "update", key: "/a", text: "{}", expected: 1 }, note("a2")),
      writer.submit({ op: "delete", key: "/b", expected: undefined }, note("b-")),
    ]);
    assert.deepEqual(
      outcomes.map((o) => (o.ok ? [o.revision, o.createRevision, o.prev] : o.reason)),
      [
        [1, 1, undefined],
        [2, 2, undefined],
        [3, 1, '{"key":"/a"}'],
        [4, 2, '{"key":"/b"}'],
      ],
    );
    assert.deepEqual(committed, ["a@1", "b@2", "a2@3", "b-@4"]);
    assert.deepEqual(rows(), [
      { id: 1, name: "/a", deleted: 0 },
      { id: 2, name: "/b", deleted: 0 },
      { id: 3, name: "/a", deleted: 0 },
      { id: 4, name: "/b", deleted: 1 },
    ]);
  } finally {
    await writer.close();
    db.close();
  }
});

test("SqliteWriter.submit: an expected outcome writes nothing and the rest of its batch commits", async () => {
  const { path, db, rows } = database();
  const writer = await startWriterThread({ path, synchronous: "NORMAL" });
  try {
    const calls: string[] = [];
    const outcomes = await Promise.all([
      writer.submit(create("/a"), () => calls.push("a")),
      writer.submit(create("/a"), () => calls.push("a again")),
      writer.submit({ op: "update", key: "/a", text: "{}", expected: 7 }, () => calls.push("u")),
      writer.submit({ op: "delete", key: "/none", expected: undefined }, () => calls.push("d")),
      writer.submit(create("/b"), () => calls.push("b")),
    ]);
    assert.deepEqual(
      outcomes.map((o) => (o.ok ? o.revision : [o.reason, o.revision])),
      [1, ["AlreadyExists", 1], ["Conflict", 1], ["NotFound", undefined], 2],
    );
    assert.deepEqual(calls, ["a", "b"]);
    assert.equal(rows().length, 2);
  } finally {
    await writer.close();
    db.close();
  }
});

test("SqliteWriter.submit: a batch that fails commits none of its writes", async () => {
  const { path, db, rows } = database();
  const writer = await startWriterThread({ path, synchronous: "NORMAL" });
  try {
    const calls: string[] = [];
    const results = await Promise.allSettled([
      writer.submit(create("/a"), () => calls.push("a")),
      writer.submit({ op: "bogus" } as unknown as WriteOp, () => calls.push("bogus")),
    ]);
    for (const result of results) {
      assert.equal(result.status, "rejected");
      assert.ok(
        result.status === "rejected" && result.reason instanceof WriterThreadError,
        "every write of the batch fails with the writer's error",
      );
      assert.match(String(result.reason), /Cannot commit to ".*": unknown write "bogus"/);
    }
    assert.equal(calls.length, 0, "no callback of the failed batch ran");
    assert.deepEqual(rows(), []);
    const later = await writer.submit(create("/b"), () => calls.push("b"));
    assert.ok(later.ok, "the next batch commits");
    assert.deepEqual(calls, ["b"]);
  } finally {
    await writer.close();
    db.close();
  }
});

test("SqliteWriter.close: waits for the writes in flight; writes after it fail", async () => {
  const { path, db, rows } = database();
  const writer = await startWriterThread({ path, synchronous: "FULL" });
  const pending = writer.submit(create("/a"), () => undefined);
  await writer.close();
  await writer.close();
  assert.ok((await pending).ok, "the write submitted before close committed");
  await assert.rejects(
    writer.submit(create("/b"), () => undefined),
    new TypeError("Cannot write: the writer is closed"),
  );
  assert.deepEqual(
    rows().map((r) => r.name),
    ["/a"],
  );
  db.close();
});

test("startWriterThread: a database it cannot open is a rejection", async () => {
  const path = join(dir, "missing.db");
  await assert.rejects(startWriterThread({ path, synchronous: "NORMAL" }), (error: unknown) => {
    assert.ok(error instanceof WriterThreadError, `not a WriterThreadError: ${String(error)}`);
    assert.match(error.message, /^Cannot open ".*missing\.db" for writing: /);
    return true;
  });
});
