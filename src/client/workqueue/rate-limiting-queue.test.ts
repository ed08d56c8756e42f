import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../../testing/fake-clock.ts";
import { newDelayingQueue } from "./delaying-queue.ts";
import {
  defaultControllerRateLimiter,
  newBucketRateLimiter,
  newItemExponentialFailureRateLimiter,
  newMaxOfRateLimiter,
} from "./rate-limiters.ts";
import { newRateLimitingQueue } from "./rate-limiting-queue.ts";

test("ItemExponentialFailureRateLimiter.when: 5 ms doubling per failure, capped at 1000 s", () => {
  const limiter = newItemExponentialFailureRateLimiter<string>();
  const delays = Array.from({ length: 20 }, () => limiter.when("a"));
  assert.deepEqual(
    delays,
    [
      5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10_240, 20_480, 40_960, 81_920, 163_840,
      327_680, 655_360, 1_000_000, 1_000_000,
    ],
  );
  assert.equal(limiter.numRequeues("a"), 20);
});

test("ItemExponentialFailureRateLimiter: items back off independently and forget resets one", () => {
  const limiter = newItemExponentialFailureRateLimiter<string>(1, 100);
  limiter.when("a");
  limiter.when("a");
  assert.deepEqual([limiter.when("b"), limiter.when("a")], [1, 4]);
  limiter.forget("a");
  assert.deepEqual(
    [limiter.numRequeues("a"), limiter.numRequeues("b"), limiter.when("a")],
    [0, 1, 1],
  );
});

test("BucketRateLimiter.when: a burst goes at once, then one per 1/qps, refilling with time", async () => {
  const clock = new FakeClock();
  const limiter = newBucketRateLimiter<string>(clock, 2, 3);
  const first = ["a", "b", "c", "d", "e"].map((item) => limiter.when(item));
  assert.deepEqual(first, [0, 0, 0, 500, 1000]);
  await clock.advance(10_000);
  assert.deepEqual([limiter.when("f"), limiter.numRequeues("f")], [0, 0]);
});

test("MaxOfRateLimiter: the longest delay wins and forget reaches every limiter", () => {
  const slow = newItemExponentialFailureRateLimiter<string>(100, 1000);
  const fast = newItemExponentialFailureRateLimiter<string>(1, 1000);
  const limiter = newMaxOfRateLimiter(fast, slow);
  assert.deepEqual([limiter.when("a"), limiter.when("a"), limiter.numRequeues("a")], [100, 200, 2]);
  limiter.forget("a");
  assert.deepEqual([slow.numRequeues("a"), fast.numRequeues("a")], [0, 0]);
});

test("defaultControllerRateLimiter: per-item backoff until the overall bucket runs dry", () => {
  const limiter = defaultControllerRateLimiter<string>(new FakeClock());
  const delays = Array.from({ length: 101 }, (_, i) => limiter.when(`item-${i}`));
  assert.deepEqual([delays[0], delays[99], delays[100]], [5, 5, 100]);
});

test("DelayingQueue.addAfter: the item appears once its time has come", async () => {
  const clock = new FakeClock();
  const queue = newDelayingQueue<string>(clock);
  queue.addAfter("a", 100);
  queue.addAfter("b", 0);
  assert.equal(queue.len(), 1, "a zero delay adds at once");
  await clock.advance(99);
  assert.equal(queue.len(), 1);
  await clock.advance(1);
  assert.equal(queue.len(), 2);
  assert.deepEqual([(await queue.get()).item, (await queue.get()).item], ["b", "a"]);
});

test("DelayingQueue.addAfter: a waiting item keeps the earlier ready time", async () => {
  const clock = new FakeClock();
  const queue = newDelayingQueue<string>(clock);
  queue.addAfter("a", 100);
  queue.addAfter("a", 50);
  queue.addAfter("a", 200);
  await clock.advance(50);
  assert.equal(queue.len(), 1);
  await queue.get();
  queue.done("a");
  await clock.advance(200);
  assert.equal(queue.len(), 0, "the superseded timers add nothing");
});

test("DelayingQueue.shutDown: drops waiting items and cancels their timers", async () => {
  const clock = new FakeClock();
  const queue = newDelayingQueue<string>(clock);
  queue.addAfter("a", 100);
  assert.equal(clock.waiters, 1);
  queue.shutDown();
  await clock.advance(100);
  queue.addAfter("b", 1);
  assert.deepEqual([queue.len(), clock.waiters, await queue.get()], [0, 0, { shutdown: true }]);
});

test("RateLimitingQueue.addRateLimited: retries follow the backoff sequence until forget", async () => {
  const clock = new FakeClock();
  const queue = newRateLimitingQueue<string>({ clock });
  const readyAfter: number[] = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    queue.addRateLimited("a");
    let waited = 0;
    while (queue.len() === 0) {
      await clock.advance(1);
      waited++;
    }
    readyAfter.push(waited);
    const got = await queue.get();
    assert.equal(got.item, "a");
    queue.done("a");
  }
  assert.deepEqual(readyAfter, [5, 10, 20, 40]);
  assert.equal(queue.numRequeues("a"), 4);
  queue.forget("a");
  assert.equal(queue.numRequeues("a"), 0);
  queue.addRateLimited("a");
  await clock.advance(5);
  assert.equal(queue.len(), 1, "after forget the backoff starts over");
  queue.shutDown();
});
