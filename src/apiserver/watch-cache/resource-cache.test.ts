import assert from "node:assert/strict";
import { test } from "node:test";
import { newCachedObject } from "./cached-object.ts";
import { type CacheIndexFunc, ResourceCache } from "./resource-cache.ts";

/** Pods by the `team` label, namespaced: `ns/team`. */
const byTeam: CacheIndexFunc = (object) => {
  const team = object.labels["team"];
  return team === undefined ? [] : [`${object.namespace}/${team}`];
};

let revision = 0;
function pod(namespace: string, name: string, team?: string) {
  return newCachedObject(
    `/registry/pods/${namespace}/${name}`,
    { metadata: { namespace, name, ...(team === undefined ? {} : { labels: { team } }) } },
    ++revision,
  );
}

function names(cache: ResourceCache, value: string): string[] {
  return cache
    .byIndex("team", value)
    .map((o) => o.name)
    .sort();
}

const cases = [
  {
    name: "seeded and put objects are filed under their values",
    apply: (cache: ResourceCache) => {
      cache.seed(pod("a", "p1", "red"));
      cache.put(pod("a", "p2", "red"));
      cache.put(pod("b", "p3", "red"));
      cache.put(pod("a", "p4"));
    },
    want: { "a/red": ["p1", "p2"], "b/red": ["p3"] },
  },
  {
    name: "an update moves the object to its new value",
    apply: (cache: ResourceCache) => {
      cache.put(pod("a", "p1", "red"));
      cache.put(pod("a", "p1", "blue"));
    },
    want: { "a/red": [], "a/blue": ["p1"] },
  },
  {
    name: "a delete removes the object from the index",
    apply: (cache: ResourceCache) => {
      cache.put(pod("a", "p1", "red"));
      cache.put(pod("a", "p2", "red"));
      cache.delete(pod("a", "p1", "red"));
    },
    want: { "a/red": ["p2"] },
  },
  {
    name: "an update losing the label leaves no stale entry",
    apply: (cache: ResourceCache) => {
      cache.put(pod("a", "p1", "red"));
      cache.put(pod("a", "p1"));
    },
    want: { "a/red": [] },
  },
] as const;

for (const c of cases) {
  test(`ResourceCache.byIndex: ${c.name}`, () => {
    const cache = new ResourceCache(0, { historySize: 10, indexes: { team: byTeam } });
    c.apply(cache);
    const got = Object.fromEntries(
      Object.keys(c.want).map((value) => [value, names(cache, value)]),
    );
    assert.deepEqual(got, c.want);
  });
}

test("ResourceCache.byIndex: the current object, not an earlier version", () => {
  const cache = new ResourceCache(0, { historySize: 10, indexes: { team: byTeam } });
  cache.put(pod("a", "p1", "red"));
  const latest = pod("a", "p1", "red");
  cache.put(latest);
  assert.deepEqual(
    cache.byIndex("team", "a/red").map((o) => o.revision),
    [latest.revision],
  );
});

test("ResourceCache.byIndex: an index the cache was not made with is a RangeError", () => {
  const cache = new ResourceCache(0, { historySize: 10 });
  assert.throws(() => cache.byIndex("team", "a/red"), RangeError);
});
