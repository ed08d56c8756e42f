import Database from "better-sqlite3";
import { type JsonObject, jsonCopy, SortedKeys } from "../../util/index.ts";
import { keyRange } from "../internal/key-range.ts";
import { newWatchHub, type ReplayPage } from "../internal/watch-hub.ts";
import {
  type ListResult,
  type Revision,
  type Storage,
  StorageError,
  type StorageKey,
  type Versioned,
  type WatchEvent,
} from "../storage.ts";
import { translateError } from "./errors.ts";
import { type LatestRow, type LogRow, maxKey, prepareStatements } from "./statements.ts";
import { compactKey, type WriteDone, type WriteOp, type WriteOutcome } from "./write-ops.ts";
import { newInlineWriter, type SqliteWriter } from "./writer.ts";
import { startWriterThread } from "./writer-thread.ts";

export interface SqliteStorageOptions {
  /** The database file; created if missing. `":memory:"` gives a private, non-durable store. */
  readonly path: string;
  /**
   * SQLite's `synchronous` setting (the journal is always WAL).
   * - `"normal"`: an acknowledged write survives a crash or SIGKILL of this process; a power loss
   *   or OS crash may lose the latest acknowledged writes but never corrupts the database.
   * - `"full"`: an acknowledged write also survives a power loss (one fsync per group commit).
   * @default "normal"
   */
  readonly synchronous?: "normal" | "full";
  /**
   * Events buffered for one slow watcher before that watch ends with StorageError("Compacted").
   * @default 100_000
   */
  readonly watchBufferLimit?: number;
}

/** A SQLite-backed `Storage`; `[Symbol.asyncDispose]` is `close`. */
export type SqliteStorage = Storage & AsyncDisposable;

/** Revisions compacted per transaction, so a large compaction does not stall other requests. */
const compactBatch = 10_000;

/**
 * Opens (creating if needed) a kine-style SQLite store. This process must be the database's only
 * writer: watches are fed by an in-process broadcaster, not by polling the table.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<SqliteStorage> {
  const db = new Database(options.path);
  const synchronous = options.synchronous === "full" ? "FULL" : "NORMAL";
  // A private in-memory database has no WAL (and no file another connection could open).
  const fileBacked = options.path !== ":memory:" && options.path !== "";
  let stmts: ReturnType<typeof prepareStatements>;
  try {
    db.pragma("journal_mode = WAL");
    // Durability: etcd fsyncs every commit, so an acknowledged write survives a power loss; that
    // is `"full"` here (one fsync per group commit). The default is NORMAL: a commit is appended
    // to the WAL with a plain write(2), so once acknowledged it survives SIGKILL or a crash of
    // this process (the OS holds it; the next open replays the WAL, see crash-safety.test.ts),
    // and a power loss or kernel crash can lose the last commits but never corrupts the file
    // (WAL checkpoints are fsynced). For a single-node control plane that trade is right: the
    // process dying is the failure it must survive, and an fsync per commit would bound writes
    // by the disk's sync latency (tens of ms on a busy VM disk) instead of by CPU.
    db.pragma(`synchronous = ${synchronous}`);
    db.pragma("temp_store = MEMORY");
    stmts = prepareStatements(db);
  } catch (error) {
    db.close();
    throw error;
  }
  // A file's writes go to the writer thread, which holds the only connection that writes: its
  // commits (and SQLite's checkpoints, with their fsyncs) never block this thread, which keeps
  // serving reads from its own connection. A private `:memory:` database can only be written
  // here.
  let writer: SqliteWriter;
  try {
    writer = fileBacked
      ? await startWriterThread({ path: options.path, synchronous })
      : newInlineWriter(db, stmts);
  } catch (error) {
    db.close();
    throw error;
  }
  let current: Revision = stmts.sequence.get()?.seq ?? 0;
  let compacted: Revision = stmts.getMeta.get(compactKey)?.value ?? 0;
  let closed = false;
  /** Live keys at `current`, sorted: counts and `remaining` without scanning the table. */
  const liveKeys = SortedKeys.fromSorted(
    stmts.liveNames
      .all()
      .map((r) => r.name)
      .sort(),
  );

  const replay = (
    prefix: StorageKey,
    after: Revision,
    upTo: Revision,
    limit: number,
  ): ReplayPage => {
    const range = keyRange(prefix);
    const rows = stmts.replay.all({
      after,
      upTo,
      start: range.start,
      end: range.end ?? maxKey,
      limit,
    });
    const events = rows.map(toEvent);
    const last = rows.at(-1);
    return { events, scannedTo: rows.length < limit || last === undefined ? upTo : last.id };
  };

  const hub = newWatchHub(
    { currentRevision: () => current, compactedRevision: () => compacted, replay },
    { maxBufferedEvents: options.watchBufferLimit ?? 100_000, replayPageSize: 1000 },
  );

  const ensureOpen = (key: StorageKey): void => {
    if (closed) throw new StorageError("Unavailable", key, undefined, "storage is closed");
  };

  const liveRow = (key: StorageKey): LatestRow | undefined => {
    const row = stmts.latest.get(key);
    return row === undefined || row.deleted === 1 ? undefined : row;
  };

  /** Submits a write; an outcome that is not `ok` becomes its StorageError. */
  const write = async (
    key: StorageKey,
    op: WriteOp,
    committed: (done: WriteDone) => void,
  ): Promise<WriteDone> => {
    let outcome: WriteOutcome;
    try {
      outcome = await writer.submit(op, committed);
    } catch (error: unknown) {
      return translateError(error, key, op.op === "create" ? "create" : "write");
    }
    if (!outcome.ok) throw new StorageError(outcome.reason, key, outcome.revision);
    return outcome;
  };

  const listAt = (
    prefix: StorageKey,
    rev: Revision,
    startKey?: StorageKey,
    limit = 0,
  ): ListResult => {
    const range = keyRange(prefix, startKey);
    const end = range.end ?? maxKey;
    const rows = stmts.list.all({
      start: range.start,
      end,
      rev,
      limit: limit > 0 ? limit + 1 : -1,
    });
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const items = rows.map(
      (r): Versioned => ({
        key: r.name,
        value: parseObject(r.value),
        revision: r.id,
        createRevision: r.createRevision,
      }),
    );
    const last = rows.at(-1);
    let remaining = 0;
    if (more && last !== undefined) {
      const start = `${last.name}\x00`;
      remaining =
        rev === current
          ? countLive(start, range.end)
          : (stmts.count.get({ start, end, rev })?.n ?? 0);
    }
    return { items, revision: rev, more, remaining };
  };

  const countLive = (start: StorageKey, end: StorageKey | undefined): number => {
    return liveKeys.count(start, end);
  };

  let compacting: Promise<void> = Promise.resolve();

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    hub.close();
    // The writer's connection goes first: the last connection to close folds the WAL back into
    // the database file.
    await writer.close();
    db.close();
  };

  return {
    get: async (key) => {
      ensureOpen(key);
      const row = liveRow(key);
      if (row === undefined) return undefined;
      return {
        key,
        value: parseObject(row.value),
        revision: row.id,
        createRevision: row.createRevision,
      };
    },

    list: async (prefix, options = {}) => {
      ensureOpen(prefix);
      const rev = options.revision ?? current;
      if (rev < compacted) throw new StorageError("Compacted", prefix, compacted);
      if (rev > current) {
        throw new RangeError(
          `Cannot read "${prefix}" at revision ${rev}: the latest revision is ${current}`,
        );
      }
      return listAt(prefix, rev, options.startKey, options.limit);
    },

    count: async (prefix) => {
      ensureOpen(prefix);
      const range = keyRange(prefix);
      return countLive(range.start, range.end);
    },

    create: async (key, value, given) => {
      ensureOpen(key);
      const text = given ?? JSON.stringify(value);
      const stored = jsonCopy(value);
      const done = await write(key, { op: "create", key, text }, ({ revision }) => {
        current = revision;
        liveKeys.add(key);
        hub.publish(key, () => ({
          type: "put",
          key,
          value: stored,
          revision,
          created: true,
          text,
        }));
      });
      return { key, value: stored, revision: done.revision, createRevision: done.revision };
    },

    update: async (key, value, expected, given) => {
      ensureOpen(key);
      const text = given ?? JSON.stringify(value);
      const stored = jsonCopy(value);
      const done = await write(key, { op: "update", key, text, expected }, ({ revision, prev }) => {
        current = revision;
        hub.publish(key, () => updated(key, stored, text, revision, prev ?? "{}"));
      });
      return { key, value: stored, revision: done.revision, createRevision: done.createRevision };
    },

    delete: async (key, expected) => {
      ensureOpen(key);
      let last: JsonObject = {};
      const done = await write(key, { op: "delete", key, expected }, ({ revision, prev }) => {
        current = revision;
        last = parseObject(prev ?? "{}");
        liveKeys.delete(key);
        const prevValue = last;
        hub.publish(key, () => ({ type: "delete", key, revision, prevValue }));
      });
      return { key, value: last, revision: done.revision, createRevision: done.createRevision };
    },

    watch: (prefix, after, signal) => hub.watch(prefix, after, signal),

    currentRevision: async () => {
      ensureOpen("");
      return current;
    },

    compactedRevision: async () => {
      ensureOpen("");
      return compacted;
    },

    compact: async (revision) => {
      ensureOpen("");
      if (revision > current) {
        throw new RangeError(
          `Cannot compact to revision ${revision}: the latest revision is ${current}`,
        );
      }
      // One compaction at a time, in steps that each commit on their own.
      const run = async (): Promise<void> => {
        while (!closed && compacted < revision) {
          const to = Math.min(revision, compacted + compactBatch);
          await write("", { op: "compact", from: compacted, to }, (done) => {
            compacted = done.revision;
          });
        }
      };
      const step = compacting.then(run);
      compacting = step.catch(() => undefined);
      await step;
    },

    close,
    [Symbol.asyncDispose]: close,
  } satisfies SqliteStorage;
}

function toEvent(row: LogRow): WatchEvent {
  const value = parseObject(row.value);
  if (row.deleted === 1)
    return { type: "delete", key: row.name, revision: row.id, prevValue: value };
  if (row.created === 1 || row.oldValue === null) {
    const created = row.created === 1;
    return { type: "put", key: row.name, value, revision: row.id, created, text: row.value };
  }
  return updated(row.name, value, row.value, row.id, row.oldValue);
}

/**
 * The put event of an update. Its `prevValue` is parsed from the previous value's text on first
 * read: the API server's watch cache never reads it, so most events never pay for it.
 */
function updated(
  key: string,
  value: JsonObject,
  text: string,
  revision: number,
  prevText: string,
): WatchEvent {
  let prevValue: JsonObject | undefined;
  return {
    type: "put",
    key,
    value,
    text,
    revision,
    created: false,
    get prevValue(): JsonObject {
      prevValue ??= parseObject(prevText);
      return prevValue;
    },
  };
}

function parseObject(text: string): JsonObject {
  return JSON.parse(text) as JsonObject;
}
