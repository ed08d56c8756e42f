import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { newCommitQueue } from "./commit-queue.ts";

function fixture() {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (v INTEGER NOT NULL UNIQUE)");
  const insert = db.prepare<[number]>("INSERT INTO t (v) VALUES (?)");
  const values = (): number[] =>
    db
      .prepare<[], { v: number }>("SELECT v FROM t ORDER BY v")
      .all()
      .map((r) => r.v);
  return {
    db,
    queue: newCommitQueue(db),
    insert: db.transaction((v: number) => insert.run(v)),
    values,
  };
}

test("CommitQueue.submit: writes of one turn share a transaction; a failure rolls back alone", async () => {
  const { db, queue, insert, values } = fixture();
  const committed: number[] = [];
  const inTransaction: boolean[] = [];
  const submit = (v: number) =>
    queue.submit(
      () => {
        inTransaction.push(db.inTransaction);
        insert(v);
        if (v === 2) throw new RangeError("write 2 fails after inserting");
        return v;
      },
      (result) => committed.push(result),
    );
  const results = await Promise.allSettled([submit(1), submit(2), submit(3), submit(1)]);
  assert.deepEqual(
    results.map((r) => r.status),
    ["fulfilled", "rejected", "fulfilled", "rejected"],
  );
  assert.deepEqual(inTransaction, [true, true, true, true]);
  assert.deepEqual(committed, [1, 3]);
  assert.deepEqual(values(), [1, 3]);
  queue.close();
  db.close();
});

test("CommitQueue.submit: nothing is visible before the batch commits", async () => {
  const { db, queue, insert, values } = fixture();
  const done = queue.submit(
    () => insert(7),
    () => undefined,
  );
  assert.deepEqual(values(), []);
  await done;
  assert.deepEqual(values(), [7]);
  queue.close();
  db.close();
});

test("CommitQueue.close: commits queued writes, then refuses new ones", async () => {
  const { db, queue, insert, values } = fixture();
  const done = queue.submit(
    () => insert(5),
    () => undefined,
  );
  queue.close();
  assert.deepEqual(values(), [5]);
  await done;
  await assert.rejects(
    queue.submit(
      () => insert(6),
      () => undefined,
    ),
    TypeError,
  );
  db.close();
});
