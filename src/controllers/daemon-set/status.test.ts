import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../../api/index.ts";
import { makeDaemonSet, makeNode, makePod } from "../../testing/index.ts";
import { computeDaemonSetStatus } from "./status.ts";

const now = new Date("2024-06-01T12:00:00Z");
const ready = {
  type: "Ready",
  status: "True" as const,
  lastTransitionTime: "2024-06-01T11:59:30Z",
};

function daemonPod(name: string, hash: string, isReady: boolean): Pod {
  const builder = makePod(name).label("controller-revision-hash", hash).phase("Running");
  return (isReady ? builder.condition(ready) : builder).obj();
}

const nodes = [
  makeNode("n1").obj(),
  makeNode("n2").obj(),
  makeNode("n3").taint("dedicated", "x", "NoSchedule").obj(),
  makeNode("n4").obj(),
];
const podsByNode = new Map([
  ["n1", [daemonPod("a", "new", true)]],
  ["n2", [daemonPod("b", "old", false)]],
  ["n3", [daemonPod("c", "new", true)]],
]);

const cases = [
  {
    name: "counts desired, scheduled, misscheduled, ready, updated and available per node",
    ds: makeDaemonSet("agent").generation(3),
    observe: true,
    want: {
      currentNumberScheduled: 2,
      numberMisscheduled: 1,
      desiredNumberScheduled: 3,
      numberReady: 1,
      observedGeneration: 3,
      updatedNumberScheduled: 1,
      numberAvailable: 1,
      numberUnavailable: 2,
    },
  },
  {
    name: "minReadySeconds keeps a freshly Ready pod unavailable",
    ds: makeDaemonSet("agent").generation(3).minReadySeconds(60),
    observe: true,
    want: {
      currentNumberScheduled: 2,
      numberMisscheduled: 1,
      desiredNumberScheduled: 3,
      numberReady: 1,
      observedGeneration: 3,
      updatedNumberScheduled: 1,
      numberUnavailable: 3,
    },
  },
  {
    name: "keeps the stored observedGeneration while expectations are pending",
    ds: makeDaemonSet("agent").generation(3).status({ observedGeneration: 2 }),
    observe: false,
    want: {
      currentNumberScheduled: 2,
      numberMisscheduled: 1,
      desiredNumberScheduled: 3,
      numberReady: 1,
      observedGeneration: 2,
      updatedNumberScheduled: 1,
      numberAvailable: 1,
      numberUnavailable: 2,
    },
  },
] as const;

for (const c of cases) {
  test(`computeDaemonSetStatus: ${c.name}`, () => {
    const got = computeDaemonSetStatus({
      ds: c.ds.obj(),
      nodes,
      podsByNode,
      hash: "new",
      generation: undefined,
      observeGeneration: c.observe,
      now,
    });
    assert.deepEqual(got, c.want);
  });
}
