import { prefixEnd, type StorageKey } from "../storage.ts";

/** The root every registry key starts with; the configured etcd prefix replaces it. */
const registryRoot = "/registry";

/** A half-open etcd key range `[key, rangeEnd)`. */
export interface EtcdRange {
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
}

/**
 * How one store's keys are laid out in etcd. Registry keys (`/registry/pods/ns/name`) live at
 * `<prefix>/pods/ns/name`; two more keys sit beside that range, never inside any `<prefix>/…`
 * range that lists or watches read:
 * - `revisionKey` (`<prefix>`, no trailing slash) is written in the same transaction as every
 *   write of the store, so its mod_revision is the revision of the store's latest write;
 * - `compactKey` (`compact_rev_key<prefix>`) holds the revision this store last compacted to, and
 *   its mod_revision is the compare-and-swap token that keeps API servers sharing the store
 *   from compacting twice (kube-apiserver's `compact_rev_key`).
 */
export interface KeySpace {
  readonly prefix: string;
  readonly revisionKey: Buffer;
  readonly compactKey: Buffer;
  /** The etcd key of a registry key. */
  toEtcd(key: StorageKey): Buffer;
  /** The registry key of an etcd key under the prefix. */
  fromEtcd(key: Buffer): StorageKey;
  /** The etcd range of the registry keys under `prefix` from `startKey` on; undefined if empty. */
  range(prefix: StorageKey, startKey?: StorageKey): EtcdRange | undefined;
}

/** Normalizes `prefix` (`/registry` by default; a trailing `/` is dropped) into a key space. */
export function newKeySpace(prefix = registryRoot): KeySpace {
  const root = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  if (!root.startsWith("/") || root.length < 2) {
    throw new RangeError(`Invalid etcd prefix "${prefix}": it must start with "/" and name a path`);
  }
  const toEtcd = (key: StorageKey): Buffer => {
    if (!key.startsWith(registryRoot)) {
      throw new RangeError(`Invalid storage key "${key}": it must start with "${registryRoot}"`);
    }
    return Buffer.from(`${root}${key.slice(registryRoot.length)}`);
  };
  return {
    prefix: root,
    revisionKey: Buffer.from(root),
    compactKey: Buffer.from(`compact_rev_key${root}`),
    toEtcd,
    fromEtcd: (key) => `${registryRoot}${key.toString().slice(root.length)}`,
    range: (rangePrefix, startKey) => {
      const end = prefixEnd(rangePrefix);
      const start = startKey !== undefined && startKey > rangePrefix ? startKey : rangePrefix;
      if (start >= end) return undefined;
      return { key: toEtcd(start), rangeEnd: toEtcd(end) };
    },
  };
}
