import assert from "node:assert/strict";
import { test } from "node:test";
import { newWriteQueue } from "./write-queue.ts";

/** A write that settles when `release` is called, recording its start in `log`. */
function gated(log: string[], name: string): { write: () => Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const settled = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    write: async () => {
      log.push(name);
      await settled;
    },
    release: () => release(),
  };
}

test("WriteQueue: one write per key at a time; a key is busy while queued or in flight", async () => {
  const queue = newWriteQueue({ concurrency: 1 });
  const log: string[] = [];
  const first = gated(log, "a#1");
  assert.equal(queue.enqueue("a", "urgent", first.write), true);
  assert.equal(
    queue.enqueue("a", "urgent", async () => void log.push("a#2")),
    false,
  );
  assert.equal(queue.busy("a"), true);
  assert.equal(queue.running("a"), true);
  assert.equal(
    queue.enqueue("b", "urgent", async () => void log.push("b")),
    true,
  );
  assert.equal(queue.running("b"), false, "b waits for the only writer");
  first.release();
  await queue.flush();
  assert.deepEqual(log, ["a#1", "b"]);
  assert.equal(queue.busy("a"), false);
});

test("WriteQueue: urgent writes go before background ones, which keep to their share of writers", async () => {
  const queue = newWriteQueue({ concurrency: 2, backgroundConcurrency: 1 });
  const log: string[] = [];
  const held = gated(log, "bg1");
  queue.enqueue("bg1", "background", held.write);
  queue.enqueue("bg2", "background", async () => void log.push("bg2"));
  queue.enqueue("u1", "urgent", async () => void log.push("u1"));
  assert.equal(queue.running("bg2"), false, "one background writer only, even with one free");
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ["bg1", "u1"]);
  held.release();
  await queue.flush();
  assert.deepEqual(log, ["bg1", "u1", "bg2"]);
});

test("WriteQueue: a queued background write can be dropped, an urgent or running one cannot", async () => {
  const queue = newWriteQueue({ concurrency: 1 });
  const log: string[] = [];
  const held = gated(log, "running");
  queue.enqueue("running", "background", held.write);
  queue.enqueue("queued", "background", async () => void log.push("queued"));
  queue.enqueue("urgent", "urgent", async () => void log.push("urgent"));
  assert.equal(queue.cancel("running"), false);
  assert.equal(queue.cancel("urgent"), false);
  assert.equal(queue.cancel("queued"), true);
  assert.equal(queue.busy("queued"), false);
  assert.equal(
    queue.enqueue("queued", "background", async () => void log.push("again")),
    true,
  );
  held.release();
  await queue.flush();
  assert.deepEqual(log, ["running", "urgent", "again"]);
});

test("WriteQueue: a failing write settles its key; flush resolves at once when idle", async () => {
  const queue = newWriteQueue();
  await queue.flush();
  queue.enqueue("a", "urgent", async () => {
    throw new Error("refused");
  });
  await queue.flush();
  assert.equal(queue.busy("a"), false);
});
