import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../testing/index.ts";
import { maxCyclesPerSlice, SchedulingSlice } from "./slice.ts";

/** How many cycles `slice` allows before it asks to yield, each cycle taking `cycleMs`. */
async function cyclesUntilYield(
  slice: SchedulingSlice,
  clock: FakeClock,
  cycleMs: number,
): Promise<number> {
  for (let n = 1; ; n++) {
    await clock.advance(cycleMs);
    if (slice.cycleDone()) return n;
  }
}

const cases = [
  {
    name: "a 20 ms slice of 1 ms cycles yields after 20 cycles",
    sliceMs: 20,
    cycleMs: 1,
    want: 20,
  },
  { name: "a cycle longer than the slice yields after it", sliceMs: 20, cycleMs: 50, want: 1 },
  { name: "a 0 ms slice yields after every cycle", sliceMs: 0, cycleMs: 0, want: 1 },
  {
    name: "a clock that does not move still yields after maxCyclesPerSlice cycles",
    sliceMs: 20,
    cycleMs: 0,
    want: maxCyclesPerSlice,
  },
] as const;

for (const c of cases) {
  test(`SchedulingSlice.cycleDone: ${c.name}`, async () => {
    const clock = new FakeClock();
    const slice = new SchedulingSlice(clock, c.sliceMs);
    assert.equal(await cyclesUntilYield(slice, clock, c.cycleMs), c.want);
  });
}

test("SchedulingSlice.restart: a new slice counts time and cycles from the restart", async () => {
  const clock = new FakeClock();
  const slice = new SchedulingSlice(clock, 10);
  assert.equal(await cyclesUntilYield(slice, clock, 4), 3);
  slice.restart();
  assert.equal(await cyclesUntilYield(slice, clock, 5), 2);
});

test("SchedulingSlice: a negative slice is a RangeError", () => {
  assert.throws(() => new SchedulingSlice(new FakeClock(), -1), RangeError);
});
