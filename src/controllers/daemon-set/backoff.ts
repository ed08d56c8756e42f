/**
 * The failed-pod backoff of the DaemonSet controller (client-go's `flowcontrol.Backoff` with
 * 1 s doubling to 15 min): a node whose daemon pod keeps failing gets its pod deleted (and
 * recreated) at most once per backoff period.
 */
export interface FailedPodBackoffOptions {
  /** @default 1000 */
  readonly initialMs?: number;
  /** @default 900000 (15 min) */
  readonly maxMs?: number;
}

interface Entry {
  delayMs: number;
  lastUpdate: number;
}

export class FailedPodBackoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: FailedPodBackoffOptions = {}) {
    this.#initialMs = options.initialMs ?? 1000;
    this.#maxMs = options.maxMs ?? 15 * 60 * 1000;
  }

  /** Ms until `key` leaves its backoff (`IsInBackOffSinceUpdate`); 0 when not in backoff. */
  remainingMs(key: string, now: number): number {
    const entry = this.#entries.get(key);
    if (entry === undefined) return 0;
    return Math.max(0, entry.lastUpdate + entry.delayMs - now);
  }

  /** Records an attempt (`Next`): the delay doubles, or restarts after a long quiet period. */
  next(key: string, now: number): void {
    for (const [k, e] of this.#entries) {
      if (now - e.lastUpdate > 2 * this.#maxMs) this.#entries.delete(k);
    }
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#entries.set(key, { delayMs: this.#initialMs, lastUpdate: now });
      return;
    }
    entry.delayMs = Math.min(entry.delayMs * 2, this.#maxMs);
    entry.lastUpdate = now;
  }
}
