import assert from "node:assert/strict";
import { test } from "node:test";
import type { OwnerReference } from "../../api/index.ts";
import { podsResource, replicaSetsResource } from "../../client/index.ts";
import {
  blockingDependents,
  computeDependentAction,
  DependencyGraph,
  type GraphNode,
  type OwnerState,
} from "./graph.ts";

const ref = (uid: string, block = false): OwnerReference => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: `rs-${uid}`,
  uid,
  ...(block ? { blockOwnerDeletion: true } : {}),
});

const node = (
  uid: string,
  owners: OwnerReference[] = [],
  finalizers: string[] = [],
  deleting = false,
): GraphNode => ({
  identity: { resource: podsResource, namespace: "ns", name: `p-${uid}`, uid },
  owners,
  finalizers,
  deleting,
});

test("DependencyGraph.dependentsOf: follows upserts and removals", () => {
  const graph = new DependencyGraph();
  graph.upsert({
    ...node("rs"),
    identity: { ...node("rs").identity, resource: replicaSetsResource },
  });
  graph.upsert(node("a", [ref("rs")]));
  graph.upsert(node("b", [ref("rs")]));
  graph.upsert(node("b", [ref("other")]));
  const first = graph.dependentsOf("rs").map((n) => n.identity.uid);
  graph.remove("a");
  assert.deepEqual(
    { first, after: graph.dependentsOf("rs"), other: graph.dependentsOf("other").length },
    { first: ["a"], after: [], other: 1 },
  );
});

test("blockingDependents: only references with blockOwnerDeletion to this owner", () => {
  const owner = node("rs");
  const got = blockingDependents(owner, [
    node("a", [ref("rs", true)]),
    node("b", [ref("rs")]),
    node("c", [ref("other", true), ref("rs", false)]),
  ]);
  assert.deepEqual(
    got.map((n) => n.identity.uid),
    ["a"],
  );
});

const actionCases: readonly {
  name: string;
  node: GraphNode;
  states: Record<string, OwnerState>;
  dependents?: GraphNode[];
  want: ReturnType<typeof computeDependentAction>;
}[] = [
  { name: "no owners: nothing", node: node("x"), states: {}, want: { kind: "none" } },
  {
    name: "a solid owner keeps the object",
    node: node("x", [ref("a")]),
    states: { a: "solid" },
    want: { kind: "none" },
  },
  {
    name: "a solid owner keeps it, dangling and waiting references are dropped",
    node: node("x", [ref("a"), ref("b"), ref("c")]),
    states: { a: "solid", b: "dangling", c: "waiting" },
    want: { kind: "removeOwnerReferences", uids: ["b", "c"] },
  },
  {
    name: "all owners gone: deleted in the background",
    node: node("x", [ref("a"), ref("b")]),
    states: { a: "dangling", b: "dangling" },
    want: { kind: "delete", policy: "Background" },
  },
  {
    name: "an orphan finalizer on the object asks for Orphan",
    node: node("x", [ref("a")], ["orphan"]),
    states: { a: "dangling" },
    want: { kind: "delete", policy: "Orphan" },
  },
  {
    name: "a foregroundDeletion finalizer on the object asks for Foreground",
    node: node("x", [ref("a")], ["foregroundDeletion"]),
    states: { a: "dangling" },
    want: { kind: "delete", policy: "Foreground" },
  },
  {
    name: "a waiting owner and no dependents: deleted in the background",
    node: node("x", [ref("a")]),
    states: { a: "waiting" },
    want: { kind: "delete", policy: "Background" },
  },
  {
    name: "a waiting owner and dependents of its own: deleted in the foreground",
    node: node("x", [ref("a")]),
    states: { a: "waiting" },
    dependents: [node("d", [ref("x")])],
    want: { kind: "deleteForeground", unblock: false },
  },
  {
    name: "a dependent itself deleting dependents makes it unblock first",
    node: node("x", [ref("a")]),
    states: { a: "waiting" },
    dependents: [node("d", [ref("x")], ["foregroundDeletion"], true)],
    want: { kind: "deleteForeground", unblock: true },
  },
];

for (const c of actionCases) {
  test(`computeDependentAction: ${c.name}`, () => {
    assert.deepEqual(
      computeDependentAction(c.node, new Map(Object.entries(c.states)), c.dependents ?? []),
      c.want,
    );
  });
}
