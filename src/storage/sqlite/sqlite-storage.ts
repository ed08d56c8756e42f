import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import Database from "better-sqlite3";
import type { JsonObject } from "../../util/index.ts";
import { insertSorted, keyRange, lowerBound, removeSorted } from "../internal/key-range.ts";
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
import { newCommitQueue } from "./commit-queue.ts";
import { translateError } from "./errors.ts";
import { type LatestRow, type LogRow, maxKey, prepareStatements } from "./statements.ts";

export interface SqliteStorageOptions {
  /** The database file; created if missing. `":memory:"` gives a private, non-durable store. */
  readonly path: string;
  /**
   * SQLite's `synchronous` setting (the journal is always WAL).
   * - `"normal"`: an acknowledged write survives a crash or SIGKILL of this process; a power loss
   *   or OS crash may lose the latest acknowledged writes but never corrupts the database.
   * - `"full"`: an acknowledged write also survives a power loss (one fsync per write).
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
const compactKey = "compact_rev";

/**
 * Opens (creating if needed) a kine-style SQLite store. This process must be the database's only
 * writer: watches are fed by an in-process broadcaster, not by polling the table.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<SqliteStorage> {
  const db = new Database(options.path);
  let stmts: ReturnType<typeof prepareStatements>;
  try {
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
    db.pragma("temp_store = MEMORY");
    stmts = prepareStatements(db);
  } catch (error) {
    db.close();
    throw error;
  }
  let current: Revision = stmts.sequence.get()?.seq ?? 0;
  let compacted: Revision = stmts.getMeta.get(compactKey)?.value ?? 0;
  let closed = false;
  /** Live keys at `current`, sorted: counts and `remaining` without scanning the table. */
  const liveKeys = stmts.liveNames
    .all()
    .map((r) => r.name)
    .sort();
  const commits = newCommitQueue(db);

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

  // Writes run inside the commit queue's batch transaction, each in its own savepoint.
  const insertCreate = (key: StorageKey, text: string): number => {
    const latest = stmts.latest.get(key);
    if (latest !== undefined && latest.deleted === 0) {
      throw new StorageError("AlreadyExists", key, latest.id);
    }
    return Number(stmts.insert.run(key, 1, 0, 0, latest?.id ?? 0, text, null).lastInsertRowid);
  };

  /** Inserts the row that follows the key's live row; returns that row and the new revision. */
  const insertAfter = (
    key: StorageKey,
    text: string | undefined,
    expected: Revision | undefined,
  ): { readonly row: LatestRow; readonly revision: Revision } => {
    const row = liveRow(key);
    if (row === undefined) throw new StorageError("NotFound", key);
    if (expected !== undefined && row.id !== expected) {
      throw new StorageError("Conflict", key, row.id);
    }
    const info =
      text === undefined
        ? stmts.insert.run(key, 0, 1, row.createRevision, row.id, row.value, null)
        : stmts.insert.run(key, 0, 0, row.createRevision, row.id, text, row.value);
    return { row, revision: Number(info.lastInsertRowid) };
  };

  const compactStep = db.transaction((from: Revision, to: Revision): void => {
    stmts.deleteSuperseded.run(from, to);
    stmts.deleteTombstones.run(from, to);
    stmts.setMeta.run(compactKey, to);
  });

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
    const hi = end === undefined ? liveKeys.length : lowerBound(liveKeys, end);
    return Math.max(0, hi - lowerBound(liveKeys, start));
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    commits.close();
    hub.close();
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

    create: async (key, value) => {
      ensureOpen(key);
      const text = JSON.stringify(value);
      const stored = parseObject(text);
      try {
        const revision = await commits.submit(
          () => insertCreate(key, text),
          (rev) => {
            current = rev;
            insertSorted(liveKeys, key);
            hub.publish(key, () => ({
              type: "put",
              key,
              value: stored,
              revision: rev,
              created: true,
            }));
          },
        );
        return { key, value: stored, revision, createRevision: revision };
      } catch (error) {
        return translateError(error, key, "create");
      }
    },

    update: async (key, value, expected) => {
      ensureOpen(key);
      const text = JSON.stringify(value);
      const stored = parseObject(text);
      try {
        const { row, revision } = await commits.submit(
          () => insertAfter(key, text, expected),
          ({ row, revision: rev }) => {
            current = rev;
            hub.publish(key, () => ({
              type: "put",
              key,
              value: stored,
              revision: rev,
              created: false,
              prevValue: parseObject(row.value),
            }));
          },
        );
        return { key, value: stored, revision, createRevision: row.createRevision };
      } catch (error) {
        return translateError(error, key, "write");
      }
    },

    delete: async (key, expected) => {
      ensureOpen(key);
      try {
        const { row, revision, last } = await commits.submit(
          () => {
            const written = insertAfter(key, undefined, expected);
            return { ...written, last: parseObject(written.row.value) };
          },
          ({ revision: rev, last: prev }) => {
            current = rev;
            removeSorted(liveKeys, key);
            hub.publish(key, () => ({ type: "delete", key, revision: rev, prevValue: prev }));
          },
        );
        return { key, value: last, revision, createRevision: row.createRevision };
      } catch (error) {
        return translateError(error, key, "write");
      }
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
      while (!closed && compacted < revision) {
        const to = Math.min(revision, compacted + compactBatch);
        compactStep.immediate(compacted, to);
        compacted = to;
        if (to < revision) await yieldToEventLoop();
      }
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
    return { type: "put", key: row.name, value, revision: row.id, created: row.created === 1 };
  }
  return {
    type: "put",
    key: row.name,
    value,
    revision: row.id,
    created: false,
    prevValue: parseObject(row.oldValue),
  };
}

function parseObject(text: string): JsonObject {
  return JSON.parse(text) as JsonObject;
}
