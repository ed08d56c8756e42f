import assert from "node:assert/strict";
import { test } from "node:test";
import { Diagnosis, fitErrorMessage } from "./fit-error.ts";
import { unresolvable, unschedulable } from "./status.ts";

test("fitErrorMessage: a sorted histogram of node reasons, then the preemption message", () => {
  const d = new Diagnosis();
  d.nodeToStatus.set(
    "cp",
    unresolvable("node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"),
  );
  d.nodeToStatus.set("w1", unschedulable("Insufficient cpu"));
  d.nodeToStatus.set("w2", unschedulable("Insufficient cpu", "Insufficient memory"));
  d.postFilterMsg =
    "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  assert.equal(
    fitErrorMessage(3, d),
    "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
  );
});

test("fitErrorMessage: a PreFilter rejection replaces the node reasons", () => {
  const d = new Diagnosis();
  d.preFilterMsg = "pod affinity terms conflict";
  d.nodeToStatus.setAbsentNodesStatus(unresolvable("pod affinity terms conflict"));
  assert.equal(fitErrorMessage(5, d), "0/5 nodes are available: pod affinity terms conflict.");
});

test("fitErrorMessage: nodes never evaluated count with the absent status", () => {
  const d = new Diagnosis();
  d.nodeToStatus.set("n1", unresolvable("node(s) didn't match Pod's node affinity/selector"));
  d.nodeToStatus.setAbsentNodesStatus(
    unresolvable("node(s) didn't satisfy plugin(s) [NodeAffinity]"),
  );
  assert.equal(
    fitErrorMessage(4, d),
    "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 3 node(s) didn't satisfy plugin(s) [NodeAffinity].",
  );
});

test("fitErrorMessage: no reasons at all leaves just the count", () => {
  assert.equal(fitErrorMessage(0, new Diagnosis()), "0/0 nodes are available:");
});
