import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../../testing/fake-clock.ts";
import { type Lane, newReconcileQueue, type ReconcileQueue } from "./reconcile-queue.ts";

/** Takes the next key without waiting (the queue must have one) and marks it done. */
async function next(queue: ReconcileQueue): Promise<string> {
  const result = await queue.get();
  assert.equal(result.shutdown, false, "the queue has a key");
  const key = result.item?.key ?? "";
  queue.done(key);
  return key;
}

async function drain(queue: ReconcileQueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.len().front + queue.len().back > 0) keys.push(await next(queue));
  return keys;
}

test("front-lane keys are handed out before every back-lane key, each lane in order", async () => {
  const queue = newReconcileQueue(new FakeClock());
  for (const key of ["new-1", "new-2", "new-3"]) queue.add(key);
  queue.add("admitted-1", "front");
  queue.add("new-4", "back");
  queue.add("admitted-2", "front");
  assert.deepEqual(queue.len(), { front: 2, back: 4 });
  assert.deepEqual(await drain(queue), [
    "admitted-1",
    "admitted-2",
    "new-1",
    "new-2",
    "new-3",
    "new-4",
  ]);
});

test("a key waiting in the back lane moves forward when added to the front lane, once", async () => {
  const queue = newReconcileQueue(new FakeClock());
  for (const key of ["a", "b", "c"]) queue.add(key);
  queue.add("c", "front");
  queue.add("c", "front");
  queue.add("c");
  assert.deepEqual(queue.len(), { front: 1, back: 2 });
  assert.deepEqual(await drain(queue), ["c", "a", "b"]);
  assert.deepEqual(queue.len(), { front: 0, back: 0 });
});

test("a key being processed is not handed out again; added meanwhile, it is queued on done in the lane asked for", async () => {
  const queue = newReconcileQueue(new FakeClock());
  queue.add("pod");
  queue.add("other");
  const first = await queue.get();
  assert.equal(first.item?.key, "pod", "the first key comes out first");
  queue.add("pod", "front");
  assert.deepEqual(queue.len(), { front: 0, back: 1 });
  const second = await queue.get();
  assert.equal(second.item?.key, "other", "the key being processed is not handed out twice");
  queue.done("other");
  let handed: string | undefined;
  void queue.get().then((r) => {
    handed = `${r.item?.key}:${r.item?.lane}`;
  });
  await new Promise((r) => setImmediate(r));
  assert.equal(handed, undefined, "nothing to hand out while the only key is being processed");
  queue.done("pod");
  await new Promise((r) => setImmediate(r));
  assert.equal(handed, "pod:front", "the key added meanwhile comes out, in its new lane");
  queue.done("pod");
  assert.deepEqual(queue.len(), { front: 0, back: 0 });
});

test("a waiting worker gets the first key added, whatever its lane", async () => {
  const queue = newReconcileQueue(new FakeClock());
  const got = queue.get();
  queue.add("late", "front");
  const result = await got;
  assert.deepEqual(result, { shutdown: false, item: { key: "late", lane: "front" } });
});

test("retries come back after their backoff in the lane of the failed attempt", async () => {
  const clock = new FakeClock();
  const queue = newReconcileQueue(clock);
  const retry = async (lane: Lane): Promise<string> => {
    queue.addRateLimited("pod", lane);
    queue.add("other");
    assert.equal(await next(queue), "other", "the retry waits for its backoff");
    await clock.advance(1000);
    const result = await queue.get();
    queue.done("pod");
    return `${result.item?.key}:${result.item?.lane}`;
  };
  assert.equal(await retry("front"), "pod:front");
  assert.equal(await retry("back"), "pod:back");
  queue.forget("pod");
  queue.addRateLimited("pod", "back");
  await clock.advance(5);
  assert.deepEqual(queue.len(), { front: 0, back: 1 }, "forget resets the backoff to 5 ms");
});

test("shutdown hands out what is queued, then reports shutdown; later adds and retries are dropped", async () => {
  const clock = new FakeClock();
  const queue = newReconcileQueue(clock);
  const idle = queue.get();
  queue.add("queued");
  assert.equal((await idle).item?.key, "queued", "the idle worker takes the key");
  queue.add("left");
  queue.addRateLimited("retry", "front");
  queue.shutDown();
  queue.add("after");
  assert.equal((await queue.get()).item?.key, "left", "queued keys are still handed out");
  assert.deepEqual(await queue.get(), { shutdown: true });
  await clock.advance(1000);
  assert.deepEqual(queue.len(), { front: 0, back: 0 }, "the pending retry was dropped");
  assert.equal(clock.waiters, 0, "no timer is left behind");
});
