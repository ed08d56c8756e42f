/**
 * Events that happen while pods are being scheduled (upstream's in-flight pods and events): when an
 * attempt fails, the queue replays what happened since the pod was popped, so an event that could
 * have made it schedulable is not lost while it was out of the queue.
 */
import type { ClusterEvent } from "../framework/index.ts";

export interface RecordedEvent {
  readonly event: ClusterEvent;
  readonly oldObj: unknown;
  readonly newObj: unknown;
}

export class InFlight {
  /** uid → the sequence number of the first event it may see. */
  readonly #pods = new Map<string, number>();
  #events: RecordedEvent[] = [];
  /** The sequence number of `#events[0]`. */
  #base = 0;

  get size(): number {
    return this.#pods.size;
  }

  has(uid: string): boolean {
    return this.#pods.has(uid);
  }

  /** Marks the pod as being scheduled from now on. */
  start(uid: string): void {
    this.#pods.set(uid, this.#base + this.#events.length);
  }

  /** Records an event for every pod in flight; no-op when none is. */
  record(event: ClusterEvent, oldObj: unknown, newObj: unknown): boolean {
    if (this.#pods.size === 0) return false;
    this.#events.push({ event, oldObj, newObj });
    return true;
  }

  /** The events since the pod was popped. */
  eventsFor(uid: string): readonly RecordedEvent[] {
    const from = this.#pods.get(uid);
    if (from === undefined) return [];
    return this.#events.slice(Math.max(0, from - this.#base));
  }

  /** The pod's attempt is over: forget it and the events no pod needs any more. */
  done(uid: string): void {
    if (!this.#pods.delete(uid)) return;
    if (this.#pods.size === 0) {
      this.#base += this.#events.length;
      this.#events = [];
      return;
    }
    let oldest = Number.POSITIVE_INFINITY;
    for (const from of this.#pods.values()) if (from < oldest) oldest = from;
    const drop = oldest - this.#base;
    if (drop > 0) {
      this.#events = this.#events.slice(drop);
      this.#base = oldest;
    }
  }
}
