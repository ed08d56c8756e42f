import { jsonCopy, SortedKeys } from "../../util/index.ts";
import { inRange, keyRange } from "../internal/key-range.ts";
import { newWatchHub, type ReplayPage } from "../internal/watch-hub.ts";
import {
  type ListOptions,
  type ListResult,
  type Revision,
  type Storage,
  StorageError,
  type StorageKey,
  type Versioned,
  type WatchEvent,
} from "../storage.ts";

export interface MemoryStorageOptions {
  /**
   * Events buffered for one slow watcher before that watch ends with StorageError("Compacted").
   * @default 100_000
   */
  readonly watchBufferLimit?: number;
}

/** An in-memory `Storage`; `[Symbol.asyncDispose]` is `close`. */
export type MemoryStorage = Storage & AsyncDisposable;

/** One entry of a key's history: the value written at `revision`, or `undefined` for a delete. */
interface Version {
  readonly revision: Revision;
  readonly item: Versioned | undefined;
}

/**
 * A `Storage` held in process memory, with full history back to the compacted revision.
 *
 * - `history` maps each key to its versions in revision order (the last one is the latest);
 *   `allKeys` (every key with history) and `liveKeys` (keys whose latest version is a value) are
 *   sorted, so lists and counts cost O(log n + items), never O(history).
 * - `log[i]` is the event at revision `compacted + 1 + i`: every write is exactly one revision.
 * - Written values are copied through JSON, exactly as a persistent backend would store them;
 *   values handed out are shared and must not be mutated.
 */
export function newMemoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  const history = new Map<StorageKey, Version[]>();
  const allKeys = new SortedKeys();
  const liveKeys = new SortedKeys();
  let log: WatchEvent[] = [];
  let current: Revision = 0;
  let compacted: Revision = 0;
  let closed = false;

  const replay = (
    prefix: StorageKey,
    after: Revision,
    upTo: Revision,
    limit: number,
  ): ReplayPage => {
    const events: WatchEvent[] = [];
    const last = Math.min(upTo, current);
    for (let rev = Math.max(after, compacted) + 1; rev <= last; rev++) {
      const event = log[rev - compacted - 1] as WatchEvent;
      if (!event.key.startsWith(prefix)) continue;
      events.push(event);
      if (events.length >= limit) return { events, scannedTo: rev };
    }
    return { events, scannedTo: upTo };
  };

  const hub = newWatchHub(
    { currentRevision: () => current, compactedRevision: () => compacted, replay },
    { maxBufferedEvents: options.watchBufferLimit ?? 100_000, replayPageSize: 1000 },
  );

  const ensureOpen = (key: StorageKey): void => {
    if (closed) throw new StorageError("Unavailable", key, undefined, "storage is closed");
  };

  const latestLive = (key: StorageKey): Versioned | undefined => history.get(key)?.at(-1)?.item;

  /** Appends a version and its event; the caller has checked every precondition. */
  /**
   * Records a write and publishes its event; `text` (the caller's JSON of the value) goes out
   * with the live event only, so the history kept for replays holds no second copy of the value.
   */
  const commit = (
    key: StorageKey,
    item: Versioned | undefined,
    event: WatchEvent,
    text?: string,
  ): void => {
    let versions = history.get(key);
    if (versions === undefined) {
      versions = [];
      history.set(key, versions);
      allKeys.add(key);
    }
    versions.push({ revision: event.revision, item });
    if (item === undefined) liveKeys.delete(key);
    else if (event.type === "put" && event.created) liveKeys.add(key);
    log.push(event);
    current = event.revision;
    hub.publish(key, () =>
      text === undefined || event.type !== "put" ? event : { ...event, text },
    );
  };

  const checkReadable = (key: StorageKey, revision: Revision): void => {
    if (revision < compacted) throw new StorageError("Compacted", key, compacted);
    if (revision > current) {
      throw new RangeError(
        `Cannot read "${key}" at revision ${revision}: the latest revision is ${current}`,
      );
    }
  };

  const listLatest = (prefix: StorageKey, options: ListOptions): ListResult => {
    const range = keyRange(prefix, options.startKey);
    const matching = liveKeys.count(range.start, range.end);
    const limit = options.limit ?? 0;
    const take = limit > 0 ? Math.min(limit, matching) : matching;
    const items: Versioned[] = [];
    for (const key of liveKeys.from(range.start)) {
      if (items.length >= take) break;
      items.push(latestLive(key) as Versioned);
    }
    return { items, revision: current, more: take < matching, remaining: matching - take };
  };

  const listAt = (prefix: StorageKey, revision: Revision, options: ListOptions): ListResult => {
    const range = keyRange(prefix, options.startKey);
    const limit = options.limit ?? 0;
    const items: Versioned[] = [];
    let remaining = 0;
    for (const key of allKeys.from(range.start)) {
      if (!inRange(range, key)) break;
      const item = versionAt(history.get(key) ?? [], revision)?.item;
      if (item === undefined) continue;
      if (limit > 0 && items.length >= limit) remaining++;
      else items.push(item);
    }
    return { items, revision, more: remaining > 0, remaining };
  };

  const compactTo = (revision: Revision): void => {
    const touched = new Set<StorageKey>();
    for (let i = 0; i < revision - compacted; i++) touched.add((log[i] as WatchEvent).key);
    for (const key of touched) {
      const versions = history.get(key) ?? [];
      const at = lastIndexAtOrBelow(versions, revision);
      // Versions before `at` are superseded at or below the target; a tombstone at `at` goes too.
      const drop = versions[at]?.item === undefined ? at + 1 : at;
      versions.splice(0, drop);
      if (versions.length === 0) {
        history.delete(key);
        allKeys.delete(key);
      }
    }
    log = log.slice(revision - compacted);
    compacted = revision;
  };

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    hub.close();
    history.clear();
    allKeys.clear();
    liveKeys.clear();
    log = [];
  };

  return {
    get: async (key) => {
      ensureOpen(key);
      return latestLive(key);
    },

    list: async (prefix, options = {}) => {
      ensureOpen(prefix);
      const revision = options.revision ?? current;
      checkReadable(prefix, revision);
      return revision === current ? listLatest(prefix, options) : listAt(prefix, revision, options);
    },

    count: async (prefix) => {
      ensureOpen(prefix);
      const range = keyRange(prefix);
      return liveKeys.count(range.start, range.end);
    },

    create: async (key, value, text) => {
      ensureOpen(key);
      const existing = latestLive(key);
      if (existing !== undefined) throw new StorageError("AlreadyExists", key, existing.revision);
      const revision = current + 1;
      // A private copy, normalised as a backend storing JSON text would store it.
      const stored = jsonCopy(value);
      const item: Versioned = { key, value: stored, revision, createRevision: revision };
      commit(key, item, { type: "put", key, value: stored, revision, created: true }, text);
      return item;
    },

    update: async (key, value, expected, text) => {
      ensureOpen(key);
      const existing = latestLive(key);
      if (existing === undefined) throw new StorageError("NotFound", key);
      if (existing.revision !== expected) {
        throw new StorageError("Conflict", key, existing.revision);
      }
      const revision = current + 1;
      const stored = jsonCopy(value);
      const item: Versioned = {
        key,
        value: stored,
        revision,
        createRevision: existing.createRevision,
      };
      commit(
        key,
        item,
        {
          type: "put",
          key,
          value: stored,
          revision,
          created: false,
          prevValue: existing.value,
        },
        text,
      );
      return item;
    },

    delete: async (key, expected) => {
      ensureOpen(key);
      const existing = latestLive(key);
      if (existing === undefined) throw new StorageError("NotFound", key);
      if (expected !== undefined && existing.revision !== expected) {
        throw new StorageError("Conflict", key, existing.revision);
      }
      const revision = current + 1;
      commit(key, undefined, { type: "delete", key, revision, prevValue: existing.value });
      return { key, value: existing.value, revision, createRevision: existing.createRevision };
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
      if (revision > compacted) compactTo(revision);
    },

    close,
    [Symbol.asyncDispose]: close,
  } satisfies MemoryStorage;
}

/** The version in effect at `revision`, if any. */
function versionAt(versions: readonly Version[], revision: Revision): Version | undefined {
  return versions[lastIndexAtOrBelow(versions, revision)];
}

/** The index of the last version with `revision <= target`, or -1. */
function lastIndexAtOrBelow(versions: readonly Version[], target: Revision): number {
  let lo = 0;
  let hi = versions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((versions[mid] as Version).revision <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
