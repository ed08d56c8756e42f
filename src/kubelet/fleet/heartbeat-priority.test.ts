import assert from "node:assert/strict";
import test from "node:test";
import { FakeClock, settle } from "../../testing/fake-clock.ts";
import { HeartbeatPriority } from "./heartbeat-priority.ts";

/** Whether `promise` has settled after pending continuations ran. */
async function isSettled(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await settle();
  return settled;
}

test("HeartbeatPriority: pod workers go while heartbeats are on time", async () => {
  const clock = new FakeClock(new Date(0));
  const priority = new HeartbeatPriority(clock, 2000);
  priority.queued("lease/a");
  await clock.advance(2000);
  assert.deepEqual([priority.lateness(), await isSettled(priority.turn())], [2000, true]);
});

test("HeartbeatPriority: late heartbeats hold pod workers until the oldest is taken", async () => {
  const clock = new FakeClock(new Date(0));
  const priority = new HeartbeatPriority(clock, 2000);
  priority.queued("lease/a");
  await clock.advance(1000);
  priority.queued("lease/b");
  priority.queued("lease/a"); // queued again before a worker took it: still waiting since 0
  await clock.advance(1500);
  const held = priority.turn();
  const before = await isSettled(held);
  priority.taken("lease/a"); // b has waited 1.5 s: on time again
  assert.deepEqual([before, priority.lateness(), await isSettled(held)], [false, 1500, true]);
});

test("HeartbeatPriority: close lets held and later pod workers go", async () => {
  const clock = new FakeClock(new Date(0));
  const priority = new HeartbeatPriority(clock, 2000);
  priority.queued("status/a");
  await clock.advance(5000);
  const held = priority.turn();
  priority.close();
  assert.deepEqual([await isSettled(held), await isSettled(priority.turn())], [true, true]);
});
