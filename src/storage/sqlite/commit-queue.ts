import type { Database } from "better-sqlite3";

/**
 * Group commit: writes submitted during one turn of the event loop run in one SQLite
 * transaction, each inside its own savepoint, so a failing write rolls back alone and the others
 * share one WAL append (and, with `synchronous = FULL`, one fsync).
 */
export interface CommitQueue {
  /**
   * Queues `write`, which runs synchronously inside the next batch's transaction, in a savepoint
   * of its own: if it throws, its changes are rolled back and the batch goes on. After the batch commits, `committed` runs
   * synchronously, in submission order, before any other code can observe the database; then the
   * promise resolves. If `write` throws, or the commit fails, the promise rejects with that error
   * and `committed` does not run.
   */
  submit<T>(write: () => T, committed: (result: T) => void): Promise<T>;
  /** Commits every queued write now, then stops accepting writes. Idempotent. */
  close(): void;
}

interface Pending {
  readonly write: () => unknown;
  readonly committed: (result: unknown) => void;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

export function newCommitQueue(db: Database): CommitQueue {
  let queue: Pending[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let closed = false;

  // Called inside `runBatch`, this runs as a savepoint: a write that throws leaves nothing behind.
  const inSavepoint = db.transaction((op: Pending): unknown => op.write());
  const runBatch = db.transaction((batch: readonly Pending[]): Outcome[] =>
    batch.map((op): Outcome => {
      try {
        return { ok: true, value: inSavepoint(op) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );

  const flush = (): void => {
    scheduled = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = runBatch.immediate(batch);
    } catch (error) {
      for (const op of batch) op.reject(error);
      return;
    }
    for (const [i, op] of batch.entries()) {
      const outcome = outcomes[i] as Outcome;
      if (!outcome.ok) {
        op.reject(outcome.error);
        continue;
      }
      try {
        op.committed(outcome.value);
      } catch (error) {
        op.reject(error);
        continue;
      }
      op.resolve(outcome.value);
    }
  };

  return {
    submit: <T>(write: () => T, committed: (result: T) => void): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        if (closed) {
          reject(new TypeError("Cannot write: the commit queue is closed"));
          return;
        }
        queue.push({
          write,
          committed: committed as (result: unknown) => void,
          resolve: resolve as (result: unknown) => void,
          reject,
        });
        scheduled ??= setImmediate(flush);
      }),
    close: () => {
      if (closed) return;
      closed = true;
      if (scheduled !== undefined) clearImmediate(scheduled);
      flush();
    },
  };
}
