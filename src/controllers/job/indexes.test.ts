import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import {
  completionIndexOf,
  duplicatedIndexPods,
  firstPendingIndexes,
  formatIndexes,
  generateNameWithIndex,
  parseIndexes,
  withIndexes,
} from "./indexes.ts";

const indexed = (name: string, index: string | undefined): Pod =>
  (index === undefined
    ? makePod(name)
    : makePod(name).annotation("batch.kubernetes.io/job-completion-index", index)
  ).obj();

const parseCases = [
  { name: "single indexes and ranges", text: "0,2-4,7", completions: 10, want: "0,2-4,7" },
  { name: "adjacent parts merge", text: "0-1,2,3-4", completions: 10, want: "0-4" },
  {
    name: "indexes at or above completions are dropped",
    text: "1,3-9",
    completions: 5,
    want: "1,3-4",
  },
  { name: "malformed parts are skipped", text: "x,2,-1,3-", completions: 5, want: "2" },
  { name: "the empty string is no index", text: "", completions: 5, want: "" },
] as const;

for (const c of parseCases) {
  test(`parseIndexes: ${c.name}`, () => {
    assert.equal(formatIndexes(parseIndexes(c.text, c.completions)), c.want);
  });
}

test("withIndexes: adds indexes into sorted, merged intervals", () => {
  assert.equal(formatIndexes(withIndexes(parseIndexes("0,4", 9), [1, 3, 8])), "0-1,3-4,8");
});

const indexCases = [
  { name: "a plain number", value: "3", want: 3 },
  { name: "no annotation", value: undefined, want: -1 },
  { name: "a negative number", value: "-2", want: -1 },
  { name: "not a number", value: "two", want: -1 },
] as const;

for (const c of indexCases) {
  test(`completionIndexOf: ${c.name}`, () => {
    assert.equal(completionIndexOf(indexed("p", c.value)), c.want);
  });
}

test("firstPendingIndexes: the lowest indexes neither succeeded nor active", () => {
  const active = [indexed("a", "0"), indexed("b", "3")];
  assert.deepEqual(firstPendingIndexes(active, parseIndexes("1", 6), 3, 6), [2, 4, 5]);
});

test("duplicatedIndexPods: removes pods without a valid index and all but one per index", () => {
  const pods = [
    indexed("a", "0"),
    indexed("b", "1"),
    indexed("c", "1"),
    indexed("d", undefined),
    indexed("e", "9"),
  ];
  const split = duplicatedIndexPods(pods, 3, (group) => group.slice(1));
  assert.deepEqual(
    {
      remove: split.remove.map((p) => p.metadata.name),
      left: split.left.map((p) => p.metadata.name),
    },
    { remove: ["d", "e", "c"], left: ["a", "b"] },
  );
});

test("generateNameWithIndex: <job>-<index>-, the job name cut so 5 random characters fit in 63", () => {
  const long = "j".repeat(70);
  assert.deepEqual(
    [
      generateNameWithIndex("pi", 4),
      generateNameWithIndex(long, 12).length,
      generateNameWithIndex(long, 12).slice(-4),
    ],
    ["pi-4-", 58, "-12-"],
  );
});
