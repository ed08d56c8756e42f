import assert from "node:assert/strict";
import { test } from "node:test";
import { lowerBound } from "../../util/index.ts";
import { inRange, keyRange } from "./key-range.ts";

const rangeCases = [
  {
    name: "a prefix covers keys up to its successor",
    prefix: "/a/",
    startKey: undefined,
    want: { start: "/a/", end: "/a0" },
  },
  {
    name: "a later startKey moves the start",
    prefix: "/a/",
    startKey: "/a/m",
    want: { start: "/a/m", end: "/a0" },
  },
  {
    name: "an earlier startKey is ignored",
    prefix: "/a/",
    startKey: "/",
    want: { start: "/a/", end: "/a0" },
  },
  {
    name: "the empty prefix is unbounded",
    prefix: "",
    startKey: undefined,
    want: { start: "", end: undefined },
  },
] as const;
for (const c of rangeCases) {
  test(`keyRange: ${c.name}`, () => {
    assert.deepEqual(keyRange(c.prefix, c.startKey), c.want);
  });
}

const inRangeCases = [
  { key: "/a/x", want: true },
  { key: "/a/", want: true },
  { key: "/ab", want: false },
  { key: "/a0", want: false },
  { key: "/", want: false },
] as const;
for (const c of inRangeCases) {
  test(`inRange: "${c.key}" in "/a/" is ${c.want}`, () => {
    assert.equal(inRange(keyRange("/a/"), c.key), c.want);
  });
}

const boundCases = [
  { key: "a", want: 0 },
  { key: "b", want: 0 },
  { key: "c", want: 1 },
  { key: "d", want: 1 },
  { key: "z", want: 3 },
] as const;
for (const c of boundCases) {
  test(`lowerBound: "${c.key}" in [b, d, f] is ${c.want}`, () => {
    assert.equal(lowerBound(["b", "d", "f"], c.key), c.want);
  });
}
