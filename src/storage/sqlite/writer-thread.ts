import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { writeSql } from "./statements.ts";
import { compactKey, type WriteDone, type WriteOp, type WriteOutcome } from "./write-ops.ts";
import type { SqliteWriter } from "./writer.ts";

export interface WriterThreadOptions {
  /** The database file, already created, with its schema, in WAL mode. */
  readonly path: string;
  /** The writer connection's `synchronous` setting: it is the one that commits. */
  readonly synchronous: "NORMAL" | "FULL";
}

/**
 * The writer thread's code, evaluated as CommonJS (no file to find beside the TypeScript or the
 * compiled sources, no loader needed). `apply` is `applyWriteOp` (write-ops.ts) in JavaScript:
 * change both together. A batch is one transaction; an expected outcome (exists, missing,
 * conflict) changes nothing, and any error rolls the whole batch back and fails it. SQLite's
 * automatic checkpoints run here too, so their copying and fsyncs never stall the event loop.
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const describe = (error) => ({
  message: (error && error.message) || String(error),
  code: error && typeof error.code === "string" ? error.code : undefined,
});
const open = () => {
  const Database = require(workerData.driver);
  const db = new Database(workerData.path, { fileMustExist: true });
  db.pragma("synchronous = " + workerData.synchronous);
  const sql = workerData.sql;
  return {
    db,
    latest: db.prepare(sql.latest),
    insert: db.prepare(sql.insert),
    deleteSuperseded: db.prepare(sql.deleteSuperseded),
    deleteTombstones: db.prepare(sql.deleteTombstones),
    setMeta: db.prepare(sql.setMeta),
    begin: db.prepare("BEGIN IMMEDIATE"),
    commit: db.prepare("COMMIT"),
    rollback: db.prepare("ROLLBACK"),
  };
};
const apply = ({ latest, insert, deleteSuperseded, deleteTombstones, setMeta }, op) => {
  switch (op.op) {
    case "create": {
      const row = latest.get(op.key);
      if (row !== undefined && row.deleted === 0) {
        return { ok: false, reason: "AlreadyExists", revision: row.id };
      }
      const info = insert.run(op.key, 1, 0, 0, row === undefined ? 0 : row.id, op.text, null);
      const revision = Number(info.lastInsertRowid);
      return { ok: true, revision, createRevision: revision, prev: undefined };
    }
    case "update":
    case "delete": {
      const row = latest.get(op.key);
      if (row === undefined || row.deleted === 1) {
        return { ok: false, reason: "NotFound", revision: undefined };
      }
      if (op.expected !== undefined && row.id !== op.expected) {
        return { ok: false, reason: "Conflict", revision: row.id };
      }
      const info =
        op.op === "update"
          ? insert.run(op.key, 0, 0, row.createRevision, row.id, op.text, row.value)
          : insert.run(op.key, 0, 1, row.createRevision, row.id, row.value, null);
      return {
        ok: true,
        revision: Number(info.lastInsertRowid),
        createRevision: row.createRevision,
        prev: row.value,
      };
    }
    case "compact":
      deleteSuperseded.run(op.from, op.to);
      deleteTombstones.run(op.from, op.to);
      setMeta.run(workerData.compactKey, op.to);
      return { ok: true, revision: op.to, createRevision: 0, prev: undefined };
    default:
      throw new TypeError("unknown write " + JSON.stringify(op.op));
  }
};
const serve = (w) => {
  parentPort.on("message", (message) => {
    if (message.stop === true) {
      w.db.close();
      parentPort.postMessage({ stopped: true });
      return;
    }
    const outcomes = [];
    try {
      w.begin.run();
      for (const op of message.ops) outcomes.push(apply(w, op));
      w.commit.run();
    } catch (error) {
      if (w.db.inTransaction) w.rollback.run();
      parentPort.postMessage({ id: message.id, failed: describe(error) });
      return;
    }
    parentPort.postMessage({ id: message.id, outcomes });
  });
  parentPort.postMessage({ ready: true });
};
let opened;
try {
  opened = open();
} catch (error) {
  parentPort.postMessage({ fatal: describe(error) });
}
if (opened !== undefined) serve(opened);
`;

/** A driver error as the writer thread reports it. */
interface ThreadError {
  readonly message: string;
  readonly code: string | undefined;
}

type Reply =
  | { readonly ready: true }
  | { readonly fatal: ThreadError }
  | { readonly stopped: true }
  | { readonly id: number; readonly outcomes: readonly WriteOutcome[] }
  | { readonly id: number; readonly failed: ThreadError };

interface Pending {
  readonly op: WriteOp;
  readonly committed: (done: WriteDone) => void;
  readonly resolve: (outcome: WriteOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/** How long `close` waits for the thread to close its connection before terminating it. */
const stopTimeoutMs = 5_000;

/** An error of the writer thread, carrying SQLite's code (`SQLITE_BUSY`…) when it has one. */
export class WriterThreadError extends Error {
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = "WriterThreadError";
    this.code = code;
  }
}

/**
 * Starts the writer thread for a database file: it holds the only connection that writes, and
 * commits each batch of writes this thread sends it. Resolves once the thread has opened the
 * database; rejects if it cannot. One batch is in flight at a time; replies come back in order.
 */
export async function startWriterThread(options: WriterThreadOptions): Promise<SqliteWriter> {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      path: options.path,
      synchronous: options.synchronous,
      sql: writeSql,
      compactKey,
    },
  });
  let queue: Pending[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const inFlight = new Map<number, Pending[]>();
  let nextId = 0;
  /** Set once the thread is gone or broken: every write from then on fails with it. */
  let broken: Error | undefined;
  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  let markDrained: () => void = () => undefined;

  const fail = (error: Error): void => {
    broken ??= error;
    failReady(error);
    for (const batch of inFlight.values()) for (const p of batch) p.reject(error);
    inFlight.clear();
    for (const p of queue) p.reject(error);
    queue = [];
    markDrained();
  };

  worker.on("message", (reply: Reply) => {
    if ("ready" in reply) {
      markReady();
      return;
    }
    if ("fatal" in reply) {
      const error = new WriterThreadError(
        `Cannot open "${options.path}" for writing: ${reply.fatal.message}`,
        reply.fatal.code,
      );
      fail(error);
      return;
    }
    if ("stopped" in reply) {
      markStopped();
      return;
    }
    const batch = inFlight.get(reply.id);
    inFlight.delete(reply.id);
    if (batch !== undefined) {
      if ("failed" in reply) {
        const error = new WriterThreadError(
          `Cannot commit to "${options.path}": ${reply.failed.message}`,
          reply.failed.code,
        );
        for (const p of batch) p.reject(error);
      } else settle(batch, reply.outcomes);
    }
    // What queued up meanwhile goes next, as one batch, with whatever this turn of the event
    // loop still adds to it.
    if (queue.length > 0) scheduled ??= setImmediate(flush);
    else if (inFlight.size === 0) {
      // Nothing on its way: the thread must not keep the process alive.
      worker.unref();
      markDrained();
    }
  });
  worker.on("error", (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    fail(
      new WriterThreadError(`The writer thread of "${options.path}" failed: ${reason}`, undefined),
    );
  });
  const exited = new Promise<void>((resolve) => {
    worker.once("exit", () => {
      fail(new WriterThreadError(`The writer thread of "${options.path}" stopped`, undefined));
      markStopped();
      resolve();
    });
  });

  // One batch at a time: while the thread commits one, the next gathers every write that
  // arrives, so a busy server makes fewer, larger commits (and fewer messages).
  const flush = (): void => {
    scheduled = undefined;
    if (queue.length === 0 || inFlight.size > 0) return;
    const batch = queue;
    queue = [];
    const id = nextId++;
    inFlight.set(id, batch);
    // Keep the process alive while a write is on its way.
    worker.ref();
    worker.postMessage({ id, ops: batch.map((p) => p.op) });
  };

  try {
    await ready;
  } catch (error: unknown) {
    await worker.terminate();
    throw error;
  }
  worker.unref();

  let closing: Promise<void> | undefined;
  return {
    submit: (op, committed) =>
      new Promise<WriteOutcome>((resolve, reject) => {
        if (closing !== undefined) {
          reject(new TypeError("Cannot write: the writer is closed"));
          return;
        }
        if (broken !== undefined) {
          reject(broken);
          return;
        }
        queue.push({ op, committed, resolve, reject });
        scheduled ??= setImmediate(flush);
      }),
    close: () => {
      closing ??= (async () => {
        if (scheduled !== undefined) clearImmediate(scheduled);
        flush();
        if (inFlight.size > 0) {
          await new Promise<void>((resolve) => {
            markDrained = resolve;
          });
        }
        if (broken === undefined) {
          // The thread closes its connection first, so that the caller's is the last one and
          // folds the WAL back into the database file when it closes.
          worker.ref();
          worker.postMessage({ stop: true });
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<void>((resolve) => {
            timer = setTimeout(resolve, stopTimeoutMs);
          });
          await Promise.race([stopped, late]);
          clearTimeout(timer);
        }
        await worker.terminate();
        await exited;
      })();
      return closing;
    },
  };
}

/** Runs the committed callbacks of a batch in order, then settles its promises. */
function settle(batch: readonly Pending[], outcomes: readonly WriteOutcome[]): void {
  for (const [i, p] of batch.entries()) {
    const outcome = outcomes[i];
    if (outcome === undefined) {
      p.reject(new TypeError("The writer thread answered fewer writes than it was sent"));
      continue;
    }
    if (outcome.ok) {
      try {
        p.committed(outcome);
      } catch (error: unknown) {
        p.reject(error);
        continue;
      }
    }
    p.resolve(outcome);
  }
}
