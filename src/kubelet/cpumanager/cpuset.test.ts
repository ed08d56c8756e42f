import assert from "node:assert/strict";
import { test } from "node:test";
import { CpuSet } from "./cpuset.ts";

const parseCases = [
  { name: "the empty string is the empty set", text: "", want: [] },
  { name: "single ids and ranges", text: "0-3,8,10-11", want: [0, 1, 2, 3, 8, 10, 11] },
  { name: "unordered and overlapping parts", text: "5,1-3,2", want: [1, 2, 3, 5] },
] as const;

for (const c of parseCases) {
  test(`CpuSet.parse: ${c.name}`, () => {
    assert.deepEqual(CpuSet.parse(c.text).toArray(), c.want);
  });
}

const badCases = [
  { name: "a reversed range", text: "3-1", want: 'invalid range "3-1" (3 > 1)' },
  { name: "a word", text: "0,x", want: 'strconv.Atoi: parsing "x": invalid syntax' },
  { name: "an empty part", text: "0,", want: 'strconv.Atoi: parsing "": invalid syntax' },
] as const;

for (const c of badCases) {
  test(`CpuSet.parse: ${c.name} is refused with upstream's message`, () => {
    assert.throws(() => CpuSet.parse(c.text), { message: c.want });
  });
}

const formatCases = [
  { name: "runs become ranges", ids: [0, 1, 2, 3, 8, 9, 11], want: "0-3,8-9,11" },
  { name: "the empty set is empty", ids: [], want: "" },
  { name: "a single id", ids: [7], want: "7" },
] as const;

for (const c of formatCases) {
  test(`CpuSet.toString: ${c.name}`, () => {
    assert.equal(CpuSet.of(...c.ids).toString(), c.want);
  });
}

test("CpuSet: set operations return new sets", () => {
  const a = CpuSet.parse("0-5");
  const b = CpuSet.parse("4-9");
  assert.equal(a.union(b).toString(), "0-9");
  assert.equal(a.intersection(b).toString(), "4-5");
  assert.equal(a.difference(b).toString(), "0-3");
  assert.equal(a.toString(), "0-5");
  assert.equal(CpuSet.parse("4-5").isSubsetOf(a), true);
  assert.equal(a.equals(CpuSet.range(0, 5)), true);
  assert.equal(a.has(5), true);
  assert.equal(a.has(6), false);
  assert.equal(a.size, 6);
});

const operationCases = [
  {
    name: "union merges and drops duplicates",
    op: "union",
    a: "0-3,8",
    b: "2-5,7",
    want: "0-5,7-8",
  },
  { name: "union with the empty set is the set", op: "union", a: "", b: "4,6", want: "4,6" },
  {
    name: "intersection keeps the common ids",
    op: "intersection",
    a: "0-9",
    b: "1,3,5,20",
    want: "1,3,5",
  },
  {
    name: "intersection of disjoint sets is empty",
    op: "intersection",
    a: "0-3",
    b: "4-7",
    want: "",
  },
  {
    name: "difference removes the other's ids",
    op: "difference",
    a: "0-9",
    b: "2-4,9,12",
    want: "0-1,5-8",
  },
  { name: "difference of a subset is empty", op: "difference", a: "2-3", b: "0-9", want: "" },
] as const;

for (const c of operationCases) {
  test(`CpuSet.${c.op}: ${c.name}`, () => {
    const a = CpuSet.parse(c.a);
    const b = CpuSet.parse(c.b);
    const got =
      c.op === "union" ? a.union(b) : c.op === "intersection" ? a.intersection(b) : a.difference(b);
    assert.equal(got.toString(), c.want);
  });
}

test("CpuSet.union: many sets at once, in any order", () => {
  const sets = ["9", "1-2", "", "2-4", "0"].map((s) => CpuSet.parse(s));
  assert.equal(CpuSet.empty.union(...sets).toString(), "0-4,9");
  assert.equal(CpuSet.from([5, 1, 5, 3]).toString(), "1,3,5");
  assert.deepEqual(
    [
      CpuSet.parse("1-3").isSubsetOf(CpuSet.parse("0-4")),
      CpuSet.parse("1,7").isSubsetOf(CpuSet.parse("0-4")),
    ],
    [true, false],
  );
});
