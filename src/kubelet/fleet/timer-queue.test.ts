import assert from "node:assert/strict";
import test from "node:test";
import { FakeClock, settle } from "../../testing/fake-clock.ts";
import { TimerQueue } from "./timer-queue.ts";

async function withQueue(
  body: (queue: TimerQueue<string>, clock: FakeClock, fired: string[]) => Promise<void>,
): Promise<void> {
  const clock = new FakeClock(new Date(0));
  const fired: string[] = [];
  const queue = new TimerQueue<string>(clock, (key) =>
    fired.push(`${key}@${clock.now().getTime()}`),
  );
  const stop = new AbortController();
  const running = queue.run(stop.signal);
  try {
    await body(queue, clock, fired);
  } finally {
    stop.abort();
    await running;
  }
}

test("TimerQueue.run: fires keys in deadline order at their deadlines", async () => {
  await withQueue(async (queue, clock, fired) => {
    queue.schedule("b", 200);
    queue.schedule("a", 100);
    queue.schedule("c", 300);
    await settle();
    await clock.advance(250);
    assert.deepEqual(fired, ["a@100", "b@200"]);
  });
});

test("TimerQueue.schedule: an earlier deadline wakes the sleeping loop", async () => {
  await withQueue(async (queue, clock, fired) => {
    queue.schedule("late", 1000);
    await settle();
    queue.schedule("early", 10);
    await settle();
    await clock.advance(10);
    assert.deepEqual(fired, ["early@10"]);
  });
});

test("TimerQueue.schedule: rescheduling replaces the deadline and cancel forgets it", async () => {
  await withQueue(async (queue, clock, fired) => {
    queue.schedule("k", 100);
    queue.schedule("k", 500);
    queue.schedule("gone", 50);
    queue.cancel("gone");
    await settle();
    await clock.advance(600);
    assert.deepEqual({ fired, size: queue.size }, { fired: ["k@500"], size: 0 });
  });
});

test("TimerQueue.schedule: many replaced deadlines keep the heap compact and correct", async () => {
  await withQueue(async (queue, clock, fired) => {
    for (let i = 0; i < 5000; i++) queue.schedule(`k${i % 3}`, 1000 + i);
    await settle();
    await clock.advance(10_000);
    assert.deepEqual(fired, ["k2@5997", "k0@5998", "k1@5999"]);
  });
});
