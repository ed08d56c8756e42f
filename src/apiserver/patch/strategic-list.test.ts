import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, mapList, obj, setList, str } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { fieldPatchMeta } from "./internal/patch-meta.ts";
import {
  type MergeContext,
  mergeList,
  newList,
  orderBySetElementOrder,
  validateSetElementOrder,
} from "./strategic-list.ts";

// A map merger that behaves like a shallow merge: enough to observe list handling alone.
const context: MergeContext = {
  definitions: {},
  mergeMap: (original: JsonObject, patch: JsonObject) => Object.assign(original, patch),
};
const byName = fieldPatchMeta(mapList(obj({ name: str(), v: str() }), "name"));
const asSet = fieldPatchMeta(setList(str()));
const atomic = fieldPatchMeta({ type: "array", items: str() });

const merges: {
  name: string;
  live: Json[];
  patch: Json[];
  meta: typeof byName;
  deleteList?: boolean;
  want: Json[];
}[] = [
  {
    name: "items merge by key in place",
    live: [{ name: "a", v: "1" }, { name: "b" }],
    patch: [{ name: "a", v: "2" }],
    meta: byName,
    want: [{ name: "a", v: "2" }, { name: "b" }],
  },
  {
    name: "a new item goes before live-only items",
    live: [{ name: "a" }],
    patch: [{ name: "z" }],
    meta: byName,
    want: [{ name: "z" }, { name: "a" }],
  },
  {
    name: "$patch: delete removes every item with the key",
    live: [{ name: "a" }, { name: "b" }, { name: "a" }],
    patch: [{ name: "a", $patch: "delete" }],
    meta: byName,
    want: [{ name: "b" }],
  },
  {
    name: "$patch: replace keeps only the other patch items",
    live: [{ name: "a" }],
    patch: [{ name: "b", v: null }, { $patch: "replace" }],
    meta: byName,
    want: [{ name: "b" }],
  },
  {
    name: "scalars merge as a set, live ones first when the patch repeats them",
    live: ["a", "b"],
    patch: ["b", "c"],
    meta: asSet,
    want: ["a", "b", "c"],
  },
  {
    name: "a deletion list removes scalars",
    live: ["a", "b", "c"],
    patch: ["a", "c"],
    meta: asSet,
    deleteList: true,
    want: ["b"],
  },
  {
    name: "a list without merge strategy is replaced",
    live: ["a", "b"],
    patch: ["c"],
    meta: atomic,
    want: ["c"],
  },
];

for (const c of merges) {
  test(`mergeList: ${c.name}`, () => {
    assert.deepEqual(
      mergeList(context, structuredClone(c.live), c.patch, c.meta, c.deleteList ?? false),
      c.want,
    );
  });
}

test("newList: drops $patch marker items of merge lists, keeps atomic lists as sent", () => {
  assert.deepEqual(newList(context, [{ name: "a" }, { name: "b", $patch: "delete" }], byName), [
    { name: "a" },
  ]);
  assert.deepEqual(newList(context, ["x", "x"], atomic), ["x", "x"]);
});

test("orderBySetElementOrder: named items in its order, a live-only item before a named item it preceded live", () => {
  const live = [{ name: "a" }, { name: "x" }, { name: "b" }];
  const order = [{ name: "b" }, { name: "a" }];
  // x came before b in the live list, so it is emitted before b.
  assert.deepEqual(orderBySetElementOrder(live, order, live, [], "name"), [
    { name: "x" },
    { name: "b" },
    { name: "a" },
  ]);
});

test("validateSetElementOrder: accepts a subset in the same order, ignoring deletions", () => {
  validateSetElementOrder(
    [{ name: "a" }, { name: "gone", $patch: "delete" }, { name: "c" }],
    [{ name: "a" }, { name: "b" }, { name: "c" }],
    "name",
  );
});

test("validateSetElementOrder: rejects a patch list out of order, as upstream (500)", () => {
  assert.throws(
    () => validateSetElementOrder(["b", "a"], ["a", "b"], ""),
    (error: unknown) =>
      error instanceof ApiError &&
      error.code === 500 &&
      error.message ===
        "The order in patch list:\n[b a]\n doesn't match $setElementOrder list:\n[a b]\n",
  );
});
