import type { JsonObject } from "../util/index.ts";

/**
 * A global, monotonically increasing revision, shared by every key of one store. An object's
 * `metadata.resourceVersion` is the decimal string of the revision that last wrote it.
 */
export type Revision = number;

/** A storage key such as `/registry/pods/default/web-1`. Prefixes end with `/`. */
export type StorageKey = string;

/** A stored value together with the revisions that describe it. */
export interface Versioned {
  readonly key: StorageKey;
  /** The object as written. Callers must treat it as immutable. */
  readonly value: JsonObject;
  /** The revision of the write that produced this value (etcd's mod_revision). */
  readonly revision: Revision;
  /** The revision at which this key was created (etcd's create_revision). */
  readonly createRevision: Revision;
}

/** One change, as a watch delivers it. */
export type WatchEvent =
  | {
      readonly type: "put";
      readonly key: StorageKey;
      readonly value: JsonObject;
      readonly revision: Revision;
      readonly created: boolean;
      readonly prevValue?: JsonObject;
      /** `value`'s JSON text as stored, when the backend has it (it stores JSON text). */
      readonly text?: string;
    }
  | {
      readonly type: "delete";
      readonly key: StorageKey;
      readonly revision: Revision;
      readonly prevValue: JsonObject;
    };

export interface ListOptions {
  /** Read the state as of this revision; unset reads the latest. Throws Compacted if too old. */
  readonly revision?: Revision;
  /** Start at this key (inclusive) instead of at the prefix. */
  readonly startKey?: StorageKey;
  /** At most this many items; 0 or unset means all. */
  readonly limit?: number;
}

export interface ListResult {
  /** Items in key order. */
  readonly items: readonly Versioned[];
  /** The revision the list reflects (the store's latest revision when `options.revision` is unset). */
  readonly revision: Revision;
  /** True when `limit` cut the list short. */
  readonly more: boolean;
  /** How many items matched beyond `limit` (best effort; 0 when `more` is false). */
  readonly remaining: number;
}

/**
 * The persistence seam. Every backend (memory, SQLite, etcd) passes `storageConformance`.
 *
 * Semantics shared by all methods:
 * - A write that resolves is durable to the backend's stated guarantee and visible to every
 *   later read and watch; writes are totally ordered by revision.
 * - Failures that callers act on are `StorageError`s; anything else is a backend fault.
 */
export interface Storage {
  /** The latest value at `key`, or `undefined` if there is none. */
  get(key: StorageKey): Promise<Versioned | undefined>;

  /** Every live key under `prefix`, in key order, at one consistent revision. */
  list(prefix: StorageKey, options?: ListOptions): Promise<ListResult>;

  /** Counts live keys under `prefix` at the latest revision. */
  count(prefix: StorageKey): Promise<number>;

  /**
   * Writes a new key. Throws StorageError("AlreadyExists") if the key is live. `text`, when the
   * caller has it, is exactly `JSON.stringify(value)`: backends that store JSON text write it
   * instead of serializing `value` again.
   */
  create(key: StorageKey, value: JsonObject, text?: string): Promise<Versioned>;

  /**
   * Replaces the value at `key` only if its current revision is `expected` (compare-and-swap).
   * Throws StorageError("NotFound") if the key is gone and StorageError("Conflict") if another
   * write came first. `text` as for `create`.
   */
  update(key: StorageKey, value: JsonObject, expected: Revision, text?: string): Promise<Versioned>;

  /**
   * Deletes `key`, only if its current revision is `expected` when given. Resolves to the last
   * value, with `revision` set to the deletion's revision. Throws NotFound or Conflict.
   */
  delete(key: StorageKey, expected?: Revision): Promise<Versioned>;

  /**
   * Every change under `prefix` with a revision greater than `after`, in revision order, then
   * live changes until `signal` aborts (the iterator then ends without error). Throws
   * StorageError("Compacted") from the first `next()` if `after` is older than the compacted
   * revision.
   */
  watch(prefix: StorageKey, after: Revision, signal: AbortSignal): AsyncIterable<WatchEvent>;

  /** The revision of the latest write (0 for an empty store). */
  currentRevision(): Promise<Revision>;

  /** The oldest revision still readable by `list` and `watch` (0 if nothing was compacted). */
  compactedRevision(): Promise<Revision>;

  /**
   * Drops history at or below `revision`: superseded values and tombstones. Afterwards lists and
   * watches from older revisions throw Compacted. Idempotent; a smaller revision is a no-op.
   */
  compact(revision: Revision): Promise<void>;

  /** Releases every handle; pending watches end. Idempotent. */
  close(): Promise<void>;
}

export type StorageErrorReason =
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Compacted"
  | "Unavailable";

/** An expected storage failure; the registry maps it to an ApiError, and only there. */
export class StorageError extends Error {
  readonly reason: StorageErrorReason;
  readonly key: StorageKey;
  /** For Compacted: the compacted revision; for Conflict: the current revision if known. */
  readonly revision: Revision | undefined;

  constructor(reason: StorageErrorReason, key: StorageKey, revision?: Revision, detail?: string) {
    super(
      `Cannot complete storage operation on "${key}": ${reason}${detail === undefined ? "" : ` (${detail})`}`,
    );
    this.name = "StorageError";
    this.reason = reason;
    this.key = key;
    this.revision = revision;
  }
}

/** The end of the key range that starts with `prefix`: every key under it sorts below. */
export function prefixEnd(prefix: StorageKey): StorageKey {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}
