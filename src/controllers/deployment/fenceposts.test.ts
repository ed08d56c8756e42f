import assert from "node:assert/strict";
import { test } from "node:test";
import type { IntOrString } from "../../api/index.ts";
import { makeDeployment, makeReplicaSet } from "../../testing/index.ts";
import {
  isSaturated,
  maxSurge,
  maxUnavailable,
  minAvailable,
  newReplicaSetReplicas,
  resolveFenceposts,
  scaledValue,
} from "./fenceposts.ts";

const fencepostCases: readonly {
  name: string;
  surge: IntOrString;
  unavailable: IntOrString;
  desired: number;
  want: { surge: number; unavailable: number };
}[] = [
  {
    name: "25%/25% of 10 rounds surge up and unavailable down",
    surge: "25%",
    unavailable: "25%",
    desired: 10,
    want: { surge: 3, unavailable: 2 },
  },
  {
    name: "25%/25% of 1 gives surge 1, unavailable 0",
    surge: "25%",
    unavailable: "25%",
    desired: 1,
    want: { surge: 1, unavailable: 0 },
  },
  {
    name: "0%/1% of 2 makes unavailable 1 so the rollout can move",
    surge: "0%",
    unavailable: "1%",
    desired: 2,
    want: { surge: 0, unavailable: 1 },
  },
  {
    name: "integers are taken as they are",
    surge: 2,
    unavailable: 0,
    desired: 5,
    want: { surge: 2, unavailable: 0 },
  },
  {
    name: "percentages over 100 scale past the replicas",
    surge: "150%",
    unavailable: "0%",
    desired: 4,
    want: { surge: 6, unavailable: 0 },
  },
];

for (const c of fencepostCases) {
  test(`resolveFenceposts: ${c.name}`, () => {
    assert.deepEqual(resolveFenceposts(c.surge, c.unavailable, c.desired), c.want);
  });
}

test("scaledValue: a string that is not a percentage is a RangeError", () => {
  assert.throws(() => scaledValue("5", 10, true), RangeError);
});

const deploymentCases = [
  {
    name: "rolling 10 replicas with 25%/25%",
    deployment: makeDeployment("web").replicas(10).obj(),
    want: { surge: 3, unavailable: 2, min: 8 },
  },
  {
    name: "maxUnavailable never exceeds the replicas",
    deployment: makeDeployment("web").replicas(2).rollingUpdate(0, 5).obj(),
    want: { surge: 0, unavailable: 2, min: 0 },
  },
  {
    name: "0 replicas have no unavailability budget",
    deployment: makeDeployment("web").replicas(0).obj(),
    want: { surge: 0, unavailable: 0, min: 0 },
  },
  {
    name: "Recreate has neither surge nor unavailability",
    deployment: makeDeployment("web").replicas(3).recreate().obj(),
    want: { surge: 0, unavailable: 0, min: 0 },
  },
] as const;

for (const c of deploymentCases) {
  test(`maxSurge/maxUnavailable/minAvailable: ${c.name}`, () => {
    assert.deepEqual(
      {
        surge: maxSurge(c.deployment),
        unavailable: maxUnavailable(c.deployment),
        min: minAvailable(c.deployment),
      },
      c.want,
    );
  });
}

const newReplicasCases = [
  {
    name: "grows by the surge while old pods still run",
    deployment: makeDeployment("web").replicas(4).rollingUpdate(1, 0).obj(),
    old: [makeReplicaSet("old").replicas(4).obj()],
    newReplicas: 0,
    want: 1,
  },
  {
    name: "stays when replicas + surge pods exist",
    deployment: makeDeployment("web").replicas(4).rollingUpdate(1, 0).obj(),
    old: [makeReplicaSet("old").replicas(4).obj()],
    newReplicas: 1,
    want: 1,
  },
  {
    name: "never grows beyond the Deployment's replicas",
    deployment: makeDeployment("web").replicas(3).rollingUpdate(10, 0).obj(),
    old: [],
    newReplicas: 1,
    want: 3,
  },
  {
    name: "Recreate takes every replica at once",
    deployment: makeDeployment("web").replicas(5).recreate().obj(),
    old: [makeReplicaSet("old").replicas(5).obj()],
    newReplicas: 0,
    want: 5,
  },
] as const;

for (const c of newReplicasCases) {
  test(`newReplicaSetReplicas: ${c.name}`, () => {
    const newRs = makeReplicaSet("new").replicas(c.newReplicas).obj();
    assert.equal(newReplicaSetReplicas(c.deployment, [...c.old, newRs], newRs), c.want);
  });
}

const saturatedCases = [
  {
    name: "all replicas sized, annotated and available",
    rs: makeReplicaSet("new")
      .replicas(3)
      .annotation("deployment.kubernetes.io/desired-replicas", "3")
      .running(3)
      .obj(),
    want: true,
  },
  {
    name: "not all available",
    rs: makeReplicaSet("new")
      .replicas(3)
      .annotation("deployment.kubernetes.io/desired-replicas", "3")
      .running(2)
      .obj(),
    want: false,
  },
  {
    name: "annotation for another size",
    rs: makeReplicaSet("new")
      .replicas(3)
      .annotation("deployment.kubernetes.io/desired-replicas", "2")
      .running(3)
      .obj(),
    want: false,
  },
  { name: "no annotation", rs: makeReplicaSet("new").replicas(3).running(3).obj(), want: false },
] as const;

for (const c of saturatedCases) {
  test(`isSaturated: ${c.name}`, () => {
    assert.equal(isSaturated(makeDeployment("web").replicas(3).obj(), c.rs), c.want);
  });
}
