import assert from "node:assert/strict";
import { test } from "node:test";
import {
  allowedConflictsFromLastApplied,
  buildLastApplied,
  lastAppliedAnnotation,
  updateLastApplied,
} from "./last-applied.ts";
import { configMapSchema } from "./test-fixtures.ts";
import { newTypeResolver } from "./types.ts";

const buildCases = [
  {
    name: "keys sorted, trailing newline, annotation itself left out",
    applied: {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "c", annotations: { [lastAppliedAnnotation]: "old", x: "<y>" } },
    },
    want: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{"x":"\\u003cy\\u003e"},"name":"c"}}\n',
  },
  {
    name: "no annotations stays without annotations",
    applied: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } },
    want: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}\n',
  },
] as const;

for (const c of buildCases) {
  test(`buildLastApplied: ${c.name}`, () => {
    assert.equal(buildLastApplied(structuredClone(c.applied)), c.want);
  });
}

test("updateLastApplied: only rewrites an annotation that is already there", () => {
  const applied = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } };
  const without = { metadata: { name: "c" } };
  assert.deepEqual(updateLastApplied(structuredClone(without), applied), without);
  const withIt = { metadata: { name: "c", annotations: { [lastAppliedAnnotation]: "x" } } };
  assert.deepEqual(updateLastApplied(withIt, applied)["metadata"], {
    name: "c",
    annotations: {
      [lastAppliedAnnotation]: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}\n',
    },
  });
});

test("allowedConflictsFromLastApplied: the applied fields whose live value is unchanged", () => {
  const resolver = newTypeResolver(configMapSchema);
  const last =
    '{"apiVersion":"v1","data":{"a":"1","b":"1"},"kind":"ConfigMap","metadata":{"name":"c"}}\n';
  const live = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c", annotations: { [lastAppliedAnnotation]: last } },
    data: { a: "1", b: "2" },
  };
  assert.equal(
    allowedConflictsFromLastApplied(live, "v1", resolver)?.toString(),
    ".apiVersion\n.kind\n.data.a\n.metadata.name",
  );
  assert.equal(allowedConflictsFromLastApplied(live, "v2", resolver), undefined);
});
