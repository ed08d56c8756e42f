import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultLeaderWorkerSet, scaledIntOrPercent } from "./defaults.ts";
import type { LeaderWorkerSet } from "./types.ts";

const bare: LeaderWorkerSet = {
  metadata: { name: "lws", namespace: "default" },
  spec: {
    leaderWorkerTemplate: { workerTemplate: { spec: { containers: [{ name: "c", image: "x" }] } } },
  },
};

test("defaultLeaderWorkerSet: fills what the CRD schema and the webhook default", () => {
  assert.deepEqual(defaultLeaderWorkerSet(bare).spec, {
    replicas: 1,
    startupPolicy: "LeaderCreated",
    leaderWorkerTemplate: {
      workerTemplate: { spec: { containers: [{ name: "c", image: "x" }] } },
      size: 1,
      restartPolicy: "RecreateGroupOnPodRestart",
    },
    rolloutStrategy: {
      type: "RollingUpdate",
      rollingUpdateConfiguration: { partition: 0, maxUnavailable: 1, maxSurge: 0 },
    },
    networkConfig: { subdomainPolicy: "Shared" },
  });
});

const cases = [
  {
    name: "the deprecated Default restart policy becomes None",
    edit: (l: LeaderWorkerSet) => (l.spec.leaderWorkerTemplate.restartPolicy = "Default"),
    read: (l: LeaderWorkerSet) => l.spec.leaderWorkerTemplate.restartPolicy,
    want: "None",
  },
  {
    name: "a subgroup policy without a type is LeaderWorker",
    edit: (l: LeaderWorkerSet) =>
      (l.spec.leaderWorkerTemplate.subGroupPolicy = { subGroupSize: 2 }),
    read: (l: LeaderWorkerSet) => l.spec.leaderWorkerTemplate.subGroupPolicy,
    want: { subGroupSize: 2, subGroupPolicyType: "LeaderWorker" },
  },
  {
    name: "set values are kept",
    edit: (l: LeaderWorkerSet) => {
      l.spec.replicas = 0;
      l.spec.rolloutStrategy = {
        type: "RollingUpdate",
        rollingUpdateConfiguration: { maxSurge: "50%" },
      };
    },
    read: (l: LeaderWorkerSet) => [l.spec.replicas, l.spec.rolloutStrategy],
    want: [
      0,
      {
        type: "RollingUpdate",
        rollingUpdateConfiguration: { maxSurge: "50%", partition: 0, maxUnavailable: 1 },
      },
    ],
  },
] as const;

for (const c of cases) {
  test(`defaultLeaderWorkerSet: ${c.name}`, () => {
    const lws = structuredClone(bare);
    c.edit(lws);
    assert.deepEqual(c.read(defaultLeaderWorkerSet(lws)), c.want);
  });
}

test("defaultLeaderWorkerSet: the input is not changed", () => {
  const lws = structuredClone(bare);
  defaultLeaderWorkerSet(lws);
  assert.deepEqual(lws, bare);
});

const scaled = [
  { name: "an integer as is", value: 3, total: 10, up: false, want: 3 },
  { name: "a percentage rounded down", value: "25%", total: 10, up: false, want: 2 },
  { name: "a percentage rounded up", value: "25%", total: 10, up: true, want: 3 },
  { name: "a string that is no percentage", value: "5", total: 10, up: false, want: undefined },
] as const;

for (const c of scaled) {
  test(`scaledIntOrPercent: ${c.name}`, () => {
    assert.equal(scaledIntOrPercent(c.value, c.total, c.up), c.want);
  });
}
