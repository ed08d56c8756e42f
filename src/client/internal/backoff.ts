import type { Clock, Random } from "../../util/index.ts";

export interface BackoffOptions {
  /** The first delay. @default 800 */
  readonly initialMs?: number;
  /** The delay stops growing here (before jitter). @default 30000 */
  readonly maxMs?: number;
  /** After this long without a backoff, start again from `initialMs`. @default 120000 */
  readonly resetAfterMs?: number;
  /** Each delay is this many times the previous. @default 2 */
  readonly factor?: number;
  /** Each delay is stretched by a random fraction up to this much of itself. @default 1 */
  readonly jitter?: number;
}

/**
 * Capped exponential backoff with jitter that resets after a quiet period: client-go's
 * reflector backoff manager (800 ms doubling to 30 s, +0–100 % jitter, reset after 2 min).
 */
export class Backoff {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #resetAfterMs: number;
  readonly #factor: number;
  readonly #jitter: number;
  #currentMs: number;
  #lastAt = Number.NEGATIVE_INFINITY;

  constructor(clock: Clock, random: Random, options: BackoffOptions = {}) {
    this.#clock = clock;
    this.#random = random;
    this.#initialMs = options.initialMs ?? 800;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#resetAfterMs = options.resetAfterMs ?? 120_000;
    this.#factor = options.factor ?? 2;
    this.#jitter = options.jitter ?? 1;
    this.#currentMs = this.#initialMs;
  }

  /** The next delay in ms; the one after it will be longer, up to the cap. */
  next(): number {
    const now = this.#clock.now().getTime();
    if (now - this.#lastAt > this.#resetAfterMs) this.#currentMs = this.#initialMs;
    this.#lastAt = now;
    const base = this.#currentMs;
    this.#currentMs = Math.min(base * this.#factor, this.#maxMs);
    return base + this.#random.float() * this.#jitter * base;
  }

  /** Sleeps for the next delay; resolves early (without throwing) when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    try {
      await this.#clock.sleep(this.next(), signal);
    } catch (error: unknown) {
      if (!signal.aborted) throw error;
    }
  }
}
