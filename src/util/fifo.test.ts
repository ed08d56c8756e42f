import assert from "node:assert/strict";
import { test } from "node:test";
import { Fifo } from "./fifo.ts";

test("Fifo.shift: items come out in the order they went in, then undefined", () => {
  const fifo = new Fifo<number>();
  for (const n of [3, 1, 2]) fifo.push(n);
  assert.equal(fifo.length, 3);
  assert.deepEqual([fifo.shift(), fifo.shift(), fifo.shift(), fifo.shift()], [3, 1, 2, undefined]);
  assert.equal(fifo.length, 0);
});

test("Fifo.shift: order and length survive compaction while pushes interleave", () => {
  const fifo = new Fifo<number>();
  const out: number[] = [];
  let next = 0;
  // Push two, take one, 5,000 times: the head passes the compaction threshold many times.
  for (let round = 0; round < 5000; round++) {
    fifo.push(next++);
    fifo.push(next++);
    out.push(fifo.shift() as number);
  }
  assert.equal(fifo.length, 5000);
  for (;;) {
    const item = fifo.shift();
    if (item === undefined) break;
    out.push(item);
  }
  assert.deepEqual(
    out,
    Array.from({ length: 10_000 }, (_, i) => i),
  );
});

test("Fifo.drain: returns what is left, oldest first, and empties the queue", () => {
  const fifo = new Fifo<string>();
  for (const s of ["a", "b", "c"]) fifo.push(s);
  fifo.shift();
  assert.deepEqual(fifo.drain(), ["b", "c"]);
  assert.equal(fifo.length, 0);
  assert.equal(fifo.shift(), undefined);
});
