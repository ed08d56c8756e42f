/**
 * The pod reconciler's work queue: client-go's de-duplicating, rate-limited queue with two
 * lanes. Keys whose Workload has just been decided (admitted, evicted, deleted) go in the front
 * lane and are handed out before the back lane's keys, which are mostly newly created pods
 * waiting for their Workload. Without it, an admitted Workload's pod waits for its gate to come
 * off behind every creation queued before it: thousands while a burst of pods arrives.
 *
 * Per key it keeps the work queue's guarantees: a key is queued at most once (adding it to the
 * front lane while it waits in the back lane moves it forward), a key being processed is never
 * handed to a second worker (added meanwhile, it is queued again in its lane on `done`), and
 * within a lane keys come out in the order they were first added. Retries keep the lane of the
 * attempt that failed.
 */
import {
  type GetResult,
  newItemExponentialFailureRateLimiter,
  type RateLimiter,
} from "../../client/index.ts";
import { type Clock, Fifo } from "../../util/index.ts";

/** Which lane a key goes in: `front` keys are handed out first. */
export type Lane = "front" | "back";

export interface ReconcileQueue {
  /**
   * Queues `key` in `lane` (back by default). A key already queued stays queued once: in the
   * front lane if either add asked for it. Ignored after shutdown.
   */
  add(key: string, lane?: Lane): void;
  /** Queues `key` again, in `lane`, after its next backoff step (5 ms doubling to 1000 s). */
  addRateLimited(key: string, lane: Lane): void;
  /** Resets `key`'s backoff; call it when the key was reconciled. */
  forget(key: string): void;
  /**
   * The next key, front lane first, waiting until there is one, with the lane it came from.
   * After shutdown the queued keys are still handed out, then `{ shutdown: true }`.
   */
  get(): Promise<GetResult<{ readonly key: string; readonly lane: Lane }>>;
  /** Marks `key` processed; if it was added meanwhile, it is queued again. */
  done(key: string): void;
  /** Keys waiting to be handed out, per lane (not counting those being processed). */
  len(): { readonly front: number; readonly back: number };
  /** Stops accepting keys, drops pending retries and wakes idle `get` callers. Idempotent. */
  shutDown(): void;
}

interface Dirty {
  lane: Lane;
  /** Which of the key's lane entries is the live one: older entries are skipped when taken. */
  seq: number;
}

type Entry = { readonly key: string; readonly seq: number };
type Taken = GetResult<{ readonly key: string; readonly lane: Lane }>;

export function newReconcileQueue(clock: Clock, limiter?: RateLimiter<string>): ReconcileQueue {
  const rateLimiter = limiter ?? newItemExponentialFailureRateLimiter<string>();
  const lanes: Record<Lane, Fifo<Entry>> = { front: new Fifo(), back: new Fifo() };
  const queued = { front: 0, back: 0 };
  /** Keys that need processing: queued, or added again while being processed. */
  const dirty = new Map<string, Dirty>();
  const processing = new Set<string>();
  const getters = new Fifo<(result: Taken) => void>();
  /** Retries waiting for their time: key → when (ms) it is added again. */
  const waiting = new Map<string, number>();
  const stop = new AbortController();
  let seq = 0;
  let shuttingDown = false;

  const enqueue = (key: string, entry: Dirty): void => {
    entry.seq = ++seq;
    lanes[entry.lane].push({ key, seq: entry.seq });
    queued[entry.lane] += 1;
  };

  const take = (): Taken | undefined => {
    for (const lane of ["front", "back"] as const) {
      const fifo = lanes[lane];
      for (let next = fifo.shift(); next !== undefined; next = fifo.shift()) {
        const entry = dirty.get(next.key);
        // Moved to the front lane (or queued again) since: that later entry is the live one.
        if (entry === undefined || entry.seq !== next.seq) continue;
        queued[lane] -= 1;
        dirty.delete(next.key);
        processing.add(next.key);
        return { shutdown: false, item: { key: next.key, lane } };
      }
    }
    return undefined;
  };

  const handOut = (): void => {
    while (getters.length > 0) {
      const taken = take();
      if (taken === undefined) return;
      getters.shift()?.(taken);
    }
  };

  const add = (key: string, lane: Lane = "back"): void => {
    if (shuttingDown) return;
    const known = dirty.get(key);
    if (known !== undefined) {
      if (lane === "back" || known.lane === "front") return;
      // Waiting in the back lane (or to be queued again once processed): move it forward.
      if (!processing.has(key)) queued.back -= 1;
      known.lane = "front";
      if (!processing.has(key)) {
        enqueue(key, known);
        handOut();
      }
      return;
    }
    const entry: Dirty = { lane, seq: 0 };
    dirty.set(key, entry);
    if (processing.has(key)) return;
    enqueue(key, entry);
    handOut();
  };

  return {
    add,
    addRateLimited(key, lane) {
      if (shuttingDown) return;
      const ms = rateLimiter.when(key);
      if (ms <= 0) {
        add(key, lane);
        return;
      }
      const readyAt = clock.now().getTime() + ms;
      const known = waiting.get(key);
      if (known !== undefined && known <= readyAt) return;
      waiting.set(key, readyAt);
      clock.sleep(ms, stop.signal).then(
        () => {
          // A later retry with an earlier time replaced this one; its timer adds the key.
          if (waiting.get(key) !== readyAt) return;
          waiting.delete(key);
          add(key, lane);
        },
        (error: unknown) => {
          if (!stop.signal.aborted) throw error;
        },
      );
    },
    forget(key) {
      rateLimiter.forget(key);
    },
    get() {
      const taken = take();
      if (taken !== undefined) return Promise.resolve(taken);
      if (shuttingDown) return Promise.resolve({ shutdown: true });
      return new Promise((resolve) => getters.push(resolve));
    },
    done(key) {
      processing.delete(key);
      const entry = dirty.get(key);
      if (entry === undefined) return;
      enqueue(key, entry);
      handOut();
    },
    len() {
      return { front: queued.front, back: queued.back };
    },
    shutDown() {
      if (shuttingDown) return;
      shuttingDown = true;
      waiting.clear();
      stop.abort();
      for (const resolve of getters.drain()) resolve({ shutdown: true });
    },
  };
}
