import assert from "node:assert/strict";
import { test } from "node:test";
import { makeKueueWorkload } from "../../testing/index.ts";
import { compareWorkloads, sortWorkloads } from "./ordering.ts";

const cases = [
  {
    name: "higher priority goes first even when newer",
    a: makeKueueWorkload("a").priority(10).created("2026-01-01T00:00:05Z").obj(),
    b: makeKueueWorkload("b").priority(1).created("2026-01-01T00:00:00Z").obj(),
    want: "a",
  },
  {
    name: "equal priority: the older goes first",
    a: makeKueueWorkload("a").created("2026-01-01T00:00:05Z").obj(),
    b: makeKueueWorkload("b").created("2026-01-01T00:00:01Z").obj(),
    want: "b",
  },
  {
    name: "equal priority and age: by name",
    a: makeKueueWorkload("b").obj(),
    b: makeKueueWorkload("a").obj(),
    want: "a",
  },
] as const;

for (const c of cases) {
  test(`compareWorkloads: ${c.name}`, () => {
    const [first] = [c.a, c.b].sort(compareWorkloads);
    assert.equal(first?.metadata.name, c.want);
  });
}

for (const c of cases) {
  test(`sortWorkloads: ${c.name}, as compareWorkloads orders them`, () => {
    const [first] = sortWorkloads([c.a, c.b]);
    assert.equal(first?.metadata.name, c.want);
  });
}
