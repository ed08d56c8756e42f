/**
 * One timer for a whole fleet: keys with deadlines in a binary min-heap, and a single loop that
 * sleeps (on the injected Clock) until the earliest deadline, then hands due keys to `fire`.
 * Thousands of nodes' heartbeats and pods' transitions cost one pending sleep.
 */
import type { Clock } from "../../util/index.ts";

interface Entry<K> {
  readonly at: number;
  readonly key: K;
  readonly seq: number;
}

/** A deadline per key; scheduling a key again replaces its deadline. */
export class TimerQueue<K> {
  readonly #clock: Clock;
  readonly #fire: (key: K) => void;
  readonly #heap: Entry<K>[] = [];
  /** The live entry of each key; heap entries not found here are stale and skipped. */
  readonly #live = new Map<K, Entry<K>>();
  #seq = 0;
  #sleeping: { readonly until: number; readonly wake: AbortController } | undefined;

  /** `fire` runs synchronously from the loop; it should only enqueue work. */
  constructor(clock: Clock, fire: (key: K) => void) {
    this.#clock = clock;
    this.#fire = fire;
  }

  /** How many keys have a deadline. */
  get size(): number {
    return this.#live.size;
  }

  /** The deadline of `key`, if any. */
  deadlineOf(key: K): number | undefined {
    return this.#live.get(key)?.at;
  }

  /** Sets `key`'s deadline to `at` (epoch ms), replacing any earlier or later one. */
  schedule(key: K, at: number): void {
    const entry = { at, key, seq: this.#seq++ };
    this.#live.set(key, entry);
    this.#push(entry);
    if (this.#heap.length > 2 * this.#live.size + 1024) this.#compact();
    const sleeping = this.#sleeping;
    if (sleeping !== undefined && at < sleeping.until) sleeping.wake.abort();
  }

  /** Forgets `key`'s deadline. Idempotent. */
  cancel(key: K): void {
    this.#live.delete(key);
  }

  /** Fires due keys until `signal` aborts. Resolves once stopped. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const now = this.#clock.now().getTime();
      const top = this.#peek();
      if (top !== undefined && top.at <= now) {
        this.#pop();
        this.#live.delete(top.key);
        this.#fire(top.key);
        continue;
      }
      const until = top === undefined ? now + 3_600_000 : top.at;
      const wake = new AbortController();
      const onAbort = (): void => wake.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#sleeping = { until, wake };
      try {
        await this.#clock.sleep(Math.max(0, until - now), wake.signal);
      } catch (error: unknown) {
        if (!wake.signal.aborted) throw error;
      } finally {
        this.#sleeping = undefined;
        signal.removeEventListener("abort", onAbort);
      }
    }
  }

  /** Rebuilds the heap from live entries when replaced deadlines pile up. */
  #compact(): void {
    this.#heap.length = 0;
    for (const entry of this.#live.values()) this.#push(entry);
  }

  /** The earliest live entry, dropping stale ones on the way. */
  #peek(): Entry<K> | undefined {
    for (;;) {
      const top = this.#heap[0];
      if (top === undefined) return undefined;
      if (this.#live.get(top.key) === top) return top;
      this.#pop();
    }
  }

  #less(a: Entry<K>, b: Entry<K>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #push(entry: Entry<K>): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as Entry<K>;
      if (!this.#less(entry, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = last;
      let at = -1;
      const l = heap[left];
      if (l !== undefined && this.#less(l, smallest)) {
        smallest = l;
        at = left;
      }
      const r = heap[right];
      if (r !== undefined && this.#less(r, smallest)) {
        smallest = r;
        at = right;
      }
      if (at < 0) break;
      heap[i] = smallest;
      i = at;
    }
    heap[i] = last;
  }
}
