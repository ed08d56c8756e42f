import assert from "node:assert/strict";
import { test } from "node:test";
import { slowStartBatch } from "./slow-start.ts";

const cases = [
  { name: "all succeed in batches 1, 2, 4, 3", count: 10, failAt: -1, want: [1, 2, 4, 3], ok: 10 },
  { name: "a failure stops after its batch", count: 10, failAt: 2, want: [1, 2], ok: 2 },
  { name: "the first call failing stops at once", count: 10, failAt: 0, want: [1], ok: 0 },
  { name: "nothing to do makes no calls", count: 0, failAt: -1, want: [], ok: 0 },
] as const;

for (const c of cases) {
  test(`slowStartBatch: ${c.name}`, async () => {
    let calls = 0;
    const batches: number[] = [];
    let inBatch = 0;
    const result = await slowStartBatch(c.count, 1, async () => {
      const index = calls++;
      inBatch++;
      await Promise.resolve();
      if (inBatch > 0) {
        batches.push(inBatch);
        inBatch = 0;
      }
      if (index === c.failAt) throw new RangeError("quota exceeded");
    });
    assert.deepEqual(
      {
        batches: batches.filter((b) => b > 0),
        successes: result.successes,
        failed: result.failure !== undefined,
      },
      { batches: c.want, successes: c.ok, failed: c.failAt >= 0 },
    );
  });
}
