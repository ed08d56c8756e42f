import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload, LocalQueue } from "../../api/index.ts";
import {
  makeClusterQueue,
  makeKueueWorkload,
  makeLocalQueue,
  makeResourceFlavor,
} from "../../testing/index.ts";
import { WorkloadIndex } from "../queue-manager/workload-index.ts";
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
    now: Date.parse("2026-01-01T00:10:00Z"),
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

// Kueue's §14 scenarios: how pending Workloads split between the heap and the parking lot.
const pendingSplit = [
  {
    name: "BestEffortFIFO parks a workload that does not fit as inadmissible",
    strategy: "BestEffortFIFO",
    workloads: () => [
      makeKueueWorkload("running").podSet("main", 1, { cpu: "5" }).admitted("cq").obj(),
      wl("waiting", "5", 0),
    ],
    want: { active: 0, inadmissible: 1 },
  },
  {
    name: "StrictFIFO keeps its blocked head and everything behind it active",
    strategy: "StrictFIFO",
    workloads: () => [wl("wl1", "2", 100), wl("wl2", "5", 10), wl("wl3", "1", 1)],
    want: { active: 2, inadmissible: 0 },
  },
] as const;

for (const c of pendingSplit) {
  test(`planCycle: ${c.name}`, () => {
    const cq = makeClusterQueue("cq")
      .strategy(c.strategy)
      .resourceGroup({ default: { cpu: "5" } })
      .obj();
    assert.deepEqual(plan(cq, [...c.workloads()]).pendingStatus.get("cq"), c.want);
  });
}

const preemptingCq = () =>
  makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "2" } })
    .preemption({ withinClusterQueue: "LowerPriority" })
    .obj();
const low = () =>
  makeKueueWorkload("low")
    .priority(0)
    .podSet("main", 1, { cpu: "2" })
    .admitted("cq", "default", "2026-01-01T00:01:00Z");
const high = () => makeKueueWorkload("high").uid("uid-high").queue("lq").priority(10);

test("planCycle: a higher-priority workload in a full ClusterQueue preempts and holds the queue until it is admitted", () => {
  const result = plan(preemptingCq(), [
    low().obj(),
    high().podSet("main", 1, { cpu: "2" }).obj(),
    wl("small", "1", 5),
  ]);
  assert.deepEqual(
    result.preemptions.map((p) => [
      p.preemptor.metadata.name,
      p.targets.map((t) => `${t.victim.workload.metadata.name}:${t.reason}`),
    ]),
    [["high", ["low:InClusterQueue"]]],
  );
  assert.deepEqual(result.admissions, [], "nothing else in the ClusterQueue goes ahead");
  assert.deepEqual(
    result.pending.map((p) => [p.workload.metadata.name, p.message]),
    [
      [
        "high",
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 2 more needed. Pending the preemption of 1 workload(s)",
      ],
    ],
  );
  assert.deepEqual(result.pendingStatus.get("cq"), { active: 2, inadmissible: 0 });
});

test("planCycle: a preemptor waits on a victim already evicted instead of choosing another", () => {
  const result = plan(preemptingCq(), [
    low().condition("Evicted", "True", "Preempted", "Preempted to accommodate …").obj(),
    makeKueueWorkload("lower")
      .priority(-5)
      .podSet("main", 1, { cpu: "0" })
      .admitted("cq", "default", "2026-01-01T00:02:00Z")
      .obj(),
    high().podSet("main", 1, { cpu: "2" }).obj(),
  ]);
  assert.deepEqual(
    result.preemptions.flatMap((p) => p.targets.map((t) => t.victim.workload.metadata.name)),
    ["low"],
  );
});

test("planCycle: once the victim's reservation is released the preemptor is admitted", () => {
  const released = makeKueueWorkload("low")
    .priority(0)
    .queue("lq")
    .podSet("main", 1, { cpu: "2" })
    .condition("Evicted", "True", "Preempted", "…")
    .condition("QuotaReserved", "False", "Pending", "…")
    .obj();
  const result = plan(preemptingCq(), [released, high().podSet("main", 1, { cpu: "2" }).obj()]);
  assert.deepEqual(
    result.admissions.map((a) => a.workload.metadata.name),
    ["high"],
  );
  assert.deepEqual(result.preemptions, []);
});

test("planCycle: a waiting Workload's message is rewritten only at the head of its ClusterQueue, or the first time it is seen", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "1" } })
    .obj();
  const seen = (name: string, priority: number) =>
    makeKueueWorkload(name)
      .queue("lq")
      .priority(priority)
      .podSet("main", 1, { cpu: "2" })
      .condition("QuotaReserved", "False", "Pending", "an older message")
      .obj();
  const result = plan(cq, [seen("head", 3), seen("second", 2), wl("new", "2", 1)]);
  assert.deepEqual(
    result.pending.map((p) => p.workload.metadata.name),
    ["head", "new"],
  );
});

test("planCycle: parked Workloads are counted, not tried; BestEffortFIFO parks what does not fit", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "2" } })
    .obj();
  const index = WorkloadIndex.of([wl("parked", "1", 9), wl("fits", "2", 5), wl("too-big", "3", 1)]);
  index.park("default/lq", "default/parked", "cq");
  const result = planCycle({
    clusterQueues: [cq],
    localQueues: [makeLocalQueue("lq", "default", "cq")],
    flavors: new Map([["default", makeResourceFlavor("default")]]),
    index,
    namespaceLabels: () => ({}),
    now: Date.parse("2026-01-01T00:10:00Z"),
  });
  assert.deepEqual(
    result.admissions.map((a) => a.workload.metadata.name),
    ["fits"],
    "the parked one (highest priority, would fit) is left alone",
  );
  assert.deepEqual(result.parked, [
    { localQueue: "default/lq", key: "default/too-big", clusterQueue: "cq" },
  ]);
  assert.deepEqual(result.pendingStatus.get("cq"), { active: 0, inadmissible: 2 });
  assert.equal(result.localQueues.get("default/lq")?.pendingWorkloads, 2);
});

test("planCycle: Workloads of every ClusterQueue are tried in one priority order, so a higher priority borrows first", () => {
  const cq = (name: string) =>
    makeClusterQueue(name)
      .cohort("team")
      .resourceGroup({ default: { cpu: "1" } })
      .obj();
  const result = planCycle({
    clusterQueues: [cq("cq-a"), cq("cq-b")],
    localQueues: [
      makeLocalQueue("lq-a", "default", "cq-a"),
      makeLocalQueue("lq-b", "default", "cq-b"),
    ],
    flavors: new Map([["default", makeResourceFlavor("default")]]),
    workloads: [
      makeKueueWorkload("low").queue("lq-a").priority(0).podSet("main", 1, { cpu: "2" }).obj(),
      makeKueueWorkload("high")
        .queue("lq-b")
        .priority(10)
        .created("2026-01-01T00:05:00Z")
        .podSet("main", 1, { cpu: "2" })
        .obj(),
    ],
    namespaceLabels: () => ({}),
    now: Date.parse("2026-01-01T00:10:00Z"),
  });
  assert.deepEqual(
    result.admissions.map((a) => a.workload.metadata.name),
    ["high"],
  );
});

test("planCycle: many Workloads of one shape get the same answer as one by one; messages go to the head and the new ones", () => {
  const cq = makeClusterQueue("cq")
    .resourceGroup({ default: { cpu: "3" } })
    .obj();
  const seen = (i: number) =>
    makeKueueWorkload(`w${i}`)
      .queue("lq")
      .created(`2026-01-01T00:0${i}:00Z`)
      .podSet("main", 1, { cpu: "1" })
      .condition("QuotaReserved", "False", "Pending", "an older message")
      .obj();
  const fresh = (i: number) =>
    makeKueueWorkload(`w${i}`)
      .queue("lq")
      .created(`2026-01-01T00:0${i}:00Z`)
      .podSet("main", 1, { cpu: "1" })
      .obj();
  const result = plan(cq, [0, 1, 2, 3, 4, 5, 6, 8].map(seen).concat([fresh(7), fresh(9)]));
  assert.deepEqual(
    result.admissions.map((a) => a.workload.metadata.name),
    ["w0", "w1", "w2"],
  );
  assert.deepEqual(
    result.parked.map((p) => p.key),
    [
      "default/w3",
      "default/w4",
      "default/w5",
      "default/w6",
      "default/w7",
      "default/w8",
      "default/w9",
    ],
  );
  assert.deepEqual(
    result.pending.map((p) => [p.workload.metadata.name, p.message]),
    [
      [
        "w3",
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed",
      ],
      [
        "w7",
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed",
      ],
      [
        "w9",
        "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed",
      ],
    ],
  );
});
