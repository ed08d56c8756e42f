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
