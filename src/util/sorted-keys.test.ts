import assert from "node:assert/strict";
import { test } from "node:test";
import { seededRandom } from "./random.ts";
import { lowerBound, SortedKeys } from "./sorted-keys.ts";

/** Every operation against a plain sorted array, over enough keys to split and empty chunks. */
test("SortedKeys: adds, removes, ranks, counts and iterates as a sorted array does", () => {
  const random = seededRandom(7);
  const keys = new SortedKeys();
  const model: string[] = [];
  const keyOf = (n: number): string => `/registry/pods/ns${n % 7}/pod-${n}`;
  for (let step = 0; step < 20_000; step++) {
    const key = keyOf(random.int(5_000));
    const at = lowerBound(model, key);
    if (random.int(3) < 2) {
      const added = keys.add(key);
      assert.equal(added, model[at] !== key, `add ${key}`);
      if (added) model.splice(at, 0, key);
    } else {
      const removed = keys.delete(key);
      assert.equal(removed, model[at] === key, `delete ${key}`);
      if (removed) model.splice(at, 1);
    }
    if (step % 997 === 0) {
      assert.equal(keys.size, model.length);
      assert.deepEqual([...keys.from("")], model);
    }
  }
  for (const probe of ["", "/registry/pods/ns3/", "/registry/pods/ns3/pod-2", "/z", keyOf(42)]) {
    assert.equal(keys.rank(probe), lowerBound(model, probe), `rank of ${probe}`);
    assert.deepEqual([...keys.from(probe)], model.slice(lowerBound(model, probe)), `from ${probe}`);
  }
  const start = "/registry/pods/ns2/";
  const end = "/registry/pods/ns20";
  assert.equal(keys.count(start, end), lowerBound(model, end) - lowerBound(model, start));
  assert.equal(keys.count(start, undefined), model.length - lowerBound(model, start));
});

test("SortedKeys: keeps a set sorted and free of duplicates", () => {
  const keys = new SortedKeys();
  for (const k of ["m", "a", "z", "m", "c"]) keys.add(k);
  assert.deepEqual([...keys.from("")], ["a", "c", "m", "z"]);
  keys.delete("c");
  keys.delete("nope");
  assert.deepEqual([...keys.from("")], ["a", "m", "z"]);
});

test("SortedKeys: built from a sorted array, then changed", () => {
  const sorted = Array.from({ length: 3_000 }, (_, i) => `/k/${String(i).padStart(5, "0")}`);
  const keys = SortedKeys.fromSorted(sorted);
  assert.equal(keys.size, 3_000);
  assert.equal(keys.rank("/k/01500"), 1_500);
  assert.ok(keys.delete("/k/01500"), "a key it holds");
  assert.ok(!keys.delete("/k/01500"), "a key it no longer holds");
  assert.ok(keys.add("/k/01500x"), "a new key");
  assert.deepEqual([...keys.from("/k/01499")].slice(0, 3), ["/k/01499", "/k/01500x", "/k/01501"]);
  keys.clear();
  assert.equal(keys.size, 0);
  assert.deepEqual([...keys.from("")], []);
  assert.equal(keys.rank("/k/"), 0);
});
