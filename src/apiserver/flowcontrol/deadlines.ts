import type { Clock } from "../../util/index.ts";

/** A pending deadline. */
export interface Deadline {
  /** Forgets the deadline: its callback will not run. Idempotent. */
  cancel(): void;
}

/**
 * Callbacks that run once the clock passes their deadline: request timeouts and the time a
 * request may wait in a priority level's queue. One clock sleep is pending at a time, for the
 * earliest deadline, and none while nothing is pending, so an idle server holds no timer.
 */
export interface Deadlines {
  /**
   * Runs `onExpire` once the clock reaches `atMs` (epoch milliseconds), unless cancelled first.
   * Callbacks run in deadline order, each at most once; one that throws does not stop the rest.
   */
  add(atMs: number, onExpire: () => void): Deadline;
  /** Deadlines still pending. */
  readonly size: number;
}

/** A deadline set driven by `clock`; once `signal` aborts, no callback runs any more. */
export function newDeadlines(
  clock: Clock,
  signal: AbortSignal,
  onError: (error: unknown) => void = () => undefined,
): Deadlines {
  const pending = new Set<Entry>();
  /** When the pending sleep ends; Infinity when none is pending. */
  let armedAt = Number.POSITIVE_INFINITY;
  /** Tells the current sleep from ones an earlier deadline superseded. */
  let generation = 0;

  const arm = (atMs: number): void => {
    if (signal.aborted) return;
    armedAt = atMs;
    const mine = ++generation;
    clock.sleep(Math.max(0, atMs - clock.now().getTime()), signal).then(
      () => {
        if (mine !== generation) return;
        armedAt = Number.POSITIVE_INFINITY;
        fire();
      },
      // Aborted: the server is shutting down and nothing is due any more.
      () => undefined,
    );
  };

  const fire = (): void => {
    const now = clock.now().getTime();
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of pending) {
      if (entry.atMs <= now) due.push(entry);
      else if (entry.atMs < next) next = entry.atMs;
    }
    due.sort((a, b) => a.atMs - b.atMs);
    for (const entry of due) {
      pending.delete(entry);
      try {
        entry.onExpire();
      } catch (error: unknown) {
        onError(error);
      }
    }
    if (next !== Number.POSITIVE_INFINITY && next < armedAt) arm(next);
  };

  return {
    add(atMs, onExpire) {
      const entry = new Entry(atMs, onExpire, pending);
      pending.add(entry);
      if (atMs < armedAt) arm(atMs);
      return entry;
    },
    get size() {
      return pending.size;
    },
  };
}

/** One deadline; a class, so adding one creates no closure. */
class Entry implements Deadline {
  readonly atMs: number;
  readonly onExpire: () => void;
  readonly #pending: Set<Entry>;

  constructor(atMs: number, onExpire: () => void, pending: Set<Entry>) {
    this.atMs = atMs;
    this.onExpire = onExpire;
    this.#pending = pending;
  }

  cancel(): void {
    this.#pending.delete(this);
  }
}
