import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "./fake-clock.ts";

test("FakeClock.advance: wakes due sleepers in deadline order and moves now", async () => {
  const clock = new FakeClock(new Date("2024-01-01T00:00:00Z"));
  const woke: string[] = [];
  const sleep = (name: string, ms: number) =>
    clock.sleep(ms).then(() => woke.push(`${name}@${clock.now().getTime() % 100_000}`));
  const all = [sleep("late", 30), sleep("early", 10), sleep("never", 1000)];
  await clock.advance(50);
  assert.deepEqual(woke, ["early@10", "late@30"]);
  assert.deepEqual([clock.waiters, clock.now().toISOString()], [1, "2024-01-01T00:00:00.050Z"]);
  await clock.advance(950);
  await Promise.all(all);
  assert.equal(woke.length, 3);
});

test("FakeClock.advance: fires timers that woken code sets within the window", async () => {
  const clock = new FakeClock();
  const woke: number[] = [];
  const chain = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      await clock.sleep(10);
      woke.push(clock.now().getTime() % 1000);
    }
  };
  const done = chain();
  await clock.advance(25);
  assert.deepEqual(woke, [10, 20]);
  await clock.advance(5);
  await done;
  assert.deepEqual(woke, [10, 20, 30]);
});

test("FakeClock.sleep: rejects with the signal's reason on abort and stops waiting", async () => {
  const clock = new FakeClock();
  const controller = new AbortController();
  const sleeping = clock.sleep(100, controller.signal);
  const reason = new Error("stop");
  controller.abort(reason);
  await assert.rejects(sleeping, reason);
  assert.equal(clock.waiters, 0);
  await assert.rejects(clock.sleep(1, controller.signal), reason);
});
