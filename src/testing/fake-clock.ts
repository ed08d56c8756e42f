import type { Clock } from "../util/index.ts";

interface Sleeper {
  readonly deadline: number;
  readonly seq: number;
  readonly resolve: () => void;
  readonly detach: () => void;
}

/**
 * A Clock that only moves when told: `sleep` waits until `advance` passes its deadline. Like
 * k8s.io/utils/clock/testing's FakeClock, for tests of timers, backoff and delays.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  /** @param start the initial time. @default 2024-01-01T00:00:00Z */
  constructor(start: Date = new Date("2024-01-01T00:00:00Z")) {
    this.#now = start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      if (ms <= 0) {
        resolve();
        return;
      }
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        deadline: this.#now + ms,
        seq: this.#seq++,
        resolve,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      this.#sleepers.push(sleeper);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** How many sleeps are pending (k8s `HasWaiters`). */
  get waiters(): number {
    return this.#sleepers.length;
  }

  /**
   * Moves time forward by `ms`, waking each due sleeper in deadline order at its own deadline and
   * letting the woken code run (one macrotask turn) before the next, so timers that woken code
   * sets within the window fire too.
   */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#nextDue(target);
      if (next === undefined) break;
      this.#now = Math.max(this.#now, next.deadline);
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      next.detach();
      next.resolve();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  #nextDue(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.#sleepers) {
      if (sleeper.deadline > target) continue;
      if (
        best === undefined ||
        sleeper.deadline < best.deadline ||
        (sleeper.deadline === best.deadline && sleeper.seq < best.seq)
      ) {
        best = sleeper;
      }
    }
    return best;
  }
}

/** Lets every pending promise continuation run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
