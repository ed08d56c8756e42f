import assert from "node:assert/strict";
import { test } from "node:test";
import { makeDeployment, makePod, makeReplicaSet } from "../../testing/index.ts";
import {
  findActiveOrLatest,
  isScalingEvent,
  oldPodsRunning,
  planHistoryCleanup,
  planNewReplicaSetScale,
  planOldReplicaSetsScaleDown,
  planProportionalScale,
  planRecreateScaleDown,
  type ScaleStep,
} from "./plan.ts";

const steps = (list: readonly ScaleStep[] | undefined) =>
  list?.map((s) => `${s.rs.metadata.name}→${s.replicas}`);

const newScaleCases = [
  {
    name: "grows by maxSurge while the old ReplicaSet is full",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(1, 0),
    old: makeReplicaSet("old").replicas(3),
    newRs: makeReplicaSet("new").replicas(0),
    want: ["new→1"],
  },
  {
    name: "waits while replicas + maxSurge pods exist",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(1, 0),
    old: makeReplicaSet("old").replicas(3),
    newRs: makeReplicaSet("new").replicas(1),
    want: undefined,
  },
  {
    name: "shrinks a new ReplicaSet larger than the Deployment",
    deployment: makeDeployment("web").replicas(2),
    old: makeReplicaSet("old").replicas(0),
    newRs: makeReplicaSet("new").replicas(5),
    want: ["new→2"],
  },
] as const;

for (const c of newScaleCases) {
  test(`planNewReplicaSetScale: ${c.name}`, () => {
    const newRs = c.newRs.obj();
    const got = planNewReplicaSetScale([c.old.obj(), newRs], newRs, c.deployment.obj());
    assert.deepEqual(steps(got === undefined ? undefined : [got]), c.want);
  });
}

const oldScaleCases = [
  {
    name: "nothing while the new pod is not available (maxUnavailable 0)",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(1, 0),
    old: [makeReplicaSet("old").replicas(3).running(3)],
    newRs: makeReplicaSet("new").replicas(1).status({ replicas: 1 }),
    want: [],
  },
  {
    name: "one old pod per available new pod (maxUnavailable 0)",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(1, 0),
    old: [makeReplicaSet("old").replicas(3).running(3)],
    newRs: makeReplicaSet("new").replicas(1).running(1),
    want: ["old→2"],
  },
  {
    name: "unhealthy old replicas go first without touching availability",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(1, 1),
    old: [
      makeReplicaSet("old")
        .replicas(3)
        .status({ replicas: 3, readyReplicas: 1, availableReplicas: 1 }),
    ],
    newRs: makeReplicaSet("new").replicas(1).status({ replicas: 1 }),
    want: ["old→2"],
  },
  {
    name: "maxUnavailable lets old pods go before new ones are ready",
    deployment: makeDeployment("web").replicas(4).rollingUpdate(0, 2),
    old: [makeReplicaSet("old").replicas(4).running(4)],
    newRs: makeReplicaSet("new").replicas(0),
    want: ["old→2"],
  },
  {
    name: "the oldest ReplicaSet shrinks first",
    deployment: makeDeployment("web").replicas(4).rollingUpdate(0, 1),
    old: [
      makeReplicaSet("b").creationTimestamp("2024-01-02T00:00:00Z").replicas(2).running(2),
      makeReplicaSet("a").creationTimestamp("2024-01-01T00:00:00Z").replicas(2).running(2),
    ],
    newRs: makeReplicaSet("new").replicas(0),
    want: ["a→1"],
  },
] as const;

for (const c of oldScaleCases) {
  test(`planOldReplicaSetsScaleDown: ${c.name}`, () => {
    const newRs = c.newRs.obj();
    const old = c.old.map((b) => b.obj());
    assert.deepEqual(
      steps(planOldReplicaSetsScaleDown([...old, newRs], old, newRs, c.deployment.obj())),
      c.want,
    );
  });
}

test("findActiveOrLatest: the newest old ReplicaSet when none is active", () => {
  const a = makeReplicaSet("a").replicas(0).creationTimestamp("2024-01-01T00:00:00Z").obj();
  const b = makeReplicaSet("b").replicas(0).creationTimestamp("2024-01-02T00:00:00Z").obj();
  assert.equal(findActiveOrLatest(undefined, [a, b])?.metadata.name, "b");
  assert.equal(findActiveOrLatest(undefined, []), undefined);
});

const max = (n: number) => ["deployment.kubernetes.io/max-replicas", String(n)] as const;

const proportionalCases = [
  {
    name: "one active ReplicaSet takes every replica",
    deployment: makeDeployment("web").replicas(5),
    newRs: makeReplicaSet("new").replicas(3),
    old: [makeReplicaSet("old").replicas(0)],
    want: ["new→5"],
  },
  {
    name: "a resize mid-rollout is spread by each ReplicaSet's share",
    deployment: makeDeployment("web").replicas(20).rollingUpdate("25%", "25%"),
    newRs: makeReplicaSet("new")
      .replicas(5)
      .creationTimestamp("2024-01-02T00:00:00Z")
      .annotation(...max(13)),
    old: [
      makeReplicaSet("old")
        .replicas(8)
        .annotation(...max(13)),
    ],
    want: ["old→15", "new→10"],
  },
  {
    name: "scaling down spreads the cut and takes the leftover from the older ReplicaSet",
    deployment: makeDeployment("web").replicas(5).rollingUpdate(0, 1),
    newRs: makeReplicaSet("new")
      .replicas(5)
      .creationTimestamp("2024-01-02T00:00:00Z")
      .annotation(...max(10)),
    old: [
      makeReplicaSet("old")
        .replicas(5)
        .annotation(...max(10)),
    ],
    want: ["old→2", "new→3"],
  },
  {
    name: "a saturated new ReplicaSet scales old ones to 0",
    deployment: makeDeployment("web").replicas(2),
    newRs: makeReplicaSet("new")
      .replicas(2)
      .annotation("deployment.kubernetes.io/desired-replicas", "2")
      .running(2),
    old: [makeReplicaSet("old").replicas(1)],
    want: ["old→0"],
  },
] as const;

for (const c of proportionalCases) {
  test(`planProportionalScale: ${c.name}`, () => {
    const got = planProportionalScale(
      c.deployment.obj(),
      c.newRs.obj(),
      c.old.map((b) => b.obj()),
    );
    assert.deepEqual(steps(got), c.want);
  });
}

test("isScalingEvent: an active ReplicaSet annotated for another size", () => {
  const d = makeDeployment("web").replicas(3).obj();
  const annotated = (n: string) =>
    makeReplicaSet("rs").replicas(2).annotation("deployment.kubernetes.io/desired-replicas", n);
  assert.deepEqual(
    [
      isScalingEvent(d, [annotated("2").obj()]),
      isScalingEvent(d, [annotated("3").obj()]),
      isScalingEvent(d, [annotated("2").replicas(0).obj(), undefined]),
    ],
    [true, false, false],
  );
});

test("planHistoryCleanup: the lowest revisions beyond the limit, skipping ones with pods", () => {
  const old = (name: string, revision: number, replicas = 0) =>
    makeReplicaSet(name)
      .revision(revision)
      .replicas(replicas)
      .status({ replicas, observedGeneration: 1 })
      .obj();
  const d = makeDeployment("web").revisionHistoryLimit(1).obj();
  const got = planHistoryCleanup([old("r3", 3), old("r1", 1, 1), old("r2", 2), old("r4", 4)], d);
  assert.deepEqual(
    got.map((rs) => rs.metadata.name),
    ["r2", "r3"],
  );
});

test("planRecreateScaleDown: every old ReplicaSet with replicas goes to 0", () => {
  const got = planRecreateScaleDown([
    makeReplicaSet("a").replicas(2).obj(),
    makeReplicaSet("b").replicas(0).obj(),
  ]);
  assert.deepEqual(steps(got), ["a→0"]);
});

test("oldPodsRunning: counts old ReplicaSets and non-terminal pods outside the new one", () => {
  const newRs = makeReplicaSet("new").uid("n").obj();
  const empty = makeReplicaSet("old").uid("o").replicas(0).obj();
  const running = makePod("p").phase("Running").obj();
  const done = makePod("q").phase("Succeeded").obj();
  assert.deepEqual(
    [
      oldPodsRunning(newRs, [empty], new Map([["n", [running]]])),
      oldPodsRunning(newRs, [empty], new Map([["o", [done]]])),
      oldPodsRunning(newRs, [empty], new Map([["o", [running]]])),
      oldPodsRunning(newRs, [makeReplicaSet("x").status({ replicas: 1 }).obj()], new Map()),
    ],
    [false, false, true, true],
  );
});
