import { prefixEnd, type StorageKey } from "../storage.ts";

/** The half-open key interval `[start, end)` a list or watch covers; `end` unset means unbounded. */
export interface KeyRange {
  readonly start: StorageKey;
  readonly end: StorageKey | undefined;
}

/**
 * The keys under `prefix`, starting at `startKey` (inclusive) when that lies further on. The empty
 * prefix covers every key.
 */
export function keyRange(prefix: StorageKey, startKey?: StorageKey): KeyRange {
  const start = startKey !== undefined && startKey > prefix ? startKey : prefix;
  return { start, end: prefix === "" ? undefined : prefixEnd(prefix) };
}

/** Whether `key` lies in `range`. */
export function inRange(range: KeyRange, key: StorageKey): boolean {
  return key >= range.start && (range.end === undefined || key < range.end);
}

/** The index of the first element of the sorted `keys` that is `>= key` (`keys.length` if none). */
export function lowerBound(keys: readonly StorageKey[], key: StorageKey): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as StorageKey) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
