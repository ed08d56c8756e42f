import assert from "node:assert/strict";
import { test } from "node:test";
import { type Pod, type PodGroup, workloadRefKey } from "../../../api/index.ts";
import {
  makePdb,
  makePod,
  makePodGroup,
  makeWorkload,
  type PdbBuilder,
} from "../../../testing/index.ts";
import { decideForGroups, type GroupSnapshot } from "./groups.ts";

const now = new Date("2026-11-23T12:00:00Z");
const workload = makeWorkload("train").template("worker", 3).obj();
const podGroups: PodGroup[] = ["a", "b"].map((g) => makePodGroup(g, "train").obj());

/** A Running pod of group `group` (undefined: no workloadRef), Ready unless told. */
function member(
  name: string,
  group: string | undefined,
  options: { ready?: boolean; app?: string } = {},
): Pod {
  const builder = makePod(name)
    .label("app", options.app ?? "train")
    .phase("Running")
    .condition({ type: "Ready", status: options.ready === false ? "False" : "True" });
  if (group !== undefined) builder.podGroup("train", group);
  return builder.obj();
}

/** The snapshot the API server's watch cache would give over `pods`. */
function snapshotOf(pods: readonly Pod[]): GroupSnapshot {
  return {
    mates: (pod) => {
      const ref = pod.spec.workloadRef;
      if (ref === undefined) return [];
      return pods.filter(
        (p) =>
          p.spec.workloadRef !== undefined &&
          workloadRefKey(p.spec.workloadRef) === workloadRefKey(ref),
      );
    },
    someGrouped: (selected) => pods.some((p) => p.spec.workloadRef !== undefined && selected(p)),
    source: {
      workload: (name) => (name === "train" ? workload : undefined),
      podGroup: (name) => podGroups.find((g) => g.metadata.name === name),
      podGroupsOf: () => podGroups,
    },
  };
}

const budget = (status: { currentHealthy: number; desiredHealthy: number }): PdbBuilder =>
  makePdb("train")
    .matchLabels({ app: "train" })
    .maxUnavailable(1)
    .usePodGroups()
    .status({ disruptionsAllowed: 1, expectedPods: 2, ...status });

const healthy = { currentHealthy: 2, desiredHealthy: 1 };
const broken = { currentHealthy: 1, desiredHealthy: 1 };

const cases = [
  {
    name: "a pod of a group above minCount is free",
    pods: [member("a1", "a"), member("a2", "a"), member("a3", "a"), member("a4", "a")],
    evict: "a1",
    pdb: budget(healthy),
    want: "free",
  },
  {
    name: "a pod of a group at minCount spends budget",
    pods: [member("a1", "a"), member("a2", "a"), member("a3", "a")],
    evict: "a1",
    pdb: budget(healthy),
    want: "spend",
  },
  {
    name: "a mate the budget does not select does not count toward the group",
    pods: [
      member("a1", "a"),
      member("a2", "a"),
      member("a3", "a"),
      member("a4", "a", { app: "other" }),
    ],
    evict: "a1",
    pdb: budget(healthy),
    want: "spend",
  },
  {
    name: "a mate in disruptedPods does not count toward the group",
    pods: [member("a1", "a"), member("a2", "a"), member("a3", "a"), member("a4", "a")],
    evict: "a1",
    pdb: budget(healthy).status({
      disruptionsAllowed: 1,
      expectedPods: 2,
      ...healthy,
      disruptedPods: { a4: "2026-11-23T11:59:00Z" },
    }),
    want: "spend",
  },
  {
    name: "an expired disruptedPods entry counts the mate again",
    pods: [member("a1", "a"), member("a2", "a"), member("a3", "a"), member("a4", "a")],
    evict: "a1",
    pdb: budget(healthy).status({
      disruptionsAllowed: 1,
      expectedPods: 2,
      ...healthy,
      disruptedPods: { a4: "2026-11-23T11:50:00Z" },
    }),
    want: "free",
  },
  {
    name: "an unready pod of a healthy group is free",
    pods: [
      member("a1", "a", { ready: false }),
      member("a2", "a"),
      member("a3", "a"),
      member("a4", "a"),
    ],
    evict: "a1",
    pdb: budget(healthy),
    want: "free",
  },
  {
    name: "a pod of a broken group goes without budget while the budget is met",
    pods: [member("a1", "a"), member("a2", "a")],
    evict: "a1",
    pdb: budget(broken),
    want: "unhealthy",
  },
  {
    name: "a pod of a broken group spends budget when the budget is not met",
    pods: [member("a1", "a"), member("a2", "a")],
    evict: "a1",
    pdb: budget({ currentHealthy: 0, desiredHealthy: 1 }),
    want: "spend",
  },
  {
    name: "AlwaysAllow lets a pod of a broken group go",
    pods: [member("a1", "a"), member("a2", "a")],
    evict: "a1",
    pdb: budget({ currentHealthy: 0, desiredHealthy: 1 }).unhealthyPodEvictionPolicy("AlwaysAllow"),
    want: "unhealthy",
  },
  {
    name: "no selected pod in a group: decide per pod",
    pods: [member("x", undefined), member("y", undefined), member("a1", "a", { app: "other" })],
    evict: "x",
    pdb: budget(healthy),
    want: "perPod",
  },
  {
    name: "a pod without workloadRef beside grouped pods is a group of its own",
    pods: [member("x", undefined), member("a1", "a"), member("a2", "a"), member("a3", "a")],
    evict: "x",
    pdb: budget(healthy),
    want: "spend",
  },
] as const;

for (const c of cases) {
  test(`decideForGroups: ${c.name}`, () => {
    const pod = c.pods.find((p) => p.metadata.name === c.evict);
    assert.ok(pod !== undefined, "the case names a pod that exists");
    const got = decideForGroups(c.pdb.obj(), pod, snapshotOf(c.pods), now);
    assert.deepEqual(got, { kind: c.want });
  });
}

test("decideForGroups: a pod naming a missing PodGroup is denied with the object's name", () => {
  const pod = member("z1", "gone");
  assert.deepEqual(decideForGroups(budget(healthy).obj(), pod, snapshotOf([pod]), now), {
    kind: "missing",
    message: 'PodGroup "gone" not found',
  });
});

test("decideForGroups: reads only the evicted pod's group mates", () => {
  const pods = [member("a1", "a"), member("a2", "a"), member("a3", "a"), member("b1", "b")];
  const snapshot = snapshotOf(pods);
  const asked: string[] = [];
  const watched: GroupSnapshot = {
    ...snapshot,
    mates: (pod) => {
      asked.push(pod.metadata.name ?? "");
      return snapshot.mates(pod);
    },
    someGrouped: () => assert.fail("a pod with a workloadRef needs no namespace-wide scan"),
  };
  decideForGroups(budget(healthy).obj(), pods[0] as Pod, watched, now);
  assert.deepEqual(asked, ["a1"]);
});
