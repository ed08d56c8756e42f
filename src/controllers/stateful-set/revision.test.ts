import assert from "node:assert/strict";
import { test } from "node:test";
import { makeStatefulSet } from "../../testing/index.ts";
import { RevisionTemplates, revisionHash, revisionName } from "./revision.ts";

const v1 = makeStatefulSet("web").image("nginx:1").obj().spec.template;
const v2 = makeStatefulSet("web").image("nginx:2").obj().spec.template;

test("revisionHash: equal templates hash alike whatever their key order", () => {
  const reordered = JSON.parse(JSON.stringify({ spec: v1.spec, metadata: v1.metadata }));
  assert.equal(revisionHash(reordered, undefined), revisionHash(v1, undefined));
});

test("revisionHash: a template change or a collision count gives another DNS-safe hash", () => {
  const hashes = [revisionHash(v1, undefined), revisionHash(v2, undefined), revisionHash(v1, 1)];
  assert.deepEqual(
    {
      distinct: new Set(hashes).size,
      safe: hashes.every((h) => /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/.test(h)),
    },
    { distinct: 3, safe: true },
  );
});

test("revisionName: the set name cut to 223 characters, a dash and the hash", () => {
  assert.deepEqual(
    [revisionName("web", "5d8f7"), revisionName("a".repeat(300), "x").length],
    ["web-5d8f7", 225],
  );
});

test("RevisionTemplates.retain: drops templates of revisions no longer live", () => {
  const templates = new RevisionTemplates();
  templates.remember("u", "web-1", v1);
  templates.remember("u", "web-2", v2);
  templates.retain("u", new Set(["web-2"]));
  assert.deepEqual([templates.get("u", "web-1"), templates.get("u", "web-2")], [undefined, v2]);
});
