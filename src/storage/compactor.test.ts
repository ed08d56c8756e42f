import assert from "node:assert/strict";
import { test } from "node:test";
import { type Clock, discardLogger } from "../util/index.ts";
import { runCompactor } from "./compactor.ts";
import { newMemoryStorage } from "./memory/memory-storage.ts";
import type { Storage } from "./storage.ts";

/** A clock whose sleeps end only when the test calls `tick`, which waits for the next sleep. */
function manualClock(): { clock: Clock; tick: () => Promise<void>; sleeps: number[] } {
  let wake: (() => void) | undefined;
  let onSleep: (() => void) | undefined;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => new Date(0),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        sleeps.push(ms);
        wake = resolve;
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        onSleep?.();
      }),
  };
  const tick = (): Promise<void> =>
    new Promise<void>((resolve) => {
      onSleep = resolve;
      const w = wake;
      wake = undefined;
      w?.();
    });
  return { clock, tick, sleeps };
}

async function write(store: Storage, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const key = `/registry/x/${i % 3}`;
    const existing = await store.get(key);
    if (existing === undefined) await store.create(key, { i });
    else await store.update(key, { i }, existing.revision);
  }
}

test("runCompactor: keeps one interval and at least retainRevisions of history", async () => {
  await using store = newMemoryStorage();
  const { clock, tick, sleeps } = manualClock();
  const controller = new AbortController();
  const started = new Promise<void>((resolve) => setImmediate(resolve));
  const done = runCompactor(
    { storage: store, clock, logger: discardLogger },
    { intervalMs: 1000, retainRevisions: 5 },
    controller.signal,
  );
  await started;
  const steps = [
    { writes: 20, want: 0 }, // nothing was seen one interval ago
    { writes: 10, want: 20 }, // seen last tick: 20; latest - 5 = 25
    { writes: 0, want: 25 }, // seen last tick: 30; latest - 5 = 25
    { writes: 2, want: 27 },
  ];
  for (const step of steps) {
    await write(store, step.writes);
    await tick();
    assert.equal(await store.compactedRevision(), step.want);
  }
  controller.abort();
  await done;
  assert.deepEqual(sleeps, [1000, 1000, 1000, 1000, 1000]);
});
