import assert from "node:assert/strict";
import { test } from "node:test";
import { KeyedHeap } from "./heap.ts";

interface Item {
  key: string;
  value: number;
}

function heapOf(...values: number[]): KeyedHeap<Item> {
  const heap = new KeyedHeap<Item>(
    (i) => i.key,
    (a, b) => a.value < b.value,
  );
  for (const [i, value] of values.entries()) heap.addOrUpdate({ key: `k${i}`, value });
  return heap;
}

function drain(heap: KeyedHeap<Item>): number[] {
  const out: number[] = [];
  for (let item = heap.pop(); item !== undefined; item = heap.pop()) out.push(item.value);
  return out;
}

test("KeyedHeap.pop: yields items in order", () => {
  assert.deepEqual(drain(heapOf(5, 3, 9, 1, 7, 3)), [1, 3, 3, 5, 7, 9]);
});

test("KeyedHeap.addOrUpdate: an update by key reorders the item", () => {
  const heap = heapOf(5, 3, 9);
  heap.addOrUpdate({ key: "k2", value: 0 });
  assert.deepEqual(drain(heap), [0, 3, 5]);
});

test("KeyedHeap.delete: removes by key from the middle", () => {
  const heap = heapOf(5, 3, 9, 1);
  assert.equal(heap.delete("k0"), true);
  assert.equal(heap.delete("missing"), false);
  assert.deepEqual(drain(heap), [1, 3, 9]);
});
