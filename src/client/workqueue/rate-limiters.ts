import type { Clock } from "../../util/index.ts";

/** Decides how long an item waits before it is retried (client-go's `RateLimiter`). */
export interface RateLimiter<T> {
  /** The delay (ms) before the item's next retry; counts one more failure for it. */
  when(item: T): number;
  /** Forgets the item's failures (call it once the item succeeded). */
  forget(item: T): void;
  /** How many failures are counted for the item. */
  numRequeues(item: T): number;
}

/**
 * Per-item exponential backoff: `baseMs · 2^failures`, capped at `maxMs`. client-go's
 * `ItemExponentialFailureRateLimiter`; controllers use 5 ms and 1000 s.
 */
export function newItemExponentialFailureRateLimiter<T>(
  baseMs = 5,
  maxMs = 1_000_000,
): RateLimiter<T> {
  const failures = new Map<T, number>();
  return {
    when(item) {
      const exp = failures.get(item) ?? 0;
      failures.set(item, exp + 1);
      return Math.min(baseMs * 2 ** exp, maxMs);
    },
    forget(item) {
      failures.delete(item);
    },
    numRequeues(item) {
      return failures.get(item) ?? 0;
    },
  };
}

/**
 * An overall token bucket: `burst` retries at once, then `qps` per second, whatever the item
 * (client-go's `BucketRateLimiter` over x/time/rate). It counts no per-item failures.
 */
export function newBucketRateLimiter<T>(clock: Clock, qps = 10, burst = 100): RateLimiter<T> {
  let tokens = burst;
  let last = clock.now().getTime();
  return {
    when() {
      const now = clock.now().getTime();
      if (now > last) {
        tokens = Math.min(burst, tokens + ((now - last) / 1000) * qps);
        last = now;
      }
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens / qps) * 1000;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}

/** The longest delay of several limiters; failures are the most any of them counts. */
export function newMaxOfRateLimiter<T>(...limiters: readonly RateLimiter<T>[]): RateLimiter<T> {
  return {
    when: (item) => Math.max(0, ...limiters.map((limiter) => limiter.when(item))),
    forget(item) {
      for (const limiter of limiters) limiter.forget(item);
    },
    numRequeues: (item) => Math.max(0, ...limiters.map((limiter) => limiter.numRequeues(item))),
  };
}

/**
 * What controllers use unless they say otherwise: per-item backoff from 5 ms to 1000 s, and no
 * more than 10 retries a second overall after a burst of 100 (client-go's
 * `DefaultControllerRateLimiter`).
 */
export function defaultControllerRateLimiter<T>(clock: Clock): RateLimiter<T> {
  return newMaxOfRateLimiter<T>(
    newItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    newBucketRateLimiter<T>(clock, 10, 100),
  );
}
