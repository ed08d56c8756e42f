/**
 * The admission cycle's writes, made in the background so that a cycle never waits on the API
 * server (Kueue's scheduler likewise assumes an admission in its cache and applies it from a
 * goroutine). Writes are keyed by the object they change: one write per key is queued or in
 * flight at a time, and the cycle leaves a busy key alone until its write settles. Urgent
 * writes (quota reservations, evictions) go before the rest (pending messages, queue statuses),
 * which never take more than their share of the writers.
 */
import { Fifo } from "../../util/index.ts";

export type WritePriority = "urgent" | "background";

export interface WriteQueueOptions {
  /** Writes in flight at once. @default 32 */
  readonly concurrency?: number;
  /** Of those, background writes in flight at once. @default half of `concurrency` */
  readonly backgroundConcurrency?: number;
}

export interface WriteQueue {
  /**
   * Queues `write` for `key` unless a write for that key is queued or in flight already.
   * Returns whether it was queued. `write` must not throw: it settles its own failures.
   */
  enqueue(key: string, priority: WritePriority, write: () => Promise<void>): boolean;
  /** Whether a write for `key` is queued or in flight. */
  busy(key: string): boolean;
  /** Whether a write for `key` is in flight (started, not settled). */
  running(key: string): boolean;
  /**
   * Drops the queued, not yet started background write for `key`; returns whether there was
   * one. Urgent writes are never dropped.
   */
  cancel(key: string): boolean;
  /** Resolves once no write is queued or in flight. */
  flush(): Promise<void>;
}

interface Task {
  readonly key: string;
  readonly priority: WritePriority;
  readonly write: () => Promise<void>;
  started: boolean;
  cancelled: boolean;
}

export function newWriteQueue(options: WriteQueueOptions = {}): WriteQueue {
  const concurrency = Math.max(1, options.concurrency ?? 32);
  const backgroundConcurrency = Math.max(
    1,
    Math.min(concurrency, options.backgroundConcurrency ?? Math.ceil(concurrency / 2)),
  );
  const urgent = new Fifo<Task>();
  const background = new Fifo<Task>();
  /** The queued or running task of each key. */
  const keys = new Map<string, Task>();
  let running = 0;
  let runningBackground = 0;
  let idle: (() => void)[] = [];

  const settle = (task: Task): void => {
    running--;
    if (task.priority === "background") runningBackground--;
    if (keys.get(task.key) === task) keys.delete(task.key);
    pump();
    if (keys.size === 0) {
      const waiting = idle;
      idle = [];
      for (const resolve of waiting) resolve();
    }
  };

  /** The next task of `fifo` that was not cancelled. */
  const next = (fifo: Fifo<Task>): Task | undefined => {
    for (let task = fifo.shift(); task !== undefined; task = fifo.shift()) {
      if (!task.cancelled) return task;
    }
    return undefined;
  };

  const pump = (): void => {
    while (running < concurrency) {
      let task = next(urgent);
      if (task === undefined && runningBackground < backgroundConcurrency) {
        task = next(background);
      }
      if (task === undefined) return;
      task.started = true;
      running++;
      if (task.priority === "background") runningBackground++;
      const started = task;
      void started
        .write()
        .catch(() => undefined)
        .finally(() => settle(started));
    }
  };

  return {
    enqueue(key, priority, write) {
      if (keys.has(key)) return false;
      const task: Task = { key, priority, write, started: false, cancelled: false };
      keys.set(key, task);
      (priority === "urgent" ? urgent : background).push(task);
      pump();
      return true;
    },
    busy: (key) => keys.has(key),
    running: (key) => keys.get(key)?.started === true,
    cancel(key) {
      const task = keys.get(key);
      if (task === undefined || task.started || task.priority === "urgent") return false;
      task.cancelled = true;
      keys.delete(key);
      if (keys.size === 0) {
        const waiting = idle;
        idle = [];
        for (const resolve of waiting) resolve();
      }
      return true;
    },
    flush() {
      if (keys.size === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
