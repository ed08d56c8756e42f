import assert from "node:assert/strict";
import { test } from "node:test";
import type { StatefulSetStatus } from "../../api/index.ts";
import { makeStatefulSet } from "../../testing/index.ts";
import { computeStatefulSetStatus, type ReplicaCounts } from "./status.ts";

const counts = (c: Partial<ReplicaCounts>): ReplicaCounts => ({
  replicas: 0,
  readyReplicas: 0,
  availableReplicas: 0,
  currentReplicas: 0,
  updatedReplicas: 0,
  ...c,
});

const cases: readonly {
  name: string;
  set: ReturnType<typeof makeStatefulSet>;
  counts: ReplicaCounts;
  current: string;
  want: StatefulSetStatus;
}[] = [
  {
    name: "an empty set reports zero replicas and both revisions",
    set: makeStatefulSet("web"),
    counts: counts({}),
    current: "web-new",
    want: {
      replicas: 0,
      observedGeneration: 1,
      currentRevision: "web-new",
      updateRevision: "web-new",
      collisionCount: 0,
      availableReplicas: 0,
    },
  },
  {
    name: "a rollout in progress keeps the current revision",
    set: makeStatefulSet("web"),
    counts: counts({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 2,
      updatedReplicas: 1,
    }),
    current: "web-old",
    want: {
      replicas: 3,
      observedGeneration: 1,
      readyReplicas: 3,
      currentReplicas: 2,
      updatedReplicas: 1,
      currentRevision: "web-old",
      updateRevision: "web-new",
      collisionCount: 0,
      availableReplicas: 3,
    },
  },
  {
    name: "a RollingUpdate with every pod updated and ready completes",
    set: makeStatefulSet("web"),
    counts: counts({ replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 }),
    current: "web-old",
    want: {
      replicas: 3,
      observedGeneration: 1,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: "web-new",
      updateRevision: "web-new",
      collisionCount: 0,
      availableReplicas: 3,
    },
  },
  {
    name: "OnDelete never completes by itself",
    set: makeStatefulSet("web").onDelete(),
    counts: counts({ replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 }),
    current: "web-old",
    want: {
      replicas: 1,
      observedGeneration: 1,
      readyReplicas: 1,
      updatedReplicas: 1,
      currentRevision: "web-old",
      updateRevision: "web-new",
      collisionCount: 0,
      availableReplicas: 1,
    },
  },
];

for (const c of cases) {
  test(`computeStatefulSetStatus: ${c.name}`, () => {
    const got = computeStatefulSetStatus({
      set: c.set.obj(),
      counts: c.counts,
      currentRevision: c.current,
      updateRevision: "web-new",
      collisionCount: 0,
    });
    assert.deepEqual(got, c.want);
  });
}
