import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type DefaultedLeaderWorkerSet,
  defaultLeaderWorkerSet,
  type OwnerReference,
  type Pod,
  type PodGroup,
} from "../../api/index.ts";
import { type LeaderWorkerSetBuilder, makeLeaderWorkerSet } from "../../testing/index.ts";
import { type LeaderWorkerSetPlanInput, planLeaderWorkerSet } from "./plan.ts";
import { newGroupPods } from "./pods.ts";
import { desiredPodGroup } from "./scheduling.ts";

const ref: OwnerReference = {
  apiVersion: "leaderworkerset.x-k8s.io/v1",
  kind: "LeaderWorkerSet",
  name: "lws",
  uid: "uid-lws",
  controller: true,
  blockOwnerDeletion: true,
};

const ready: NonNullable<Pod["status"]> = {
  phase: "Running",
  conditions: [{ type: "Ready", status: "True" }],
};

/** The pods of `groups` as the controller would have created them at `revision`, with uids. */
function podsOf(lws: DefaultedLeaderWorkerSet, groups: readonly number[], revision = "r1"): Pod[] {
  return groups.flatMap((group) =>
    newGroupPods({ lws, group, revision, controllerRef: ref }).map((pod) => {
      pod.metadata.uid = `uid-${pod.metadata.name ?? ""}`;
      pod.status = { phase: "Pending" };
      return pod;
    }),
  );
}

function podGroupsOf(lws: DefaultedLeaderWorkerSet, groups: readonly number[]): PodGroup[] {
  return groups.map((group) => desiredPodGroup(lws, group, ref));
}

/** Edits the pod called `name` in `pods`. */
function edit(pods: Pod[], name: string, change: (pod: Pod) => void): Pod[] {
  for (const pod of pods) if (pod.metadata.name === name) change(pod);
  return pods;
}

interface Scenario {
  readonly name: string;
  readonly lws: LeaderWorkerSetBuilder;
  readonly pods?: (lws: DefaultedLeaderWorkerSet) => Pod[];
  readonly podGroups?: (lws: DefaultedLeaderWorkerSet) => PodGroup[];
  readonly lostPods?: ReadonlyMap<number, string>;
  readonly ownDeletions?: ReadonlySet<string>;
  readonly canCreate?: boolean;
  readonly revision?: string;
  readonly want: {
    readonly deletions?: readonly string[];
    readonly recreations?: readonly string[];
    readonly updates?: readonly number[];
    readonly podGroupDeletions?: readonly string[];
    readonly creations?: readonly string[];
  };
}

const base = () => makeLeaderWorkerSet("lws");

const scenarios: readonly Scenario[] = [
  {
    name: "a new set gets each group's PodGroup, leader and workers",
    lws: base().replicas(2).size(2),
    want: { creations: ["pg lws-0: lws-0 lws-0-1", "pg lws-1: lws-1 lws-1-1"] },
  },
  {
    name: "LeaderReady creates the leaders alone",
    lws: base().replicas(2).size(3).startupPolicy("LeaderReady"),
    want: { creations: ["pg lws-0: lws-0", "pg lws-1: lws-1"] },
  },
  {
    name: "LeaderReady creates the workers once the leader is Ready",
    lws: base().size(3).startupPolicy("LeaderReady"),
    pods: (lws) => edit(podsOf(lws, [0]).slice(0, 1), "lws-0", (p) => (p.status = ready)),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: { creations: ["lws-0: lws-0-1 lws-0-2"] },
  },
  {
    name: "LeaderReady waits while the leader is not Ready",
    lws: base().size(3).startupPolicy("LeaderReady"),
    pods: (lws) => podsOf(lws, [0]).slice(0, 1),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: {},
  },
  {
    name: "nothing is created before the Workload is in place",
    lws: base().replicas(2).size(2),
    canCreate: false,
    want: {},
  },
  {
    name: "scaling down removes whole groups, highest first, and PodGroups of emptied groups",
    lws: base().replicas(1).size(2),
    pods: (lws) => podsOf(lws, [0, 1, 2]).filter((p) => !p.metadata.name?.startsWith("lws-3")),
    podGroups: (lws) => podGroupsOf(lws, [0, 1, 2, 3]),
    want: {
      deletions: ["lws-2:scaleDown", "lws-2-1:scaleDown", "lws-1:scaleDown", "lws-1-1:scaleDown"],
      podGroupDeletions: ["lws-3"],
    },
  },
  {
    name: "a failed worker recreates its whole group",
    lws: base().replicas(2).size(3),
    pods: (lws) => edit(podsOf(lws, [0, 1]), "lws-1-2", (p) => (p.status = { phase: "Failed" })),
    podGroups: (lws) => podGroupsOf(lws, [0, 1]),
    want: {
      deletions: ["lws-1:recreate", "lws-1-1:recreate", "lws-1-2:recreate"],
      recreations: ["1 by worker lws-1-2"],
    },
  },
  {
    name: "a restarted container in the leader recreates its group",
    lws: base().size(2),
    pods: (lws) =>
      edit(podsOf(lws, [0]), "lws-0", (p) => {
        p.status = {
          phase: "Running",
          containerStatuses: [{ name: "c", ready: true, restartCount: 1, image: "x", imageID: "" }],
        };
      }),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: {
      deletions: ["lws-0:recreate", "lws-0-1:recreate"],
      recreations: ["0 by leader lws-0"],
    },
  },
  {
    name: "a pod deleted by someone else recreates the rest of its group",
    lws: base().size(3),
    pods: (lws) =>
      edit(
        podsOf(lws, [0]),
        "lws-0-1",
        (p) => (p.metadata.deletionTimestamp = "2026-01-01T00:00:00Z"),
      ),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: {
      deletions: ["lws-0:recreate", "lws-0-2:recreate"],
      recreations: ["0 by worker lws-0-1"],
    },
  },
  {
    name: "pods the controller is deleting itself trigger nothing and block recreation",
    lws: base().size(2),
    pods: (lws) =>
      edit(
        podsOf(lws, [0]),
        "lws-0-1",
        (p) => (p.metadata.deletionTimestamp = "2026-01-01T00:00:00Z"),
      ),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    ownDeletions: new Set(["uid-lws-0-1"]),
    want: {},
  },
  {
    name: "a pod that vanished recreates its group",
    lws: base().size(3),
    pods: (lws) => podsOf(lws, [0]).filter((p) => p.metadata.name !== "lws-0-2"),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    lostPods: new Map([[0, "lws-0-2"]]),
    want: {
      deletions: ["lws-0:recreate", "lws-0-1:recreate"],
      recreations: ["0 by worker lws-0-2"],
    },
  },
  {
    name: "an emptied group with a recorded loss is created again",
    lws: base().size(2),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    lostPods: new Map([[0, "lws-0-1"]]),
    want: { creations: ["lws-0: lws-0 lws-0-1"] },
  },
  {
    name: "RecreateGroupAfterStart leaves a group alone while a pod is Pending",
    lws: base().size(3).restartPolicy("RecreateGroupAfterStart"),
    pods: (lws) => edit(podsOf(lws, [0]), "lws-0-1", (p) => (p.status = { phase: "Failed" })),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: {},
  },
  {
    name: "restart policy None replaces a failed pod on its own",
    lws: base().size(3).restartPolicy("None"),
    pods: (lws) => edit(podsOf(lws, [0]), "lws-0-1", (p) => (p.status = { phase: "Failed" })),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: { deletions: ["lws-0-1:replace"] },
  },
  {
    name: "restart policy None recreates a vanished worker alone",
    lws: base().size(3).restartPolicy("None"),
    pods: (lws) => podsOf(lws, [0]).filter((p) => p.metadata.name !== "lws-0-2"),
    podGroups: (lws) => podGroupsOf(lws, [0]),
    lostPods: new Map([[0, "lws-0-2"]]),
    want: { creations: ["lws-0: lws-0-2"] },
  },
  {
    name: "a rolling update recreates the highest ready group first, one at a time",
    lws: base().replicas(3).size(2),
    revision: "r2",
    pods: (lws) => podsOf(lws, [0, 1, 2]).map((p) => ({ ...p, status: ready })),
    podGroups: (lws) => podGroupsOf(lws, [0, 1, 2]),
    want: { deletions: ["lws-2:update", "lws-2-1:update"], updates: [2] },
  },
  {
    name: "unready stale groups are updated beyond the budget, ready ones wait for it",
    lws: base().replicas(3).size(2),
    revision: "r2",
    pods: (lws) =>
      podsOf(lws, [0, 1, 2]).map((p) =>
        p.metadata.name?.startsWith("lws-0") ? { ...p, status: ready } : p,
      ),
    podGroups: (lws) => podGroupsOf(lws, [0, 1, 2]),
    want: {
      deletions: ["lws-2:update", "lws-2-1:update", "lws-1:update", "lws-1-1:update"],
      updates: [2, 1],
    },
  },
  {
    name: "maxUnavailable 2 updates two ready groups at once",
    lws: base().replicas(3).size(2).rollingUpdate({ maxUnavailable: 2 }),
    revision: "r2",
    pods: (lws) => podsOf(lws, [0, 1, 2]).map((p) => ({ ...p, status: ready })),
    podGroups: (lws) => podGroupsOf(lws, [0, 1, 2]),
    want: {
      deletions: ["lws-2:update", "lws-2-1:update", "lws-1:update", "lws-1-1:update"],
      updates: [2, 1],
    },
  },
  {
    name: "groups below the partition keep their revision",
    lws: base().replicas(3).size(2).rollingUpdate({ partition: 3 }),
    revision: "r2",
    pods: (lws) => podsOf(lws, [0, 1, 2]).map((p) => ({ ...p, status: ready })),
    podGroups: (lws) => podGroupsOf(lws, [0, 1, 2]),
    want: {},
  },
  {
    name: "a group whose PodGroup is being deleted waits for it to go",
    lws: base().size(2),
    podGroups: (lws) =>
      podGroupsOf(lws, [0]).map((pg) => ({
        ...pg,
        metadata: { ...pg.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" },
      })),
    want: {},
  },
  {
    name: "pods beyond the group size are strays and go",
    lws: base().size(2),
    pods: (lws) => {
      const pods = podsOf(lws, [0]);
      const extra = structuredClone(pods[1] as Pod);
      extra.metadata.name = "lws-0-2";
      extra.metadata.uid = "uid-extra";
      if (extra.metadata.labels !== undefined) {
        extra.metadata.labels["leaderworkerset.sigs.k8s.io/worker-index"] = "2";
      }
      return [...pods, extra];
    },
    podGroups: (lws) => podGroupsOf(lws, [0]),
    want: { deletions: ["lws-0-2:stray"] },
  },
];

for (const s of scenarios) {
  test(`planLeaderWorkerSet: ${s.name}`, () => {
    const lws = defaultLeaderWorkerSet(s.lws.obj());
    const input: LeaderWorkerSetPlanInput = {
      lws,
      revision: s.revision ?? "r1",
      pods: s.pods?.(lws) ?? [],
      podGroups: s.podGroups?.(lws) ?? [],
      lostPods: s.lostPods ?? new Map(),
      ownDeletions: s.ownDeletions ?? new Set(),
      canCreate: s.canCreate ?? true,
      controllerRef: ref,
    };
    const plan = planLeaderWorkerSet(input);
    assert.deepEqual(
      {
        deletions: plan.deletions.map((d) => `${d.pod.metadata.name ?? ""}:${d.cause}`),
        recreations: plan.recreations.map(
          (r) => `${r.group} by ${r.triggerIsLeader ? "leader" : "worker"} ${r.trigger}`,
        ),
        updates: plan.updates,
        podGroupDeletions: plan.podGroupDeletions,
        creations: plan.creations.map(
          (c) =>
            `${c.podGroup === undefined ? "" : `pg ${c.podGroup.metadata.name ?? ""}: `}${
              c.podGroup === undefined ? `lws-${c.group}: ` : ""
            }${c.pods.map((p) => p.metadata.name).join(" ")}`,
        ),
      },
      {
        deletions: s.want.deletions ?? [],
        recreations: s.want.recreations ?? [],
        updates: s.want.updates ?? [],
        podGroupDeletions: s.want.podGroupDeletions ?? [],
        creations: s.want.creations ?? [],
      },
    );
  });
}

test("planLeaderWorkerSet: created pods carry the current revision and join their group's PodGroup", () => {
  const lws = defaultLeaderWorkerSet(makeLeaderWorkerSet("lws").size(2).obj());
  const plan = planLeaderWorkerSet({
    lws,
    revision: "r7",
    pods: [],
    podGroups: [],
    lostPods: new Map(),
    ownDeletions: new Set(),
    canCreate: true,
    controllerRef: ref,
  });
  const pods = plan.creations.flatMap((c) => c.pods);
  assert.deepEqual(
    pods.map((p) => [
      p.metadata.labels?.["leaderworkerset.sigs.k8s.io/template-revision-hash"],
      p.spec.workloadRef?.podGroupName,
    ]),
    [
      ["r7", "lws-0"],
      ["r7", "lws-0"],
    ],
  );
});
