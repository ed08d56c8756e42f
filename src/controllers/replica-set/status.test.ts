import assert from "node:assert/strict";
import { test } from "node:test";
import type { ReplicaSetStatus } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { computeReplicaSetStatus, type ReplicaSetFacts, statusChanged } from "./status.ts";

const now = new Date("2024-01-01T12:00:00Z");
const facts = (over: Partial<ReplicaSetFacts> = {}): ReplicaSetFacts => ({
  replicas: 3,
  minReadySeconds: 0,
  generation: 2,
  templateLabels: { app: "web", tier: "fe" },
  status: undefined,
  ...over,
});
const labelled = (name: string) => makePod(name).labels({ app: "web", tier: "fe" });
const readySince = (since: string) =>
  ({ type: "Ready", status: "True", lastTransitionTime: since }) as const;

const failure = {
  type: "ReplicaFailure",
  status: "True",
  lastTransitionTime: "2024-01-01T00:00:00Z",
  reason: "FailedCreate",
  message: "old",
} as const;

const cases: readonly {
  name: string;
  facts: ReplicaSetFacts;
  pods: readonly ReturnType<typeof makePod>[];
  error?: Error;
  want: ReplicaSetStatus;
}[] = [
  {
    name: "counts fully labelled, ready and available pods",
    facts: facts(),
    pods: [
      labelled("a").condition(readySince("2024-01-01T00:00:00Z")),
      labelled("b"),
      makePod("c").labels({ app: "web" }).condition(readySince("2024-01-01T00:00:00Z")),
    ],
    want: {
      replicas: 3,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      observedGeneration: 2,
    },
  },
  {
    name: "ready pods become available only after minReadySeconds",
    facts: facts({ minReadySeconds: 60 }),
    pods: [
      labelled("a").condition(readySince("2024-01-01T11:59:30Z")),
      labelled("b").condition(readySince("2024-01-01T11:00:00Z")),
    ],
    want: {
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 1,
      observedGeneration: 2,
    },
  },
  {
    name: "a failed create adds ReplicaFailure/FailedCreate with the error",
    facts: facts(),
    pods: [],
    error: new Error('pods "web-x" is forbidden: exceeded quota'),
    want: {
      replicas: 0,
      observedGeneration: 2,
      conditions: [
        {
          type: "ReplicaFailure",
          status: "True",
          lastTransitionTime: "2024-01-01T12:00:00Z",
          reason: "FailedCreate",
          message: 'pods "web-x" is forbidden: exceeded quota',
        },
      ],
    },
  },
  {
    name: "an existing ReplicaFailure stays while errors go on",
    facts: facts({ status: { replicas: 0, conditions: [failure] } }),
    pods: [],
    error: new Error("again"),
    want: { replicas: 0, observedGeneration: 2, conditions: [failure] },
  },
  {
    name: "success removes ReplicaFailure",
    facts: facts({ replicas: 0, status: { replicas: 0, conditions: [failure] } }),
    pods: [],
    want: { replicas: 0, observedGeneration: 2 },
  },
];

for (const c of cases) {
  test(`computeReplicaSetStatus: ${c.name}`, () => {
    const pods = c.pods.map((p) => p.obj());
    assert.deepEqual(computeReplicaSetStatus(c.facts, pods, c.error, now), c.want);
  });
}

test("statusChanged: equal statuses do not need a write", () => {
  assert.deepEqual(
    [
      statusChanged({ replicas: 1, readyReplicas: 1 }, { replicas: 1, readyReplicas: 1 }),
      statusChanged({ replicas: 1 }, { replicas: 1, observedGeneration: 2 }),
      statusChanged(undefined, { replicas: 0 }),
    ],
    [false, true, false],
  );
});
