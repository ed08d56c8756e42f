import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload } from "../../api/index.ts";
import {
  type ClusterQueueBuilder,
  makeClusterQueue,
  makeKueueWorkload,
  makeResourceFlavor,
} from "../../testing/index.ts";
import { QuotaTree, quotaNodeOf } from "../cache/quota.ts";
import { WorkloadInfoCache } from "../cache/workload-info.ts";
import { assignFlavors } from "./flavor-assigner.ts";
import {
  compareCandidates,
  getTargets,
  preemptionMessage,
  type ReservingWorkload,
} from "./preemption.ts";

const flavors = new Map([["default", makeResourceFlavor("default")]]);
const now = Date.parse("2026-01-01T01:00:00Z");

/** A Workload holding `cpu` in `cq`, quota reserved at minute `minute`. */
function running(
  name: string,
  cq: string,
  cpu: string,
  priority: number,
  minute = 0,
): KueueWorkload {
  return makeKueueWorkload(name)
    .uid(`uid-${name}`)
    .priority(priority)
    .podSet("main", 1, { cpu })
    .admitted(cq, "default", `2026-01-01T00:${String(minute).padStart(2, "0")}:00Z`)
    .obj();
}

const pending = (name: string, cpu: string, priority: number) =>
  makeKueueWorkload(name)
    .uid(`uid-${name}`)
    .priority(priority)
    .created("2026-01-01T00:30:00Z")
    .podSet("main", 1, { cpu })
    .obj();

/** Targets (`name:reason`) for `preemptor` in the first ClusterQueue, given the running ones. */
function targetsFor(
  cqs: readonly ClusterQueue[],
  admitted: readonly KueueWorkload[],
  preemptor: KueueWorkload,
): string[] {
  const info = new WorkloadInfoCache();
  const tree = new QuotaTree();
  for (const cq of cqs) tree.add(quotaNodeOf(cq));
  const reserving = new Map<string, ReservingWorkload[]>();
  for (const w of admitted) {
    const cqName = w.status?.admission?.clusterQueue ?? "";
    const usage = info.usage(w);
    const node = tree.nodes.get(cqName);
    for (const [k, v] of usage) node?.usage.set(k, (node.usage.get(k) ?? 0) + v);
    const entry = { workload: w, key: `default/${w.metadata.name}`, clusterQueue: cqName, usage };
    reserving.set(cqName, [...(reserving.get(cqName) ?? []), entry]);
  }
  const cq = cqs[0] as ClusterQueue;
  const node = tree.nodes.get(cq.metadata.name ?? "");
  assert.ok(node !== undefined, `the quota tree has a node for ClusterQueue ${cq.metadata.name}`);
  const before = JSON.stringify([...tree.nodes.values()].map((n) => [...n.usage]));
  const assignment = assignFlavors(preemptor, cq, flavors, tree, node, info.requests);
  if (assignment.kind !== "preempt") return [`(${assignment.kind})`];
  const targets = getTargets({
    preemptor,
    cq,
    tree,
    request: assignment.usage,
    needPreemption: assignment.needPreemption,
    reserving: (name) => reserving.get(name) ?? [],
    now,
  });
  const after = JSON.stringify([...tree.nodes.values()].map((n) => [...n.usage]));
  assert.equal(after, before, "the search leaves the snapshot's usage as it found it");
  return targets.map((t) => `${t.victim.workload.metadata.name}:${t.reason}`);
}

const cohortOf = (name: string, configure: (b: ClusterQueueBuilder) => ClusterQueueBuilder) =>
  configure(
    makeClusterQueue(name)
      .cohort("all")
      .resourceGroup({ default: { cpu: "2" } }),
  ).obj();

const minimalSetCases: readonly {
  name: string;
  cqs: ClusterQueue[];
  admitted: KueueWorkload[];
  preemptor: KueueWorkload;
  want: string[];
}[] = [
  {
    // Kueue's preemption_test.go: alpha reclaims from beta and preempts its own low workload;
    // beta-high is put back because alpha fits without evicting it.
    name: "reclaims from a borrowing ClusterQueue and keeps what it can put back (Kueue's example)",
    cqs: [
      cohortOf("alpha", (b) =>
        b.preemption({ withinClusterQueue: "LowerPriority", reclaimWithinCohort: "Any" }),
      ),
      cohortOf("beta", (b) => b),
      cohortOf("gamma", (b) =>
        b.preemption({ withinClusterQueue: "LowerPriority", reclaimWithinCohort: "Any" }),
      ),
    ],
    admitted: [
      running("alpha-low", "alpha", "1", -1),
      running("beta-mid", "beta", "1", 0),
      running("beta-high", "beta", "4", 1),
    ],
    preemptor: pending("alpha-mid", "2", 0),
    want: ["beta-mid:InCohortReclamation", "alpha-low:InClusterQueue"],
  },
  {
    name: "withinClusterQueue LowerPriority evicts the lowest priority first, only as many as needed",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "3" } })
        .preemption({ withinClusterQueue: "LowerPriority" })
        .obj(),
    ],
    admitted: [
      running("low", "cq", "1", 1),
      running("lower", "cq", "1", 0),
      running("mid", "cq", "1", 5),
    ],
    preemptor: pending("high", "1", 10),
    want: ["lower:InClusterQueue"],
  },
  {
    name: "among equal priorities the most recently reserved goes first",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "2" } })
        .preemption({ withinClusterQueue: "LowerPriority" })
        .obj(),
    ],
    admitted: [running("older", "cq", "1", 0, 1), running("newer", "cq", "1", 0, 5)],
    preemptor: pending("high", "1", 10),
    want: ["newer:InClusterQueue"],
  },
  {
    name: "withinClusterQueue LowerPriority does not evict an equal priority",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "1" } })
        .preemption({ withinClusterQueue: "LowerPriority" })
        .obj(),
    ],
    admitted: [running("same", "cq", "1", 5)],
    preemptor: pending("new", "1", 5),
    want: [],
  },
  {
    name: "withinClusterQueue LowerOrNewerEqualPriority evicts an equal priority queued later",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "1" } })
        .preemption({ withinClusterQueue: "LowerOrNewerEqualPriority" })
        .obj(),
    ],
    admitted: [
      makeKueueWorkload("later")
        .uid("uid-later")
        .priority(5)
        .created("2026-01-01T00:45:00Z")
        .podSet("main", 1, { cpu: "1" })
        .admitted("cq", "default", "2026-01-01T00:46:00Z")
        .obj(),
    ],
    preemptor: pending("earlier", "1", 5),
    want: ["later:InClusterQueue"],
  },
  {
    name: "withinClusterQueue Never evicts nothing",
    cqs: [
      makeClusterQueue("cq")
        .resourceGroup({ default: { cpu: "1" } })
        .obj(),
    ],
    admitted: [running("low", "cq", "1", 0)],
    preemptor: pending("high", "1", 10),
    want: [],
  },
  {
    name: "reclaimWithinCohort LowerPriority leaves a higher-priority borrower alone",
    cqs: [
      cohortOf("a", (b) => b.preemption({ reclaimWithinCohort: "LowerPriority" })),
      cohortOf("b", (b) => b),
    ],
    admitted: [running("b-high", "b", "3", 10), running("b-more", "b", "1", 10)],
    preemptor: pending("a", "1", 5),
    want: [],
  },
  {
    name: "reclaimWithinCohort Any reclaims from a borrower whatever its priority",
    cqs: [
      cohortOf("a", (b) => b.preemption({ reclaimWithinCohort: "Any" })),
      cohortOf("b", (b) => b),
    ],
    admitted: [running("b-high", "b", "3", 10), running("b-more", "b", "1", 10, 3)],
    preemptor: pending("a", "1", 5),
    want: ["b-more:InCohortReclamation"],
  },
  {
    name: "a ClusterQueue within its nominal quota is never reclaimed from",
    cqs: [
      cohortOf("a", (b) => b.preemption({ reclaimWithinCohort: "Any" })),
      cohortOf("b", (b) => b),
      cohortOf("c", (b) => b),
    ],
    admitted: [
      running("a-own", "a", "2", 0),
      running("b-own", "b", "2", 0),
      running("c-own", "c", "2", 0),
    ],
    preemptor: pending("a-more", "2", 5),
    want: [],
  },
];

for (const c of minimalSetCases) {
  test(`getTargets: ${c.name}`, () => {
    assert.deepEqual(targetsFor(c.cqs, c.admitted, c.preemptor), c.want);
  });
}

// a uses its whole nominal quota; b borrows 2 of c's. One more CPU in a can only come from
// borrowing, so it may evict b's workloads only if borrowWithinCohort allows it.
const borrowing = (policy: "Never" | "LowerPriority") =>
  targetsFor(
    [
      cohortOf("a", (b) =>
        b.preemption({ reclaimWithinCohort: "Any", borrowWithinCohort: { policy } }),
      ),
      cohortOf("b", (b) => b),
      cohortOf("c", (b) => b),
    ],
    [
      running("a-own", "a", "2", 0),
      running("b-borrow", "b", "3", 0, 2),
      running("b-more", "b", "1", 0, 3),
    ],
    pending("a-more", "1", 5),
  );

test("getTargets: borrowWithinCohort LowerPriority lets a borrowing preemptor evict lower priorities elsewhere", () => {
  assert.deepEqual(borrowing("LowerPriority"), ["b-more:InCohortReclaimWhileBorrowing"]);
});

test("getTargets: a workload that would have to borrow preempts nobody when borrowWithinCohort is Never", () => {
  assert.deepEqual(borrowing("Never"), []);
});

const entry = (w: KueueWorkload, cq: string): ReservingWorkload => ({
  workload: w,
  key: `default/${w.metadata.name}`,
  clusterQueue: cq,
  usage: new Map(),
});

const orderingCases = [
  {
    name: "already evicted before everything else",
    a: entry(
      makeKueueWorkload("a")
        .priority(100)
        .admitted("own")
        .condition("Evicted", "True", "Preempted")
        .obj(),
      "own",
    ),
    b: entry(running("b", "other", "1", 0), "other"),
  },
  {
    name: "another ClusterQueue's workload before the preemptor's own",
    a: entry(running("a", "other", "1", 100), "other"),
    b: entry(running("b", "own", "1", 0), "own"),
  },
  {
    name: "lower priority first",
    a: entry(running("a", "own", "1", 1), "own"),
    b: entry(running("b", "own", "1", 2), "own"),
  },
  {
    name: "more recently reserved first",
    a: entry(running("a", "own", "1", 1, 30), "own"),
    b: entry(running("b", "own", "1", 1, 10), "own"),
  },
  {
    name: "then by UID",
    a: entry(running("a", "own", "1", 1, 10), "own"),
    b: entry(running("b", "own", "1", 1, 10), "own"),
  },
] as const;

for (const c of orderingCases) {
  test(`compareCandidates: ${c.name}`, () => {
    assert.ok(compareCandidates(c.a, c.b, "own", now) < 0, "a goes first");
    assert.ok(compareCandidates(c.b, c.a, "own", now) > 0, "b goes second");
  });
}

test("preemptionMessage: names the preemptor's UID and job UID, UNKNOWN when missing", () => {
  const withJob = makeKueueWorkload("p")
    .uid("wl-uid")
    .label("kueue.x-k8s.io/job-uid", "pod-uid")
    .obj();
  assert.equal(
    preemptionMessage(withJob, "InClusterQueue"),
    "Preempted to accommodate a workload (UID: wl-uid, JobUID: pod-uid) due to prioritization in the ClusterQueue",
  );
  assert.equal(
    preemptionMessage(makeKueueWorkload("q").uid("").obj(), "InCohortReclamation"),
    "Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to reclamation within the cohort",
  );
});
