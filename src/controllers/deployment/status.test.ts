import assert from "node:assert/strict";
import { test } from "node:test";
import type { AppsCondition } from "../../api/index.ts";
import { makeDeployment, makeReplicaSet } from "../../testing/index.ts";
import { calculateStatus, computePausedConditions, computeRolloutStatus } from "./status.ts";

const now = new Date("2024-01-01T00:10:00Z");
const nowText = "2024-01-01T00:10:00Z";
const earlier = "2024-01-01T00:00:00Z";

const progressing = (reason: string, status: AppsCondition["status"] = "True"): AppsCondition => ({
  type: "Progressing",
  status,
  lastUpdateTime: earlier,
  lastTransitionTime: earlier,
  reason,
  message: "before",
});

test("calculateStatus: counts from ReplicaSets and Available when enough pods are available", () => {
  const d = makeDeployment("web").replicas(4).generation(3).obj();
  const newRs = makeReplicaSet("new").replicas(2).running(2).obj();
  const oldRs = makeReplicaSet("old")
    .replicas(2)
    .status({ replicas: 2, readyReplicas: 1, availableReplicas: 1 })
    .obj();
  assert.deepEqual(calculateStatus([oldRs, newRs], newRs, d, now), {
    observedGeneration: 3,
    replicas: 4,
    updatedReplicas: 2,
    readyReplicas: 3,
    availableReplicas: 3,
    unavailableReplicas: 1,
    conditions: [
      {
        type: "Available",
        status: "True",
        lastUpdateTime: nowText,
        lastTransitionTime: nowText,
        reason: "MinimumReplicasAvailable",
        message: "Deployment has minimum availability.",
      },
    ],
  });
});

test("calculateStatus: Available is False below replicas − maxUnavailable, zeros are omitted", () => {
  const d = makeDeployment("web").replicas(4).obj();
  const rs = makeReplicaSet("new").replicas(4).status({ replicas: 4 }).obj();
  const status = calculateStatus([rs], rs, d, now);
  assert.deepEqual(
    { status, available: status.conditions?.[0]?.reason },
    {
      status: {
        observedGeneration: 1,
        replicas: 4,
        updatedReplicas: 4,
        unavailableReplicas: 4,
        conditions: status.conditions,
      },
      available: "MinimumReplicasUnavailable",
    },
  );
});

const rolloutCases = [
  {
    name: "a complete rollout reports NewReplicaSetAvailable",
    deployment: makeDeployment("web").replicas(2).condition(progressing("ReplicaSetUpdated")),
    newRs: makeReplicaSet("web-1").replicas(2).running(2),
    old: [],
    want: {
      status: "True",
      reason: "NewReplicaSetAvailable",
      message: 'ReplicaSet "web-1" has successfully progressed.',
      lastTransitionTime: earlier,
    },
    wantRequeue: false,
  },
  {
    name: "progress refreshes ReplicaSetUpdated and keeps its transition time",
    deployment: makeDeployment("web")
      .replicas(2)
      .status({ replicas: 3, updatedReplicas: 1 })
      .condition(progressing("NewReplicaSetCreated")),
    newRs: makeReplicaSet("web-1").replicas(2).status({ replicas: 2 }),
    old: [makeReplicaSet("web-0").replicas(1).running(1)],
    want: {
      status: "True",
      reason: "ReplicaSetUpdated",
      message: 'ReplicaSet "web-1" is progressing.',
      lastTransitionTime: earlier,
      lastUpdateTime: nowText,
    },
    wantRequeue: false,
  },
  {
    name: "no progress past the deadline is ProgressDeadlineExceeded",
    deployment: makeDeployment("web")
      .replicas(2)
      .progressDeadlineSeconds(60)
      .status({ replicas: 2, updatedReplicas: 2 })
      .condition(progressing("ReplicaSetUpdated")),
    newRs: makeReplicaSet("web-1").replicas(2).status({ replicas: 2 }),
    old: [],
    want: {
      status: "False",
      reason: "ProgressDeadlineExceeded",
      message: 'ReplicaSet "web-1" has timed out progressing.',
      lastTransitionTime: nowText,
    },
    wantRequeue: false,
  },
] as const;

for (const c of rolloutCases) {
  test(`computeRolloutStatus: ${c.name}`, () => {
    const newRs = c.newRs.obj();
    const result = computeRolloutStatus(
      [...c.old.map((b) => b.obj()), newRs],
      newRs,
      c.deployment.obj(),
      now,
    );
    const condition = result.status.conditions?.find((x) => x.type === "Progressing");
    const picked = Object.fromEntries(
      Object.keys(c.want).map((k) => [k, (condition as Record<string, unknown> | undefined)?.[k]]),
    );
    assert.deepEqual(
      { picked, requeue: result.requeueAfterMs !== undefined },
      { picked: c.want, requeue: c.wantRequeue },
    );
  });
}

test("computeRolloutStatus: a stuck rollout within its deadline is looked at again when due", () => {
  const unavailable: AppsCondition = {
    type: "Available",
    status: "False",
    lastUpdateTime: earlier,
    lastTransitionTime: earlier,
    reason: "MinimumReplicasUnavailable",
    message: "Deployment does not have minimum availability.",
  };
  const d = makeDeployment("web")
    .replicas(2)
    .progressDeadlineSeconds(3600)
    .status({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, unavailableReplicas: 2 })
    .condition(unavailable)
    .condition(progressing("ReplicaSetUpdated"))
    .obj();
  const rs = makeReplicaSet("web-1").replicas(2).status({ replicas: 2 }).obj();
  const result = computeRolloutStatus([rs], rs, d, now);
  // Last progress at 00:00, deadline one hour later, now 00:10: 50 minutes plus upstream's second.
  assert.deepEqual(result, { status: d.status, requeueAfterMs: 50 * 60 * 1000 + 1000 });
});

test("computeRolloutStatus: without a deadline there is no Progressing condition", () => {
  const d = makeDeployment("web")
    .progressDeadlineSeconds(2 ** 31 - 1)
    .condition(progressing("ReplicaSetUpdated"))
    .obj();
  const rs = makeReplicaSet("web-1").running(1).obj();
  const types = computeRolloutStatus([rs], rs, d, now).status.conditions?.map((c) => c.type);
  assert.deepEqual(types, ["Available"]);
});

test("computeRolloutStatus: a ReplicaSet's ReplicaFailure is copied", () => {
  const failure: AppsCondition = {
    type: "ReplicaFailure",
    status: "True",
    lastTransitionTime: earlier,
    reason: "FailedCreate",
    message: "pods is forbidden",
  };
  const rs = makeReplicaSet("web-1").replicas(1).condition(failure).obj();
  const d = makeDeployment("web").obj();
  const got = computeRolloutStatus([rs], rs, d, now).status.conditions?.find(
    (c) => c.type === "ReplicaFailure",
  );
  assert.deepEqual(got, { ...failure, lastUpdateTime: earlier });
});

const pausedCases = [
  {
    name: "pausing sets Unknown/DeploymentPaused",
    deployment: makeDeployment("web").paused().condition(progressing("ReplicaSetUpdated")),
    want: { status: "Unknown", reason: "DeploymentPaused", message: "Deployment is paused" },
  },
  {
    name: "resuming sets Unknown/DeploymentResumed",
    deployment: makeDeployment("web").condition(progressing("DeploymentPaused", "Unknown")),
    want: { status: "Unknown", reason: "DeploymentResumed", message: "Deployment is resumed" },
  },
  {
    name: "a timed-out rollout keeps ProgressDeadlineExceeded",
    deployment: makeDeployment("web")
      .paused()
      .condition(progressing("ProgressDeadlineExceeded", "False")),
    want: undefined,
  },
  {
    name: "an unpaused Deployment without the paused condition changes nothing",
    deployment: makeDeployment("web").condition(progressing("ReplicaSetUpdated")),
    want: undefined,
  },
] as const;

for (const c of pausedCases) {
  test(`computePausedConditions: ${c.name}`, () => {
    const got = computePausedConditions(c.deployment.obj(), now)?.find(
      (x) => x.type === "Progressing",
    );
    assert.deepEqual(
      got === undefined
        ? undefined
        : { status: got.status, reason: got.reason, message: got.message },
      c.want,
    );
  });
}
