import assert from "node:assert/strict";
import {
  type Revision,
  type Storage,
  StorageError,
  type StorageErrorReason,
  type StorageKey,
  type WatchEvent,
} from "./storage.ts";

/**
 * A validator for `assert.rejects` (also callable directly): the error is a StorageError with
 * `reason`, and with `key` and `revision` when those are given.
 */
export function expectStorageError(
  reason: StorageErrorReason,
  key?: StorageKey,
  revision?: Revision,
): (error: unknown) => true {
  return (error) => {
    assert.ok(error instanceof StorageError, `expected a StorageError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    if (key !== undefined) assert.equal(error.key, key, error.message);
    if (revision !== undefined) assert.equal(error.revision, revision, error.message);
    return true;
  };
}

/** A watch under test: reads with timeouts so a missing event fails instead of hanging. */
export interface Probe {
  /** The next event, or "done" once the iterator ends; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<WatchEvent | "done">;
  /** The next `n` events; fails if the watch ends first. */
  take(n: number): Promise<WatchEvent[]>;
  /** Asserts that no event arrives within `ms`. */
  idle(ms?: number): Promise<void>;
  /** Aborts the watch. */
  stop(): void;
}

export function openProbe(store: Storage, prefix: StorageKey, after: Revision): Probe {
  const controller = new AbortController();
  const iterator = store.watch(prefix, after, controller.signal)[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<WatchEvent>> | undefined;
  const pull = (): Promise<IteratorResult<WatchEvent>> => {
    if (pending === undefined) {
      pending = iterator.next();
      // Whoever awaits sees the rejection; this only keeps an abandoned one from going unhandled.
      pending.catch(() => undefined);
    }
    return pending;
  };

  const next = async (timeoutMs = 5000): Promise<WatchEvent | "done"> => {
    const result = await raceTimer(pull(), timeoutMs);
    if (result === "timeout") {
      assert.fail(`No watch event under "${prefix}" within ${timeoutMs} ms`);
    }
    pending = undefined;
    return result.done === true ? "done" : checkedText(result.value);
  };

  return {
    next,
    take: async (n) => {
      const events: WatchEvent[] = [];
      while (events.length < n) {
        const event = await next();
        if (event === "done") assert.fail(`Watch ended after ${events.length} of ${n} events`);
        events.push(event);
      }
      return events;
    },
    idle: async (ms = 50) => {
      const result = await raceTimer(pull(), ms);
      if (result !== "timeout") {
        assert.fail(`Unexpected watch result: ${JSON.stringify(result.value)}`);
      }
    },
    stop: () => controller.abort(),
  };
}

/**
 * A put event's `text`, when the backend gives one, is the value's JSON; the event is compared
 * without it, so that every backend's events compare alike.
 */
function checkedText(event: WatchEvent): WatchEvent {
  if (event.type !== "put" || event.text === undefined) return event;
  const { text, ...rest } = event;
  assert.deepEqual(JSON.parse(text), event.value, `the text of ${event.key}@${event.revision}`);
  return rest;
}

async function raceTimer<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
