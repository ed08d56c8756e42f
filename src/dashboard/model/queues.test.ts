import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterQueue, KueueWorkload, LocalQueue } from "../../api/index.ts";
import { makePod } from "../../testing/index.ts";
import { clusterQueueRows, plainPodGroups } from "./queues.ts";

const cq: ClusterQueue = {
  metadata: { name: "team-a" },
  spec: {
    cohort: "research",
    resourceGroups: [
      {
        coveredResources: ["cpu", "memory"],
        flavors: [
          {
            name: "default",
            resources: [
              { name: "cpu", nominalQuota: 4, borrowingLimit: "2" },
              { name: "memory", nominalQuota: "8Gi" },
            ],
          },
        ],
      },
    ],
  },
  status: {
    flavorsUsage: [
      { name: "default", resources: [{ name: "cpu", total: "3500m", borrowed: "0" }] },
    ],
  },
};
const lq: LocalQueue = {
  metadata: { name: "q", namespace: "ns" },
  spec: { clusterQueue: "team-a" },
};
const workload = (name: string, reserved: boolean): KueueWorkload => ({
  metadata: { name, namespace: "ns" },
  spec: { queueName: "q", podSets: [] },
  status: {
    conditions: [
      {
        type: "QuotaReserved",
        status: reserved ? "True" : "False",
        reason: reserved ? "QuotaReserved" : "Pending",
        message: reserved ? "Quota reserved" : "insufficient quota",
        lastTransitionTime: "2026-01-01T00:00:00Z",
      },
      ...(reserved
        ? [
            {
              type: "Admitted",
              status: "True" as const,
              reason: "Admitted",
              message: "admitted",
              lastTransitionTime: "2026-01-01T00:00:00Z",
            },
          ]
        : []),
    ],
    ...(reserved ? { admission: { clusterQueue: "team-a", podSetAssignments: [] } } : {}),
  },
});

test("clusterQueueRows: quota against usage per flavor and resource, pending and admitted workloads", () => {
  const [row] = clusterQueueRows([cq], [lq], [workload("w1", true), workload("w2", false)]);
  assert.deepEqual(
    row?.quotas.map((c) => [c.flavor, c.resource, c.used, c.nominal, c.borrowingLimit]),
    [
      ["default", "cpu", 3500, 4000, 2000],
      ["default", "memory", 0, 8 * 1024 ** 3, undefined],
    ],
  );
  assert.deepEqual(
    row?.pending.map((w) => [w.name, w.message]),
    [["w2", "insufficient quota"]],
  );
  assert.deepEqual(
    row?.admitted.map((w) => w.name),
    ["w1"],
  );
  assert.equal(row?.cohort, "research");
});

test("plainPodGroups: queued pods by group with the pods the admission gate holds", () => {
  const queued = (name: string) =>
    makePod(name).label("kueue.x-k8s.io/queue-name", "q").namespace("ns");
  const groups = plainPodGroups([
    queued("g-0")
      .label("kueue.x-k8s.io/pod-group-name", "g")
      .annotation("kueue.x-k8s.io/pod-group-total-count", "2")
      .schedulingGates(["kueue.x-k8s.io/admission"])
      .obj(),
    queued("g-1").label("kueue.x-k8s.io/pod-group-name", "g").obj(),
    queued("solo").schedulingGates(["kueue.x-k8s.io/admission"]).obj(),
    queued("old").phase("Succeeded").obj(),
    makePod("plain").obj(),
  ]);
  assert.deepEqual(
    groups.map((g) => [g.name, g.single, g.pods, g.totalCount, g.gated]),
    [
      ["g", false, 2, 2, ["g-0"]],
      ["solo", true, 1, undefined, ["solo"]],
    ],
  );
});
