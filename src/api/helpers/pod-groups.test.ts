import assert from "node:assert/strict";
import { test } from "node:test";
import { makePod, makePodGroup, makeWorkload } from "../../testing/index.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import type { PodGroup } from "../scheduling/v1alpha1/pod-group.ts";
import type { Workload } from "../scheduling/v1alpha1/workload.ts";
import {
  countPodGroups,
  type PodGroupSource,
  tallyPodGroups,
  workloadRefKey,
} from "./pod-groups.ts";

function ready(pod: ReturnType<typeof makePod>, isReady = true): Pod {
  return pod
    .phase("Running")
    .condition({ type: "Ready", status: isReady ? "True" : "False" })
    .obj();
}

/** A source over fixed objects that counts how often each lookup is made. */
function sourceOf(workloads: Workload[], groups: PodGroup[]) {
  const calls = { workload: 0, podGroup: 0 };
  const source: PodGroupSource = {
    workload: (name) => {
      calls.workload++;
      return workloads.find((w) => w.metadata.name === name);
    },
    podGroup: (name) => {
      calls.podGroup++;
      return groups.find((g) => g.metadata.name === name);
    },
    podGroupsOf: (workload, template) =>
      groups.filter(
        (g) => g.spec.workloadRef.name === workload && g.spec.podGroupTemplateName === template,
      ),
  };
  return { source, calls };
}

const train = makeWorkload("train").template("worker", 2).obj();
const legacy = makeWorkload("legacy").group("g", 2, 3).obj();
const threeGroups = ["a", "b", "c"].map((g) => makePodGroup(g, "train").obj());

const cases = [
  {
    name: "PodGroup objects count one replica each, with pods or not",
    pods: [
      ready(makePod("a1").podGroup("train", "a")),
      ready(makePod("a2").podGroup("train", "a")),
      ready(makePod("b1").podGroup("train", "b")),
      ready(makePod("b2").podGroup("train", "b"), false),
    ],
    disrupted: {},
    want: { expected: 3, healthy: 1, ungrouped: [], invalid: [], missing: undefined },
  },
  {
    name: "a pod in disruptedPods does not count toward its group",
    pods: [
      ready(makePod("a1").podGroup("train", "a")),
      ready(makePod("a2").podGroup("train", "a")),
    ],
    disrupted: { a2: "2026-01-01T00:00:00Z" },
    want: { expected: 3, healthy: 0, ungrouped: [], invalid: [], missing: undefined },
  },
  {
    name: "legacy groups count the Workload's replicas",
    pods: [
      ready(makePod("r0a").workloadGroup("legacy", "g", "0")),
      ready(makePod("r0b").workloadGroup("legacy", "g", "0")),
      ready(makePod("r1a").workloadGroup("legacy", "g", "1")),
    ],
    disrupted: {},
    want: { expected: 3, healthy: 1, ungrouped: [], invalid: [], missing: undefined },
  },
  {
    name: "pods without workloadRef are single-pod groups, refs without a group are invalid",
    pods: [
      ready(makePod("a1").podGroup("train", "a")),
      ready(makePod("a2").podGroup("train", "a")),
      ready(makePod("naked")),
      (() => {
        const pod = ready(makePod("nogroup"));
        pod.spec.workloadRef = { name: "train" };
        return pod;
      })(),
    ],
    disrupted: {},
    want: {
      expected: 5,
      healthy: 2,
      ungrouped: ["naked"],
      invalid: ["nogroup"],
      missing: undefined,
    },
  },
  {
    name: "a missing PodGroup is reported by name",
    pods: [ready(makePod("x1").podGroup("train", "gone"))],
    disrupted: {},
    want: {
      expected: 0,
      healthy: 0,
      ungrouped: [],
      invalid: [],
      missing: 'PodGroup "gone" not found',
    },
  },
] as const;

for (const c of cases) {
  test(`countPodGroups: ${c.name}`, () => {
    const { source } = sourceOf([train, legacy], threeGroups);
    const got = countPodGroups(c.pods, source, c.disrupted);
    assert.deepEqual(
      {
        expected: got.expected,
        healthy: got.healthy,
        ungrouped: got.ungroupedPods,
        invalid: got.invalidPods,
        missing: got.missing,
      },
      c.want,
    );
  });
}

test("tallyPodGroups: resolves each distinct workloadRef once", () => {
  const { source, calls } = sourceOf([train], threeGroups);
  const pods = Array.from({ length: 30 }, (_, i) =>
    ready(makePod(`p${i}`).podGroup("train", ["a", "b", "c"][i % 3] ?? "a")),
  );
  const tally = tallyPodGroups(pods, source, {});
  assert.deepEqual(
    { groups: tally.groups.size, podGroupLookups: calls.podGroup, workloadLookups: calls.workload },
    { groups: 3, podGroupLookups: 3, workloadLookups: 3 },
  );
  assert.deepEqual(
    [...tally.groups.values()].map((g) => [g.key, g.pods.length, g.healthyPods]),
    [
      ["podgroup/a", 10, 10],
      ["podgroup/b", 10, 10],
      ["podgroup/c", 10, 10],
    ],
  );
});

test("workloadRefKey: equal only for references to the same group", () => {
  const key = (pod: Pod) => workloadRefKey(pod.spec.workloadRef ?? { name: "" });
  const a = makePod("a").podGroup("train", "a").obj();
  const a2 = makePod("a2").podGroup("train", "a").obj();
  const b = makePod("b").podGroup("train", "b").obj();
  const r0 = makePod("r0").workloadGroup("train", "a", "0").obj();
  const r1 = makePod("r1").workloadGroup("train", "a", "1").obj();
  assert.deepEqual(
    [key(a) === key(a2), key(a) === key(b), key(a) === key(r0), key(r0) === key(r1)],
    [true, false, false, false],
  );
});
