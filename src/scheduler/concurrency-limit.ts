/**
 * At most `max` pieces of work at once, the rest waiting in arrival order: the scheduler's bound
 * on its API writes in flight (bindings, status patches, events). Upstream bounds them with the
 * client's rate limiter and HTTP/2's stream limit on one connection; over HTTP/1.1 an unbounded
 * burst would open a connection per request (hundreds after a busy slice), overflowing the
 * server's accept queue and stalling requests for seconds in SYN retries.
 */
export class ConcurrencyLimit {
  readonly #max: number;
  #running = 0;
  /** Waiters in arrival order; `#head` is the next to go (compacted as it advances). */
  #waiting: { readonly go: () => void; readonly stop: (reason: Error) => void }[] = [];
  #head = 0;
  #closedWith: Error | undefined;

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`Cannot allow ${max} API calls at once: give a whole number ≥ 1`);
    }
    this.#max = max;
  }

  /** Work running now. */
  get running(): number {
    return this.#running;
  }

  /** Work waiting for a turn. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  /** Whether `close` was called. */
  get closed(): boolean {
    return this.#closedWith !== undefined;
  }

  /**
   * Runs `work` once fewer than `max` others run; settles as `work` does. Rejects with the
   * reason given to `close` if the limit is closed before `work` starts.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closedWith !== undefined) throw this.#closedWith;
    if (this.#running < this.#max) this.#running++;
    else {
      await new Promise<void>((go, stop) => {
        this.#waiting.push({ go, stop });
      });
    }
    try {
      return await work();
    } finally {
      this.#release();
    }
  }

  /**
   * Stops handing out turns: work still waiting, and work passed to `run` later, rejects with
   * `reason`; work already running finishes. Idempotent (the first reason stays).
   */
  close(reason: Error): void {
    if (this.#closedWith !== undefined) return;
    this.#closedWith = reason;
    const waiting = this.#waiting.slice(this.#head);
    this.#waiting = [];
    this.#head = 0;
    for (const waiter of waiting) waiter.stop(reason);
  }

  /** Hands the slot to the next waiter (the count stays), or frees it. */
  #release(): void {
    const next = this.#waiting[this.#head];
    if (next === undefined) {
      this.#running--;
      return;
    }
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    next.go();
  }
}
