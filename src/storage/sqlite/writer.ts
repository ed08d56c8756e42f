import type { Database } from "better-sqlite3";
import { newCommitQueue } from "./commit-queue.ts";
import type { Statements } from "./statements.ts";
import { applyWriteOp, type WriteDone, type WriteOp, type WriteOutcome } from "./write-ops.ts";

/**
 * Where a SQLite store's writes go: group commits, in order. Writes submitted during one turn of
 * the event loop share a transaction.
 */
export interface SqliteWriter {
  /**
   * Queues `op` for the next group commit. Once its batch has committed, `committed` runs for
   * each applied write of the batch in submission order, before the batch's promises resolve and
   * before any later batch's callbacks. Resolves with the outcome; rejects when the batch could
   * not commit, and then no `committed` of that batch runs.
   */
  submit(op: WriteOp, committed: (done: WriteDone) => void): Promise<WriteOutcome>;
  /** Commits what is queued and waits for every write in flight, then stops. Idempotent. */
  close(): Promise<void>;
}

/**
 * The writer for a private `:memory:` database, which no other thread can open: writes run on
 * this thread, through the commit queue.
 */
export function newInlineWriter(db: Database, stmts: Statements): SqliteWriter {
  const commits = newCommitQueue(db);
  return {
    submit: (op, committed) =>
      commits.submit(
        () => applyWriteOp(stmts, op),
        (outcome) => {
          if (outcome.ok) committed(outcome);
        },
      ),
    close: async () => commits.close(),
  };
}
