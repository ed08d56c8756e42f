import assert from "node:assert/strict";
import { test } from "node:test";
import { settle } from "../../testing/fake-clock.ts";
import { newQueue, type WorkQueue } from "./queue.ts";

/** What a worker would see: the items `get` hands out, until the queue is empty. */
async function drain(queue: WorkQueue<string>): Promise<string[]> {
  const items: string[] = [];
  while (queue.len() > 0) {
    const result = await queue.get();
    if (result.shutdown) break;
    items.push(result.item);
    queue.done(result.item);
  }
  return items;
}

type Step =
  | { add: string }
  | { get: string } // takes the next item and expects this one
  | { done: string };

const cases: readonly {
  name: string;
  steps: readonly Step[];
  wantLen: number;
  wantRest: string[];
}[] = [
  {
    name: "an item added twice is queued once",
    steps: [{ add: "a" }, { add: "b" }, { add: "a" }],
    wantLen: 2,
    wantRest: ["a", "b"],
  },
  {
    name: "items come out in the order they were first added",
    steps: [{ add: "c" }, { add: "a" }, { add: "b" }, { add: "c" }],
    wantLen: 3,
    wantRest: ["c", "a", "b"],
  },
  {
    name: "an item re-added while processing waits for done",
    steps: [{ add: "a" }, { get: "a" }, { add: "a" }],
    wantLen: 0,
    wantRest: [],
  },
  {
    name: "an item re-added while processing is queued again after done",
    steps: [{ add: "a" }, { add: "b" }, { get: "a" }, { add: "a" }, { done: "a" }],
    wantLen: 2,
    wantRest: ["b", "a"],
  },
  {
    name: "an item re-added many times while processing is queued once after done",
    steps: [{ add: "a" }, { get: "a" }, { add: "a" }, { add: "a" }, { done: "a" }],
    wantLen: 1,
    wantRest: ["a"],
  },
  {
    name: "a done item that was not re-added is gone",
    steps: [{ add: "a" }, { get: "a" }, { done: "a" }],
    wantLen: 0,
    wantRest: [],
  },
];

for (const c of cases) {
  test(`WorkQueue: ${c.name}`, async () => {
    const queue = newQueue<string>();
    for (const step of c.steps) {
      if ("add" in step) queue.add(step.add);
      else if ("done" in step) queue.done(step.done);
      else assert.deepEqual(await queue.get(), { shutdown: false, item: step.get });
    }
    assert.equal(queue.len(), c.wantLen);
    assert.deepEqual(await drain(queue), c.wantRest);
  });
}

test("WorkQueue.get: waits for an item, and never hands one item to two workers", async () => {
  const queue = newQueue<string>();
  const first = queue.get();
  const second = queue.get();
  queue.add("a");
  assert.deepEqual(await first, { shutdown: false, item: "a" });
  queue.add("a"); // while the first worker processes it
  let secondGot: unknown;
  void second.then((result) => {
    secondGot = result;
  });
  await settle();
  assert.equal(secondGot, undefined, "the second worker must not get a while it is processed");
  queue.done("a");
  assert.deepEqual(await second, { shutdown: false, item: "a" });
});

test("WorkQueue.shutDown: wakes idle workers, ignores new items, still hands out queued ones", async () => {
  const queue = newQueue<string>();
  const idle = queue.get();
  queue.shutDown();
  assert.deepEqual(await idle, { shutdown: true });

  const draining = newQueue<string>();
  draining.add("a");
  draining.shutDown();
  draining.add("b");
  assert.deepEqual(
    [draining.shuttingDown(), draining.len(), await draining.get(), await draining.get()],
    [true, 1, { shutdown: false, item: "a" }, { shutdown: true }],
  );
});

test("WorkQueue.shutDownWithDrain: resolves only once items in flight are done", async () => {
  const queue = newQueue<string>();
  queue.add("a");
  queue.add("b");
  const a = await queue.get();
  const b = await queue.get();
  let drained = false;
  const draining = queue.shutDownWithDrain().then(() => {
    drained = true;
  });
  if (a.shutdown || b.shutdown) assert.fail("expected items");
  queue.done(a.item);
  await settle();
  assert.equal(drained, false);
  queue.done(b.item);
  await draining;
  assert.equal(drained, true);
  assert.deepEqual(await newQueue<string>().shutDownWithDrain(), undefined);
});
