import type { Clock } from "../../util/index.ts";
import { Queue, type WorkQueue } from "./queue.ts";

/** A work queue that can also add items later. */
export interface DelayingQueue<T> extends WorkQueue<T> {
  /**
   * Adds `item` once `ms` have passed on the clock (at once when `ms` ≤ 0). An item already
   * waiting keeps the earlier of its two ready times. Ignored after shutdown, which also drops
   * every waiting item.
   */
  addAfter(item: T, ms: number): void;
}

/** client-go's delaying queue, with timers from an injected Clock. */
export class Delaying<T> extends Queue<T> implements DelayingQueue<T> {
  readonly #clock: Clock;
  /** item → the time (ms) it becomes ready */
  readonly #waiting = new Map<T, number>();
  readonly #stop = new AbortController();

  constructor(clock: Clock) {
    super();
    this.#clock = clock;
  }

  addAfter(item: T, ms: number): void {
    if (this.shuttingDown()) return;
    if (ms <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.#clock.now().getTime() + ms;
    const known = this.#waiting.get(item);
    if (known !== undefined && known <= readyAt) return;
    this.#waiting.set(item, readyAt);
    this.#clock.sleep(ms, this.#stop.signal).then(
      () => {
        // A later addAfter with an earlier time replaced this one; that timer adds the item.
        if (this.#waiting.get(item) !== readyAt) return;
        this.#waiting.delete(item);
        this.add(item);
      },
      (error: unknown) => {
        if (!this.#stop.signal.aborted) throw error;
      },
    );
  }

  protected override onShutDown(): void {
    this.#waiting.clear();
    this.#stop.abort();
  }
}

/** A de-duplicating work queue with `addAfter`. */
export function newDelayingQueue<T>(clock: Clock): DelayingQueue<T> {
  return new Delaying<T>(clock);
}
