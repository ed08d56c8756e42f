import assert from "node:assert/strict";
import { test } from "node:test";
import type { IntOrString, Pod, PodDisruptionBudgetSpec } from "../../api/index.ts";
import { makePdb, makePod } from "../../testing/index.ts";
import {
  buildDisruptedPodMap,
  countHealthyPods,
  expectedPodCount,
  failSafeStatus,
  nextPdbStatus,
} from "./status.ts";

const now = new Date("2026-03-01T12:00:00Z");
const minutesAgo = (m: number): string => new Date(now.getTime() - m * 60_000).toISOString();

function readyPod(name: string, ready = true): Pod {
  return makePod(name)
    .phase("Running")
    .condition({ type: "Ready", status: ready ? "True" : "False" })
    .obj();
}

const scaleCases: readonly {
  name: string;
  spec: PodDisruptionBudgetSpec;
  total: number;
  want: { expected: number; desired: number };
}[] = [
  {
    name: "maxUnavailable 30% of 7 rounds up to 3",
    spec: { maxUnavailable: "30%" },
    total: 7,
    want: { expected: 7, desired: 4 },
  },
  {
    name: "maxUnavailable 30% of 3 rounds up to 1",
    spec: { maxUnavailable: "30%" },
    total: 3,
    want: { expected: 3, desired: 2 },
  },
  {
    name: "minAvailable 34% of 3 rounds up to 2",
    spec: { minAvailable: "34%" },
    total: 3,
    want: { expected: 3, desired: 2 },
  },
  {
    name: "minAvailable 28% of 11 rounds up to 4",
    spec: { minAvailable: "28%" },
    total: 11,
    want: { expected: 11, desired: 4 },
  },
  {
    name: "minAvailable 28% of 22 rounds up to 7",
    spec: { minAvailable: "28%" },
    total: 22,
    want: { expected: 22, desired: 7 },
  },
  {
    name: "minAvailable 1% of 1 is 1",
    spec: { minAvailable: "1%" },
    total: 1,
    want: { expected: 1, desired: 1 },
  },
  {
    name: "maxUnavailable 2 of 7 leaves 5",
    spec: { maxUnavailable: 2 },
    total: 7,
    want: { expected: 7, desired: 5 },
  },
  {
    name: "maxUnavailable above the scale clamps desired to 0",
    spec: { maxUnavailable: 9 },
    total: 3,
    want: { expected: 3, desired: 0 },
  },
  {
    name: "integer minAvailable counts the selected pods, not the scale",
    spec: { minAvailable: 5 },
    total: 100,
    want: { expected: 2, desired: 5 },
  },
  {
    name: "neither field set expects nothing",
    spec: {},
    total: 4,
    want: { expected: 0, desired: 0 },
  },
];

for (const c of scaleCases) {
  test(`expectedPodCount: ${c.name}`, async () => {
    const got = await expectedPodCount(c.spec, 2, () => ({ expected: c.total, unmanaged: [] }));
    assert.deepEqual({ expected: got.expected, desired: got.desired }, c.want);
  });
}

test("expectedPodCount: an integer minAvailable never asks the controllers", async () => {
  const got = await expectedPodCount({ minAvailable: 1 as IntOrString }, 3, () => {
    throw new RangeError('found no controllers for pod "naked"');
  });
  assert.deepEqual(got, { expected: 3, desired: 1, unmanaged: [] });
});

test("buildDisruptedPodMap: keeps fresh entries, drops terminating, expired and absent pods", () => {
  const pdb = makePdb("p")
    .status({
      disruptedPods: {
        p1: minutesAgo(1),
        p2: minutesAgo(3),
        p3: minutesAgo(1),
        notthere: minutesAgo(1),
      },
    })
    .obj();
  const pods = [makePod("p1").terminating().obj(), makePod("p2").obj(), makePod("p3").obj()];
  const got = buildDisruptedPodMap(pods, pdb, now);
  assert.deepEqual(got.disrupted, { p3: minutesAgo(1) });
  assert.deepEqual(
    got.expired.map((p) => p.metadata.name),
    ["p2"],
  );
  assert.equal(got.recheckAt?.toISOString(), new Date(now.getTime() + 60_000).toISOString());
});

const healthyCases = [
  {
    name: "counts Ready pods only",
    pods: [readyPod("a"), readyPod("b", false)],
    disrupted: {},
    want: 1,
  },
  {
    name: "skips terminating pods",
    pods: [makePod("a").terminating().condition({ type: "Ready", status: "True" }).obj()],
    disrupted: {},
    want: 0,
  },
  {
    name: "skips pods in disruptedPods",
    pods: [readyPod("a"), readyPod("b")],
    disrupted: { a: minutesAgo(1) },
    want: 1,
  },
] as const;

for (const c of healthyCases) {
  test(`countHealthyPods: ${c.name}`, () => {
    assert.equal(countHealthyPods(c.pods, c.disrupted, now), c.want);
  });
}

test("nextPdbStatus: allows healthy − desired and sets SufficientPods", () => {
  const pdb = makePdb("p").generation(3).obj();
  const got = nextPdbStatus(
    pdb,
    { currentHealthy: 3, desiredHealthy: 1, expectedPods: 3, disruptedPods: {} },
    now,
  );
  assert.deepEqual(got, {
    observedGeneration: 3,
    disruptionsAllowed: 2,
    currentHealthy: 3,
    desiredHealthy: 1,
    expectedPods: 3,
    conditions: [
      {
        type: "DisruptionAllowed",
        status: "True",
        reason: "SufficientPods",
        message: "",
        observedGeneration: 3,
        lastTransitionTime: now.toISOString().replace(".000", ""),
      },
    ],
  });
});

test("nextPdbStatus: no pods expected allows nothing even with healthy pods", () => {
  const got = nextPdbStatus(
    makePdb("p").obj(),
    { currentHealthy: 2, desiredHealthy: 0, expectedPods: 0, disruptedPods: {} },
    now,
  );
  assert.equal(got?.disruptionsAllowed, 0);
  assert.equal(got?.conditions?.[0]?.reason, "InsufficientPods");
});

test("nextPdbStatus: nothing to write when counters, generation and condition are current", () => {
  const pdb = makePdb("p")
    .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 })
    .condition({
      type: "DisruptionAllowed",
      status: "True",
      reason: "SufficientPods",
      message: "",
      lastTransitionTime: minutesAgo(5),
    })
    .obj();
  assert.equal(
    nextPdbStatus(
      pdb,
      { currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, disruptedPods: {} },
      now,
    ),
    undefined,
  );
});

test("nextPdbStatus: keeps other conditions and the transition time when the status holds", () => {
  const pdb = makePdb("p")
    .status({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 })
    .condition({
      type: "Custom",
      status: "True",
      reason: "Mine",
      message: "",
      lastTransitionTime: minutesAgo(9),
    })
    .condition({
      type: "DisruptionAllowed",
      status: "True",
      reason: "SufficientPods",
      message: "",
      lastTransitionTime: minutesAgo(5),
    })
    .obj();
  const got = nextPdbStatus(
    pdb,
    { currentHealthy: 3, desiredHealthy: 1, expectedPods: 3, disruptedPods: {} },
    now,
  );
  assert.deepEqual(
    got?.conditions?.map((c) => [c.type, c.lastTransitionTime]),
    [
      ["Custom", minutesAgo(9)],
      ["DisruptionAllowed", minutesAgo(5)],
    ],
  );
});

test("failSafeStatus: zero allowed and SyncFailed, counters and observedGeneration kept", () => {
  const pdb = makePdb("p")
    .generation(2)
    .status({
      observedGeneration: 1,
      disruptionsAllowed: 2,
      currentHealthy: 3,
      desiredHealthy: 1,
      expectedPods: 3,
    })
    .obj();
  const got = failSafeStatus(pdb, 'found no controllers for pod "x"', now);
  assert.deepEqual(
    {
      ...got,
      conditions: got.conditions?.map((c) => [c.status, c.reason, c.message, c.observedGeneration]),
    },
    {
      observedGeneration: 1,
      disruptionsAllowed: 0,
      currentHealthy: 3,
      desiredHealthy: 1,
      expectedPods: 3,
      conditions: [["False", "SyncFailed", 'found no controllers for pod "x"', 1]],
    },
  );
});
