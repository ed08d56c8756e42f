import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type Condition,
  type DefaultedLeaderWorkerSet,
  defaultLeaderWorkerSet,
  type Pod,
} from "../../api/index.ts";
import { type LeaderWorkerSetBuilder, makeLeaderWorkerSet } from "../../testing/index.ts";
import { newGroupPods } from "./pods.ts";
import { computeLeaderWorkerSetStatus, setConditions } from "./status.ts";

const ref = {
  apiVersion: "leaderworkerset.x-k8s.io/v1",
  kind: "LeaderWorkerSet",
  name: "lws",
  uid: "uid-lws",
  controller: true,
  blockOwnerDeletion: true,
};
const now = new Date("2026-03-01T00:00:00Z");
const ready: NonNullable<Pod["status"]> = {
  phase: "Running",
  conditions: [{ type: "Ready", status: "True" }],
};

/** Groups at revision r1 (or `revision`), all pods Running and Ready unless listed in `unready`. */
function pods(
  lws: DefaultedLeaderWorkerSet,
  groups: readonly number[],
  options: { unready?: readonly string[]; revision?: string } = {},
): Pod[] {
  return groups.flatMap((group) =>
    newGroupPods({ lws, group, revision: options.revision ?? "r1", controllerRef: ref }).map(
      (p) => ({
        ...p,
        status:
          options.unready?.includes(p.metadata.name ?? "") === true ? { phase: "Pending" } : ready,
      }),
    ),
  );
}

const condition = (type: string, status: "True" | "False", reason: string, message: string) =>
  ({
    type,
    status,
    reason,
    message,
    lastTransitionTime: "2026-03-01T00:00:00Z",
  }) satisfies Condition;

const available = condition("Available", "True", "AllGroupsReady", "All replicas are ready");
const progressing = condition(
  "Progressing",
  "True",
  "GroupsProgressing",
  "Replicas are progressing",
);
const updating = condition(
  "UpdateInProgress",
  "True",
  "GroupsUpdating",
  "Rolling Upgrade is in progress",
);

const selector = "leaderworkerset.sigs.k8s.io/name=lws,leaderworkerset.sigs.k8s.io/worker-index=0";

const cases: readonly {
  name: string;
  lws: LeaderWorkerSetBuilder;
  pods: (lws: DefaultedLeaderWorkerSet) => Pod[];
  want: unknown;
}[] = [
  {
    name: "a new set without pods is Progressing and counts nothing",
    lws: makeLeaderWorkerSet("lws").replicas(2).size(2),
    pods: () => [],
    want: {
      status: { conditions: [progressing], hpaPodSelector: selector, observedGeneration: 1 },
      event: {
        reason: "GroupsProgressing",
        message: "Replicas are progressing, with 0 groups ready of total 2 groups",
      },
    },
  },
  {
    name: "a group is ready only when all its pods run Ready",
    lws: makeLeaderWorkerSet("lws").replicas(2).size(2),
    pods: (lws) => pods(lws, [0, 1], { unready: ["lws-1-1"] }),
    want: {
      status: {
        conditions: [progressing],
        readyReplicas: 1,
        updatedReplicas: 2,
        replicas: 2,
        hpaPodSelector: selector,
        observedGeneration: 1,
      },
      event: {
        reason: "GroupsProgressing",
        message: "Replicas are progressing, with 1 groups ready of total 2 groups",
      },
    },
  },
  {
    name: "every group ready and updated makes the set Available",
    lws: makeLeaderWorkerSet("lws").replicas(2).size(2),
    pods: (lws) => pods(lws, [0, 1]),
    want: {
      status: {
        conditions: [available],
        readyReplicas: 2,
        updatedReplicas: 2,
        replicas: 2,
        hpaPodSelector: selector,
        observedGeneration: 1,
      },
      event: {
        reason: "AllGroupsReady",
        message: "All replicas are ready, with 2 groups ready of total 2 groups",
      },
    },
  },
  {
    name: "stale groups mean UpdateInProgress and Progressing",
    lws: makeLeaderWorkerSet("lws").replicas(2).size(2),
    pods: (lws) => [...pods(lws, [0]), ...pods(lws, [1], { revision: "old" })],
    want: {
      status: {
        conditions: [updating, progressing],
        readyReplicas: 2,
        updatedReplicas: 1,
        replicas: 2,
        hpaPodSelector: selector,
        observedGeneration: 1,
      },
      event: {
        reason: "GroupsUpdating",
        message: "Rolling Upgrade is in progress, with 2 groups ready of total 2 groups",
      },
    },
  },
  {
    name: "a leader whose workers do not exist yet counts as a replica only",
    lws: makeLeaderWorkerSet("lws").size(3).startupPolicy("LeaderReady"),
    pods: (lws) => pods(lws, [0]).slice(0, 1),
    want: {
      status: {
        conditions: [progressing],
        replicas: 1,
        hpaPodSelector: selector,
        observedGeneration: 1,
      },
      event: {
        reason: "GroupsProgressing",
        message: "Replicas are progressing, with 0 groups ready of total 1 groups",
      },
    },
  },
  {
    name: "an Available set stays so without a new event",
    lws: makeLeaderWorkerSet("lws")
      .size(1)
      .status({ conditions: [available] }),
    pods: (lws) => pods(lws, [0]),
    want: {
      status: {
        conditions: [available],
        readyReplicas: 1,
        updatedReplicas: 1,
        replicas: 1,
        hpaPodSelector: selector,
        observedGeneration: 1,
      },
    },
  },
];

for (const c of cases) {
  test(`computeLeaderWorkerSetStatus: ${c.name}`, () => {
    const lws = defaultLeaderWorkerSet(c.lws.obj());
    assert.deepEqual(
      computeLeaderWorkerSetStatus({ lws, revision: "r1", pods: c.pods(lws), now }),
      c.want,
    );
  });
}

test("setConditions: Available turns Progressing and UpdateInProgress False, and back", () => {
  const later = new Date("2026-03-02T00:00:00Z");
  const toAvailable = setConditions([updating, progressing], [available], later);
  const back = setConditions(toAvailable.conditions, [progressing], later);
  const falseAt = (c: Condition) => ({
    ...c,
    status: "False",
    lastTransitionTime: "2026-03-02T00:00:00Z",
  });
  assert.deepEqual(
    { toAvailable, back },
    {
      toAvailable: {
        changed: true,
        conditions: [
          falseAt(updating),
          falseAt(progressing),
          { ...available, lastTransitionTime: "2026-03-02T00:00:00Z" },
        ],
      },
      back: {
        changed: true,
        conditions: [
          falseAt(updating),
          { ...progressing, lastTransitionTime: "2026-03-02T00:00:00Z" },
          falseAt(available),
        ],
      },
    },
  );
});
