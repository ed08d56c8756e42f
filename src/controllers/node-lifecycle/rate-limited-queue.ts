/**
 * A zone's NoExecute tainting queue (upstream's `RateLimitedTimedQueue` over a `UniqueQueue`
 * with a token bucket of burst 1): nodes wait in order; one leaves per token; a node stays in
 * the set after leaving so it is not queued again until removed.
 */
export class RateLimitedQueue {
  #qps: number;
  #tokens = 1;
  #refilledAt: number;
  readonly #set = new Set<string>();
  #queue: string[] = [];

  constructor(qps: number, now: number) {
    this.#qps = qps;
    this.#refilledAt = now;
  }

  /** `SwapLimiter`: a new rate; the bucket starts full again (0 rejects everything). */
  setRate(qps: number, now: number): void {
    if (qps === this.#qps) return;
    this.#qps = qps;
    this.#tokens = 1;
    this.#refilledAt = now;
  }

  /** Queues `name` unless it is already in the set. Returns whether it was added. */
  add(name: string): boolean {
    if (this.#set.has(name)) return false;
    this.#set.add(name);
    this.#queue.push(name);
    return true;
  }

  /** Forgets `name` entirely (it may be queued again). */
  remove(name: string): void {
    this.#set.delete(name);
    this.#queue = this.#queue.filter((n) => n !== name);
  }

  get pending(): number {
    return this.#queue.length;
  }

  #refill(now: number): void {
    this.#tokens = Math.min(1, this.#tokens + ((now - this.#refilledAt) / 1000) * this.#qps);
    this.#refilledAt = now;
  }

  /**
   * `Try`: hands queued nodes to `process` while tokens last. A node `process` accepts leaves
   * the queue (staying in the set); one it rejects stays queued and ends this round.
   */
  async drain(now: number, process: (name: string) => Promise<boolean>): Promise<void> {
    this.#refill(now);
    while (this.#queue.length > 0 && this.#qps > 0 && this.#tokens >= 1) {
      const name = this.#queue[0] ?? "";
      this.#tokens -= 1;
      if (!(await process(name))) return;
      this.#queue = this.#queue.filter((n) => n !== name);
    }
  }

  /** Ms until the next queued node may leave; `undefined` when none may (empty or stopped). */
  nextInMs(now: number): number | undefined {
    if (this.#queue.length === 0 || this.#qps <= 0) return undefined;
    this.#refill(now);
    if (this.#tokens >= 1) return 0;
    return Math.ceil(((1 - this.#tokens) / this.#qps) * 1000);
  }
}
