import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock, settle } from "../../testing/index.ts";
import { newDeadlines } from "./deadlines.ts";
import { QueueSet, type QueueSetConfig } from "./queue-set.ts";
import { dealHand } from "./shuffle-shard.ts";

/** A queue set on a fake clock, recording the order requests get their seats in. */
function harness(config: Partial<QueueSetConfig> = {}) {
  const clock = new FakeClock();
  const stop = new AbortController();
  const set = new QueueSet(
    {
      seats: 1,
      queues: 8,
      handSize: 1,
      queueLengthLimit: 10,
      waitLimitMs: 1_000,
      ...config,
    },
    { deadlines: newDeadlines(clock, stop.signal), now: () => clock.now().getTime() },
  );
  const dispatched: string[] = [];
  const timedOut: string[] = [];
  const enqueue = (flowHash: number, name: string) =>
    set.enqueue(flowHash, {
      dispatched: () => dispatched.push(name),
      timedOut: () => timedOut.push(name),
    });
  return { clock, stop, set, dispatched, timedOut, enqueue };
}

// With 8 queues: hash 0 deals queues [0, 1], hash 18 deals [2, 3]: two flows with disjoint hands.
const flowA = 0;
const flowB = 18;

test("dealHand: hands are distinct queues, and the hashes used below deal disjoint hands", () => {
  assert.deepEqual(dealHand(flowA, 8, 2), [0, 1]);
  assert.deepEqual(dealHand(flowB, 8, 2), [2, 3]);
  for (let hash = 0; hash < 500; hash += 7) {
    const hand = dealHand(hash * 7919, 128, 6);
    assert.equal(new Set(hand).size, 6, `hand of ${hash} has distinct queues: ${hand}`);
    assert.ok(
      hand.every((q) => q >= 0 && q < 128),
      `hand of ${hash} stays in the deck`,
    );
  }
  assert.throws(() => dealHand(1, 4, 5), RangeError);
});

test("QueueSet: a flow with one request waiting is served before a flood that queued earlier", () => {
  const h = harness({ handSize: 1 });
  assert.equal(h.set.tryAcquire(), true);
  for (let i = 1; i <= 4; i++) h.enqueue(flowA, `a${i}`);
  h.enqueue(flowB, "b1");
  assert.equal(h.set.waiting, 5);
  for (let i = 0; i < 5; i++) h.set.release();
  // Round robin over non-empty queues: A's flood takes one turn per round, like B's one request.
  assert.deepEqual(h.dispatched, ["a1", "b1", "a2", "a3", "a4"]);
});

test("QueueSet: a flow spreads over its hand but still cannot take another flow's turns", () => {
  const h = harness({ handSize: 2 });
  assert.equal(h.set.tryAcquire(), true);
  for (let i = 1; i <= 4; i++) h.enqueue(flowA, `a${i}`);
  h.enqueue(flowB, "b1");
  for (let i = 0; i < 5; i++) h.set.release();
  // A joins the shorter of queues 0 and 1 each time; B's queue 2 gets the third turn.
  assert.deepEqual(h.dispatched, ["a1", "a2", "b1", "a3", "a4"]);
});

test("QueueSet: a newcomer never takes a seat while others wait", () => {
  const h = harness();
  assert.equal(h.set.tryAcquire(), true);
  h.enqueue(flowA, "a1");
  assert.equal(h.set.tryAcquire(), false, "the only seat is taken");
  h.set.release();
  assert.deepEqual(h.dispatched, ["a1"]);
  assert.equal(h.set.tryAcquire(), false, "a1 holds the seat now");
  h.set.release();
  assert.equal(h.set.tryAcquire(), true, "free and nobody waits");
});

test("QueueSet: a full queue rejects with queue-full, a level without queues with concurrency-limit", () => {
  const h = harness({ queueLengthLimit: 2 });
  assert.equal(h.set.tryAcquire(), true);
  assert.notEqual(typeof h.enqueue(flowA, "a1"), "string");
  assert.notEqual(typeof h.enqueue(flowA, "a2"), "string");
  assert.equal(h.enqueue(flowA, "a3"), "queue-full");
  assert.notEqual(typeof h.enqueue(flowB, "b1"), "string", "another flow's queue has room");
  assert.equal(h.set.waiting, 3);

  const reject = harness({ queues: 0 });
  assert.equal(reject.set.tryAcquire(), true);
  assert.equal(reject.enqueue(flowA, "a1"), "concurrency-limit");
});

test("QueueSet: a request that waits past the wait limit times out and leaves its queue", async () => {
  const h = harness({ waitLimitMs: 1_000 });
  assert.equal(h.set.tryAcquire(), true);
  h.enqueue(flowA, "a1");
  await h.clock.advance(999);
  assert.deepEqual(h.timedOut, []);
  h.enqueue(flowB, "b1");
  await h.clock.advance(1);
  assert.deepEqual(h.timedOut, ["a1"]);
  assert.equal(h.set.waiting, 1);
  h.set.release();
  assert.deepEqual(h.dispatched, ["b1"], "the timed-out request is not dispatched");
  await h.clock.advance(5_000);
  assert.deepEqual(h.timedOut, ["a1"], "a dispatched request no longer times out");
  h.stop.abort();
  await settle();
});

test("QueueSet: a cancelled request gives its place up once", () => {
  const h = harness();
  assert.equal(h.set.tryAcquire(), true);
  const a1 = h.enqueue(flowA, "a1");
  h.enqueue(flowA, "a2");
  assert.ok(typeof a1 !== "string", "queued");
  assert.equal(a1.cancel(), true);
  assert.equal(a1.cancel(), false, "cancelling twice does nothing");
  assert.equal(h.set.waiting, 1);
  h.set.release();
  assert.deepEqual(h.dispatched, ["a2"]);
});

test("Deadlines: callbacks run in deadline order once the clock passes them, cancelled ones never", async () => {
  const clock = new FakeClock();
  const stop = new AbortController();
  const deadlines = newDeadlines(clock, stop.signal);
  const fired: string[] = [];
  const start = clock.now().getTime();
  deadlines.add(start + 300, () => fired.push("300"));
  deadlines.add(start + 100, () => fired.push("100"));
  const cancelled = deadlines.add(start + 200, () => fired.push("200"));
  cancelled.cancel();
  await clock.advance(99);
  assert.deepEqual(fired, []);
  await clock.advance(250);
  assert.deepEqual(fired, ["100", "300"]);
  assert.equal(deadlines.size, 0);
  assert.equal(clock.waiters, 0, "no sleep is left pending once nothing is due");
  stop.abort();
});
