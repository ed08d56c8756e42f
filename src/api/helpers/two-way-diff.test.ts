import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonEqual } from "../../util/index.ts";
import { semanticEqual } from "../validation/equality.ts";
import { type TwoWayDiffOptions, twoWayDiff } from "./two-way-diff.ts";

const json: TwoWayDiffOptions = { equal: jsonEqual };
const semantic: TwoWayDiffOptions = { equal: semanticEqual };

const cases: readonly {
  name: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  options: TwoWayDiffOptions;
  want: Record<string, unknown>;
}[] = [
  {
    name: "equal objects: an empty patch",
    before: { a: 1, m: { b: [1, { c: 2, d: 3 }] } },
    after: { a: 1, m: { b: [1, { d: 3, c: 2 }] } },
    options: json,
    want: {},
  },
  {
    name: "changed and added fields with their new values, removed ones null",
    before: { a: 1, b: "x", gone: true },
    after: { a: 2, b: "x", added: [1] },
    options: json,
    want: { a: 2, added: [1], gone: null },
  },
  {
    name: "objects diffed field by field, lists replaced whole",
    before: { m: { keep: 1, change: 1, list: [1, 2, 3] } },
    after: { m: { keep: 1, change: 2, list: [2, 3] } },
    options: json,
    want: { m: { change: 2, list: [2, 3] } },
  },
  {
    name: "a field holding undefined is missing: removed when it was there, nothing otherwise",
    before: { a: 1, b: undefined },
    after: { a: undefined, b: undefined, c: undefined },
    options: json,
    want: { a: null },
  },
  {
    name: "an object where there was none, or a value where there was an object: taken whole",
    before: { m: "x", n: { a: 1 } },
    after: { m: { a: 1 }, n: null },
    options: json,
    want: { m: { a: 1 }, n: null },
  },
  {
    name: "with semanticEqual a missing value equals an empty one",
    before: { list: [], map: {}, text: "", kept: 1 },
    after: { kept: 1, extra: "" },
    options: semantic,
    want: {},
  },
  {
    name: "with jsonEqual an empty value differs from a missing one",
    before: { list: [] },
    after: { extra: "" },
    options: json,
    want: { extra: "", list: null },
  },
  {
    name: "diffField replaces the entries of the top-level fields it answers for",
    before: { list: [1], other: [1], m: { list: [1] } },
    after: { list: [2], other: [2], m: { list: [2] } },
    options: {
      equal: jsonEqual,
      diffField: (field, _before, after) =>
        field === "list" ? { "$order/list": "kept", list: ["from", after] } : undefined,
    },
    want: { "$order/list": "kept", list: ["from", [2]], other: [2], m: { list: [2] } },
  },
  {
    name: "diffField is asked about differing fields only",
    before: { list: [1] },
    after: { list: [1] },
    options: {
      equal: jsonEqual,
      diffField: () => {
        throw new RangeError("Unexpected call of diffField for an equal field");
      },
    },
    want: {},
  },
];

for (const c of cases) {
  test(`twoWayDiff: ${c.name}`, () => {
    assert.deepEqual(twoWayDiff(c.before, c.after, c.options), c.want);
  });
}

test("twoWayDiff: the patch lists changed fields in the new object's order, then removals", () => {
  const patch = twoWayDiff({ z: 1, gone: 1, a: 1 }, { a: 2, z: 2 }, json);
  assert.deepEqual(Object.keys(patch), ["a", "z", "gone"]);
});

test("twoWayDiff: leaves both objects alone", () => {
  const before = { m: { a: 1, b: 2 } };
  const after = { m: { a: 1, c: 3 } };
  const copies = structuredClone([before, after]);
  twoWayDiff(before, after, json);
  assert.deepEqual([before, after], copies);
});
