import { Fifo } from "../../util/index.ts";
import type { Deadline, Deadlines } from "./deadlines.ts";
import { dealHand } from "./shuffle-shard.ts";

/** Why a priority level turned a request away: upstream's `reason` label values. */
export type RejectReason = "queue-full" | "concurrency-limit" | "time-out" | "cancelled";

/** One priority level's seats and queues (upstream's `QueuingConfig` plus its concurrency limit). */
export interface QueueSetConfig {
  /** Requests served at once. */
  readonly seats: number;
  /** How many queues; 0 means no queuing: a request that finds every seat taken is rejected. */
  readonly queues: number;
  /** How many of the queues a flow may use (its hand). Ignored without queues. */
  readonly handSize: number;
  /** Requests one queue holds; more are rejected with `queue-full`. */
  readonly queueLengthLimit: number;
  /** How long a request may wait in a queue before it is rejected with `time-out`. */
  readonly waitLimitMs: number;
}

/** What a queued request is told once the queue set decides. */
export interface Waiter {
  /** A seat is now the request's; it gives it back with `release()`. */
  dispatched(): void;
  /** The request waited `waitLimitMs` without getting a seat. */
  timedOut(): void;
}

/** A request waiting in a queue. */
export interface QueuedRequest {
  /**
   * Takes the request out of its queue (its client went away). Returns false when it is no
   * longer waiting (dispatched or timed out already), true otherwise.
   */
  cancel(): boolean;
}

/**
 * Fair queuing for one priority level: a fixed number of seats; requests that find none free
 * wait in queues. A flow (one user, say) hashes to a hand of `handSize` queues and joins the
 * shortest of them; a freed seat goes to the head of the next non-empty queue in round-robin
 * order, so a flow with many requests waiting gets one turn per round like a flow with one.
 * Time comes from `deadlines`, so a fake clock drives it in tests.
 */
export class QueueSet {
  readonly config: QueueSetConfig;
  readonly #deadlines: Deadlines;
  readonly #now: () => number;
  readonly #queues: Queue[];
  /** Non-empty queues in the order they get their next turn. */
  readonly #ring = new Fifo<Queue>();
  #executing = 0;
  #waiting = 0;

  constructor(config: QueueSetConfig, deps: { deadlines: Deadlines; now: () => number }) {
    if (!Number.isSafeInteger(config.seats) || config.seats < 1) {
      throw new RangeError(`A priority level needs at least one seat, not ${config.seats}`);
    }
    if (config.queues > 0) dealHand(0, config.queues, config.handSize);
    this.config = config;
    this.#deadlines = deps.deadlines;
    this.#now = deps.now;
    this.#queues = Array.from({ length: config.queues }, () => new Queue());
  }

  /** Requests holding a seat. */
  get executing(): number {
    return this.#executing;
  }

  /** Requests waiting in the queues. */
  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Takes a seat at once when one is free and nobody is waiting (a newcomer never overtakes a
   * queued request). Returns false otherwise; the caller then queues or rejects.
   */
  tryAcquire(): boolean {
    if (this.#executing >= this.config.seats || this.#waiting > 0) return false;
    this.#executing++;
    return true;
  }

  /**
   * Queues a request of the flow whose hash is `flowHash`: in the shortest queue of its hand.
   * Returns `concurrency-limit` when the level does not queue, `queue-full` when that queue is
   * at its length limit.
   */
  enqueue(flowHash: number, waiter: Waiter): QueuedRequest | "queue-full" | "concurrency-limit" {
    if (this.#queues.length === 0) return "concurrency-limit";
    let queue: Queue | undefined;
    for (const index of dealHand(flowHash, this.#queues.length, this.config.handSize)) {
      const candidate = this.#queues[index] as Queue;
      if (queue === undefined || candidate.live < queue.live) queue = candidate;
    }
    if (queue === undefined || queue.live >= this.config.queueLengthLimit) return "queue-full";
    const request = new Waiting(queue, waiter, (r) => this.#remove(r));
    request.deadline = this.#deadlines.add(this.#now() + this.config.waitLimitMs, () =>
      this.#expire(request),
    );
    queue.items.push(request);
    queue.live++;
    this.#waiting++;
    if (!queue.inRing) {
      queue.inRing = true;
      this.#ring.push(queue);
    }
    // Seats may be free while others wait only within one dispatch; serve at once if so.
    this.#dispatch();
    return request;
  }

  /** Gives a seat back and hands it to the next waiting request, if any. */
  release(): void {
    this.#executing--;
    this.#dispatch();
  }

  /** Removes a waiting request (cancelled or timed out); false if it no longer waits. */
  #remove(request: Waiting): boolean {
    if (!request.waiting) return false;
    request.waiting = false;
    request.deadline?.cancel();
    request.queue.live--;
    this.#waiting--;
    return true;
  }

  #expire(request: Waiting): void {
    if (this.#remove(request)) request.waiter.timedOut();
  }

  #dispatch(): void {
    while (this.#executing < this.config.seats && this.#waiting > 0) {
      const queue = this.#ring.shift();
      if (queue === undefined) return;
      let next = queue.items.shift();
      while (next !== undefined && !next.waiting) next = queue.items.shift();
      if (next === undefined) {
        queue.inRing = false;
        continue;
      }
      next.waiting = false;
      next.deadline?.cancel();
      queue.live--;
      this.#waiting--;
      this.#executing++;
      // Back to the end of the ring: the queue's next request waits for its next turn.
      if (queue.live > 0) this.#ring.push(queue);
      else queue.inRing = false;
      next.waiter.dispatched();
    }
  }
}

/** One queue: its requests in arrival order (taken-out ones are skipped when met). */
class Queue {
  readonly items = new Fifo<Waiting>();
  /** Requests in `items` still waiting. */
  live = 0;
  /** Whether the queue is in the round-robin ring. */
  inRing = false;
}

/** A request in a queue. */
class Waiting implements QueuedRequest {
  readonly queue: Queue;
  readonly waiter: Waiter;
  readonly #remove: (request: Waiting) => boolean;
  waiting = true;
  deadline: Deadline | undefined;

  constructor(queue: Queue, waiter: Waiter, remove: (request: Waiting) => boolean) {
    this.queue = queue;
    this.waiter = waiter;
    this.#remove = remove;
  }

  cancel(): boolean {
    return this.#remove(this);
  }
}
