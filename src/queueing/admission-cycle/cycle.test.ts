import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload, LocalQueue } from "../../api/index.ts";
import {
  makeClusterQueue,
  makeKueueWorkload,
  makeLocalQueue,
  makeResourceFlavor,
} from "../../testing/index.ts";
import { planCycle } from "./cycle.ts";

function plan(
  cq: ClusterQueue,
  workloads: KueueWorkload[],
  lqs: LocalQueue[] = [makeLocalQueue("lq", "default", "cq")],
) {
  return planCycle({
    clusterQueues: [cq],
    localQueues: lqs,
    flavors: new Map([["default", makeResourceFlavor("default")]]),
    workloads,
    namespaceLabels: () => ({ "kubernetes.io/metadata.name": "default" }),
  });
}

const wl = (name: string, cpu: string, priority: number) =>
  makeKueueWorkload(name).queue("lq").priority(priority).podSet("main", 1, { cpu }).obj();

// Kueue's StrictFIFO scenario: wl2 (5 CPU, priority 10) does not fit and blocks wl3 (1 CPU).
const cases = [
  {
    name: "StrictFIFO: a head that does not fit blocks the smaller workloads behind it",
    strategy: "StrictFIFO",
    want: { admitted: ["wl1"], pending: 2 },
  },
  {
    name: "BestEffortFIFO: the smaller workload behind an unfitting one is admitted",
    strategy: "BestEffortFIFO",
    want: { admitted: ["wl1", "wl3"], pending: 1 },
  },
] as const;

for (const c of cases) {
  test(`planCycle: ${c.name}`, () => {
    const cq = makeClusterQueue("cq")
      .strategy(c.strategy)
      .resourceGroup({ default: { cpu: "5" } })
      .obj();
    const result = plan(cq, [wl("wl1", "2", 100), wl("wl2", "5", 10), wl("wl3", "1", 1)]);
    assert.deepEqual(
      result.admissions.map((a) => a.workload.metadata.name),
      c.want.admitted,
    );
    assert.equal(result.clusterQueues.get("cq")?.pendingWorkloads, c.want.pending);
  });
}

test("planCycle: a Workload whose LocalQueue does not exist is Inadmissible with Kueue's message", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "5" } })
    .obj();
  const result = plan(cq, [
    makeKueueWorkload("w").queue("missing").podSet("main", 1, { cpu: "1" }).obj(),
  ]);
  assert.deepEqual(
    result.pending.map((p) => [p.reason, p.message]),
    [["Inadmissible", "LocalQueue missing doesn't exist"]],
  );
});

test("planCycle: a ClusterQueue whose flavor is missing is inactive and its workloads wait", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ gone: { cpu: "5" } })
    .obj();
  const result = plan(cq, [wl("w", "1", 0)]);
  assert.deepEqual(
    result.pending.map((p) => p.message),
    ["ClusterQueue cq is inactive"],
  );
  assert.equal(result.clusterQueues.get("cq")?.activeState.reason, "FlavorNotFound");
});

test("planCycle: status counts reservations and lists every flavor's usage", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "5", memory: "1Gi" } })
    .obj();
  const result = plan(cq, [wl("a", "2", 0)]);
  const status = result.clusterQueues.get("cq");
  assert.deepEqual(
    [status?.reservingWorkloads, status?.admittedWorkloads, status?.flavorsReservation],
    [
      1,
      1,
      [
        {
          name: "default",
          resources: [
            { name: "cpu", total: "2", borrowed: "0" },
            { name: "memory", total: "0", borrowed: "0" },
          ],
        },
      ],
    ],
  );
  assert.equal(result.localQueues.get("default/lq")?.admittedWorkloads, 1);
});
