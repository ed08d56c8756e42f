/**
 * The kubelet's container restart back-off (upstream `flowcontrol.Backoff` keyed per container):
 * the first restart is immediate, later ones wait 10 s, doubling to 5 min; an entry untouched for
 * twice the maximum is forgotten, so a container that ran fine for 10 minutes starts over.
 */

export const initialBackoffMs = 10_000;
export const maxBackoffMs = 300_000;

/** One container's back-off entry; `delayMs` 0 means no entry. */
export interface BackoffEntry {
  readonly delayMs: number;
  readonly updatedAt: number;
}

export const noBackoff: BackoffEntry = Object.freeze({ delayMs: 0, updatedAt: 0 });

function expired(entry: BackoffEntry, now: number): boolean {
  return entry.delayMs === 0 || now - entry.updatedAt > 2 * maxBackoffMs;
}

/**
 * Upstream's `IsInBackOffSince(key, finishedAt)` at `now`: how long after `finishedAt` the
 * container must wait, or 0 when it may restart now.
 */
export function backoffWait(entry: BackoffEntry, finishedAt: number, now: number): number {
  if (expired(entry, now)) return 0;
  return now - finishedAt < entry.delayMs ? entry.delayMs : 0;
}

/** Upstream's `Next(key, now)`: record a restart, growing (or restarting) the delay. */
export function nextBackoff(entry: BackoffEntry, now: number): BackoffEntry {
  if (expired(entry, now)) return { delayMs: initialBackoffMs, updatedAt: now };
  return { delayMs: Math.min(entry.delayMs * 2, maxBackoffMs), updatedAt: now };
}
