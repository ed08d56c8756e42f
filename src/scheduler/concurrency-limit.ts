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
  #waiting: (() => void)[] = [];
  #head = 0;

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

  /** Runs `work` once fewer than `max` others run; settles as `work` does. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.#max) this.#running++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      this.#release();
    }
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
    next();
  }
}
