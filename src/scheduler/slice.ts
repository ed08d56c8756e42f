/**
 * When the scheduling loop lets the rest of its thread run. Upstream's loop has its own goroutine;
 * here the scheduler shares a thread with informers, binding requests and possibly the API server
 * itself, so it runs cycles back to back for a time slice, then yields to the event loop. Yielding
 * after every pod would give it one cycle per event-loop turn, however long the turn.
 */
import type { Clock } from "../util/index.ts";

/** Cycles run between two yields at most, whatever the clock says (a fake clock never moves). */
export const maxCyclesPerSlice = 256;

/** The default slice: long enough for dozens of cycles on 5,000 nodes, short for I/O latency. */
export const defaultSchedulingSliceMs = 20;

export class SchedulingSlice {
  readonly #clock: Clock;
  readonly #sliceMs: number;
  #start: number;
  #cycles = 0;

  constructor(clock: Clock, sliceMs: number = defaultSchedulingSliceMs) {
    if (!(sliceMs >= 0)) {
      throw new RangeError(`Cannot use a scheduling slice of ${sliceMs} ms: give 0 or more`);
    }
    this.#clock = clock;
    this.#sliceMs = sliceMs;
    this.#start = clock.now().getTime();
  }

  /**
   * Counts one finished cycle; true when the slice is used up (its time, or
   * `maxCyclesPerSlice` cycles), and the caller should yield and then call `restart`.
   */
  cycleDone(): boolean {
    this.#cycles++;
    return (
      this.#cycles >= maxCyclesPerSlice ||
      this.#clock.now().getTime() - this.#start >= this.#sliceMs
    );
  }

  /** Starts a new slice (after yielding). */
  restart(): void {
    this.#start = this.#clock.now().getTime();
    this.#cycles = 0;
  }
}
