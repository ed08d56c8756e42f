import { type Clock, systemClock } from "../../util/index.ts";
import { Delaying, type DelayingQueue } from "./delaying-queue.ts";
import { newItemExponentialFailureRateLimiter, type RateLimiter } from "./rate-limiters.ts";

/** A delaying queue whose retries are spaced by a rate limiter: what a controller's workers use. */
export interface RateLimitingQueue<T> extends DelayingQueue<T> {
  /** Adds the item after the limiter's delay for it (its next backoff step). */
  addRateLimited(item: T): void;
  /** Resets the item's backoff; call it when the item was processed successfully. */
  forget(item: T): void;
  /** How many times the item was rate-limited since it was last forgotten. */
  numRequeues(item: T): number;
}

export interface RateLimitingQueueOptions<T> {
  /** @default systemClock */
  readonly clock?: Clock;
  /**
   * @default per-item exponential backoff from 5 ms to 1000 s (add the overall bucket with
   * `defaultControllerRateLimiter(clock)`)
   */
  readonly rateLimiter?: RateLimiter<T>;
}

class RateLimiting<T> extends Delaying<T> implements RateLimitingQueue<T> {
  readonly #limiter: RateLimiter<T>;

  constructor(clock: Clock, limiter: RateLimiter<T>) {
    super(clock);
    this.#limiter = limiter;
  }

  addRateLimited(item: T): void {
    this.addAfter(item, this.#limiter.when(item));
  }

  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }
}

/** A rate-limited, delaying, de-duplicating work queue (client-go's `RateLimitingInterface`). */
export function newRateLimitingQueue<T>(
  options: RateLimitingQueueOptions<T> = {},
): RateLimitingQueue<T> {
  return new RateLimiting<T>(
    options.clock ?? systemClock,
    options.rateLimiter ?? newItemExponentialFailureRateLimiter<T>(),
  );
}
