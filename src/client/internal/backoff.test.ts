import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../../testing/fake-clock.ts";
import type { Random } from "../../util/index.ts";
import { Backoff } from "./backoff.ts";

/** A Random whose float() is always `value`. */
const fixed = (value: number): Random => ({ float: () => value, int: () => 0, uuid: () => "" });

test("Backoff.next: 800 ms doubling up to 30 s without jitter, as client-go's reflector", () => {
  const backoff = new Backoff(new FakeClock(), fixed(0));
  const delays = Array.from({ length: 8 }, () => backoff.next());
  assert.deepEqual(delays, [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
});

test("Backoff.next: jitter stretches a delay by up to its own length", () => {
  assert.deepEqual(
    [
      new Backoff(new FakeClock(), fixed(0.5)).next(),
      new Backoff(new FakeClock(), fixed(0.999)).next(),
    ],
    [1200, 1599.2],
  );
});

test("Backoff.next: starts over after two quiet minutes", async () => {
  const clock = new FakeClock();
  const backoff = new Backoff(clock, fixed(0));
  backoff.next();
  backoff.next();
  await clock.advance(120_000);
  assert.equal(backoff.next(), 3200, "not yet: exactly the reset period has passed");
  await clock.advance(120_001);
  assert.equal(backoff.next(), 800);
});

test("Backoff.wait: sleeps the next delay on the clock and returns quietly on abort", async () => {
  const clock = new FakeClock();
  const backoff = new Backoff(clock, fixed(0), { initialMs: 100 });
  let woke = false;
  const waiting = backoff.wait(new AbortController().signal).then(() => {
    woke = true;
  });
  await clock.advance(99);
  assert.equal(woke, false);
  await clock.advance(1);
  await waiting;
  const controller = new AbortController();
  const aborted = backoff.wait(controller.signal);
  controller.abort();
  await aborted;
  assert.deepEqual([woke, clock.waiters], [true, 0]);
});
