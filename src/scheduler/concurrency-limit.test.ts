import assert from "node:assert/strict";
import { test } from "node:test";
import { ConcurrencyLimit } from "./concurrency-limit.ts";

/** A piece of work that finishes when told. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("ConcurrencyLimit.run: at most max run at once, the others start in arrival order", async () => {
  const limit = new ConcurrencyLimit(2);
  const gates = [gate(), gate(), gate(), gate()];
  const started: number[] = [];
  const runs = gates.map((g, i) =>
    limit.run(async () => {
      started.push(i);
      await g.promise;
      return i;
    }),
  );
  await settle();
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual([limit.running, limit.waiting], [2, 2]);
  gates[1]?.open();
  await settle();
  assert.deepEqual(started, [0, 1, 2]);
  for (const g of gates) g.open();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
  assert.deepEqual([limit.running, limit.waiting], [0, 0]);
});

test("ConcurrencyLimit.run: a failing piece of work frees its slot and rejects", async () => {
  const limit = new ConcurrencyLimit(1);
  const failed = limit.run(() => Promise.reject(new RangeError("boom")));
  const next = limit.run(() => Promise.resolve("next"));
  await assert.rejects(failed, RangeError);
  assert.equal(await next, "next");
  assert.equal(limit.running, 0);
});

test("ConcurrencyLimit.run: thousands of waiters all get their turn", async () => {
  const limit = new ConcurrencyLimit(3);
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: 5000 }, (_, i) =>
      limit.run(async () => {
        order.push(i);
        await settle();
      }),
    ),
  );
  assert.deepEqual(
    order,
    Array.from({ length: 5000 }, (_, i) => i),
  );
});

const invalid = [0, -1, 1.5, Number.NaN] as const;
for (const max of invalid) {
  test(`ConcurrencyLimit: ${max} at once is a RangeError`, () => {
    assert.throws(() => new ConcurrencyLimit(max), RangeError);
  });
}

test("ConcurrencyLimit.close: waiting and later work rejects; running work finishes", async () => {
  const limit = new ConcurrencyLimit(1);
  const running = gate();
  const first = limit.run(async () => {
    await running.promise;
    return "first";
  });
  let waitedStarted = false;
  const waiting = limit.run(async () => {
    waitedStarted = true;
  });
  await settle();
  const reason = new RangeError("stopping");
  limit.close(reason);
  await assert.rejects(waiting, (error: unknown) => error === reason);
  await assert.rejects(
    limit.run(() => Promise.resolve()),
    (error: unknown) => error === reason,
  );
  running.open();
  assert.equal(await first, "first");
  assert.deepEqual(
    { closed: limit.closed, running: limit.running, waiting: limit.waiting, waitedStarted },
    { closed: true, running: 0, waiting: 0, waitedStarted: false },
  );
});
