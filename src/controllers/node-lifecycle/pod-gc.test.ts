import assert from "node:assert/strict";
import { test } from "node:test";
import type { Node, Pod } from "../../api/index.ts";
import { makeNode, makePod } from "../../testing/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  isOutOfServiceTerminating,
  outOfServiceTaintKey,
  terminatedPodsToDelete,
} from "./pod-gc.ts";

const finished = (name: string, created: string, reason?: string): Pod => {
  const pod = makePod(name).phase("Succeeded").creationTimestamp(created).obj();
  if (reason !== undefined) pod.status = { ...pod.status, phase: "Failed", reason };
  return pod;
};

const pods = [
  finished("old", "2024-01-01T00:00:00Z"),
  finished("new", "2024-01-03T00:00:00Z"),
  finished("evicted", "2024-01-04T00:00:00Z", "Evicted"),
  makePod("running").phase("Running").creationTimestamp("2023-01-01T00:00:00Z").obj(),
  makePod("pending").creationTimestamp("2023-01-01T00:00:00Z").obj(),
];

const deleteCases = [
  { name: "nothing below the threshold", threshold: 3, want: [] },
  { name: "evicted pods go first, then the oldest", threshold: 1, want: ["evicted", "old"] },
  { name: "a threshold of 0 keeps every pod", threshold: 0, want: [] },
] as const;

for (const c of deleteCases) {
  test(`terminatedPodsToDelete: ${c.name}`, () => {
    assert.deepEqual(
      terminatedPodsToDelete(pods, c.threshold).map((p) => p.metadata.name),
      c.want,
    );
  });
}

const notReady = makeNode("n1").condition({ type: "Ready", status: "Unknown" });
const terminating = makePod("p").nodeName("n1").terminating().obj();

const outOfServiceCases: readonly {
  name: string;
  pod: DeepReadonly<Pod>;
  node: DeepReadonly<Node> | undefined;
  want: boolean;
}[] = [
  {
    name: "a terminating pod on a not-Ready out-of-service node goes",
    pod: terminating,
    node: notReady.clone().taint(outOfServiceTaintKey, "nodeshutdown", "NoExecute").obj(),
    want: true,
  },
  {
    name: "not without the taint",
    pod: terminating,
    node: notReady.obj(),
    want: false,
  },
  {
    name: "not on a Ready node",
    pod: terminating,
    node: makeNode("n1")
      .condition({ type: "Ready", status: "True" })
      .taint(outOfServiceTaintKey, "nodeshutdown", "NoExecute")
      .obj(),
    want: false,
  },
  {
    name: "not a pod that is not terminating",
    pod: makePod("p").nodeName("n1").obj(),
    node: notReady.clone().taint(outOfServiceTaintKey, "", "NoSchedule").obj(),
    want: false,
  },
];

for (const c of outOfServiceCases) {
  test(`isOutOfServiceTerminating: ${c.name}`, () => {
    assert.equal(isOutOfServiceTerminating(c.pod, c.node), c.want);
  });
}
