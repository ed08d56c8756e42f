import { Fifo } from "../../util/index.ts";

/** What `get` hands out: the next item, or the news that the queue has shut down. */
export type GetResult<T> =
  | { readonly shutdown: false; readonly item: T }
  | { readonly shutdown: true; readonly item?: undefined };

/**
 * A work queue with client-go's semantics. Items are keys (strings, usually `namespace/name`),
 * compared with `===`.
 * - An item is queued at most once: adding it again before a worker takes it is a no-op (dedup).
 * - An item a worker is processing is never handed to a second worker; adding it meanwhile marks
 *   it dirty and it is queued again when the worker calls `done`.
 * - Items come out in the order they were (first) added.
 */
export interface WorkQueue<T> {
  /** Queues `item` unless it is already queued; ignored after shutdown. */
  add(item: T): void;
  /** How many items wait to be handed out (not counting those being processed). */
  len(): number;
  /**
   * The next item, waiting until there is one. After shutdown the items still queued are handed
   * out, then every call resolves `{ shutdown: true }`. Call `done(item)` when finished with it.
   */
  get(): Promise<GetResult<T>>;
  /** Marks `item` processed; if it was added meanwhile, it is queued again. */
  done(item: T): void;
  /** Stops accepting items and wakes idle `get` callers with `{ shutdown: true }`. Idempotent. */
  shutDown(): void;
  /** Shuts down, then resolves once every item being processed is `done`. */
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

/** The de-duplicating FIFO underneath every queue. */
export class Queue<T> implements WorkQueue<T> {
  readonly #queue = new Fifo<T>();
  /** Items that need processing: queued, or added again while processing. */
  readonly #dirty = new Set<T>();
  readonly #processing = new Set<T>();
  readonly #getters = new Fifo<(result: GetResult<T>) => void>();
  #drainers: (() => void)[] = [];
  #shuttingDown = false;

  add(item: T): void {
    if (this.#shuttingDown || this.#dirty.has(item)) return;
    this.#dirty.add(item);
    if (this.#processing.has(item)) return;
    this.#queue.push(item);
    this.#handOut();
  }

  len(): number {
    return this.#queue.length;
  }

  get(): Promise<GetResult<T>> {
    if (this.#queue.length > 0) return Promise.resolve(this.#take());
    if (this.#shuttingDown) return Promise.resolve({ shutdown: true });
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  done(item: T): void {
    this.#processing.delete(item);
    if (this.#dirty.has(item)) {
      this.#queue.push(item);
      this.#handOut();
    } else if (this.#processing.size === 0) {
      for (const resolve of this.#drainers.splice(0)) resolve();
    }
  }

  shutDown(): void {
    this.#shuttingDown = true;
    this.onShutDown();
    for (const resolve of this.#getters.drain()) resolve({ shutdown: true });
  }

  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainers.push(resolve));
  }

  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** A hook for queues built on this one: runs once shutdown begins. */
  protected onShutDown(): void {}

  #take(): GetResult<T> {
    const item = this.#queue.shift() as T;
    this.#processing.add(item);
    this.#dirty.delete(item);
    return { shutdown: false, item };
  }

  /** Gives queued items to waiting `get` callers, oldest first. */
  #handOut(): void {
    while (this.#getters.length > 0 && this.#queue.length > 0) {
      this.#getters.shift()?.(this.#take());
    }
  }
}

/** A de-duplicating work queue. */
export function newQueue<T>(): WorkQueue<T> {
  return new Queue<T>();
}
