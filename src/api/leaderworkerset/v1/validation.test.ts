import assert from "node:assert/strict";
import { test } from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import { defaultLeaderWorkerSet } from "./defaults.ts";
import type { LeaderWorkerSet } from "./types.ts";
import { validateLeaderWorkerSet } from "./validation.ts";

function lwsWith(edit: (lws: LeaderWorkerSet) => void): LeaderWorkerSet {
  const lws: LeaderWorkerSet = {
    metadata: { name: "lws", namespace: "default" },
    spec: {
      replicas: 2,
      leaderWorkerTemplate: {
        size: 3,
        workerTemplate: { spec: { containers: [{ name: "c", image: "x" }] } },
      },
    },
  };
  edit(lws);
  return lws;
}

const rolling = (config: Record<string, unknown>) => (l: LeaderWorkerSet) => {
  l.spec.rolloutStrategy = { type: "RollingUpdate", rollingUpdateConfiguration: config };
};

const cases = [
  { name: "a valid set", edit: () => {}, want: [] },
  {
    name: "a name that is no DNS-1035 label (it names the headless service)",
    edit: (l: LeaderWorkerSet) => (l.metadata.name = "1lws"),
    want: [
      "metadata.name: Invalid value: \"1lws\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: "negative replicas",
    edit: (l: LeaderWorkerSet) => (l.spec.replicas = -1),
    want: ["spec.replicas: Invalid value: -1: replicas must be equal or greater than 0"],
  },
  {
    name: "a size of 0",
    edit: (l: LeaderWorkerSet) => (l.spec.leaderWorkerTemplate.size = 0),
    want: [
      "spec.leaderWorkerTemplate.size: Invalid value: 0: size must be equal or greater than 1",
    ],
  },
  {
    name: "more pods than an int32 counts",
    edit: (l: LeaderWorkerSet) => {
      l.spec.replicas = 100000;
      l.spec.leaderWorkerTemplate.size = 100000;
    },
    want: [
      "spec.replicas: Invalid value: 100000: the product of replicas and worker replicas must not exceed 2147483647",
    ],
  },
  {
    name: "maxUnavailable and maxSurge both 0",
    edit: rolling({ maxUnavailable: 0, maxSurge: 0 }),
    want: [
      "spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: 0: must not be 0 when `maxSurge` is 0",
    ],
  },
  {
    name: "a percentage above 100%",
    edit: rolling({ maxSurge: "150%" }),
    want: [
      'spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ],
  },
  {
    name: "a negative partition",
    edit: rolling({ partition: -1 }),
    want: [
      "spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: -1: must be greater than or equal to 0",
    ],
  },
  {
    name: "a subgroup size that divides neither size nor size - 1",
    edit: (l: LeaderWorkerSet) => {
      l.spec.leaderWorkerTemplate.size = 6;
      l.spec.leaderWorkerTemplate.subGroupPolicy = { subGroupSize: 4 };
    },
    want: [
      "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 4: size or size - 1 must be divisible by subGroupSize",
    ],
  },
  {
    name: "LeaderExcluded needs size - 1 divisible",
    edit: (l: LeaderWorkerSet) => {
      l.spec.leaderWorkerTemplate.size = 4;
      l.spec.leaderWorkerTemplate.subGroupPolicy = {
        subGroupSize: 2,
        subGroupPolicyType: "LeaderExcluded",
      };
    },
    want: [
      "spec.leaderWorkerTemplate.SubGroupPolicy.subGroupSize: Invalid value: 2: size-1 must be divisible by subGroupSize when using LeaderExcluded",
    ],
  },
  {
    name: "a subgroup exclusive topology without subgroups",
    edit: (l: LeaderWorkerSet) => {
      l.metadata.annotations = {
        "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology": "zone",
      };
    },
    want: [
      'metadata.annotations.leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology: Invalid value: "zone": cannot have subgroup-exclusive-topology without subGroupSize set',
    ],
  },
] as const;

for (const c of cases) {
  test(`validateLeaderWorkerSet: ${c.name}`, () => {
    const errs = validateLeaderWorkerSet(defaultLeaderWorkerSet(lwsWith(c.edit)));
    assert.deepEqual(errs.map(fieldErrorString), c.want);
  });
}
