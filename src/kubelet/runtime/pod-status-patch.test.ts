import assert from "node:assert/strict";
import test from "node:test";
import type { PodStatus } from "../../api/index.ts";
import { podStatusPatch } from "./pod-status-patch.ts";

const pending: PodStatus = {
  phase: "Pending",
  conditions: [
    { type: "PodScheduled", status: "True" },
    { type: "Ready", status: "False", reason: "ContainersNotReady" },
  ],
  hostIP: "127.0.0.1",
  hostIPs: [{ ip: "127.0.0.1" }],
  startTime: "2026-01-01T00:00:00Z",
  containerStatuses: [
    {
      name: "app",
      image: "nginx",
      imageID: "",
      ready: false,
      restartCount: 0,
      state: { waiting: { reason: "ContainerCreating" } },
    },
  ],
  qosClass: "BestEffort",
};

const running: PodStatus = {
  ...pending,
  phase: "Running",
  conditions: [
    { type: "PodScheduled", status: "True" },
    { type: "Ready", status: "True" },
  ],
  podIP: "10.0.0.2",
  podIPs: [{ ip: "10.0.0.2" }],
  containerStatuses: [
    {
      name: "app",
      image: "nginx",
      imageID: "docker.io/library/nginx@sha256:1",
      ready: true,
      restartCount: 0,
      started: true,
      state: { running: { startedAt: "2026-01-01T00:00:01Z" } },
    },
  ],
};

const cases = [
  { name: "nothing changed: no patch", current: running, desired: running, want: undefined },
  {
    name: "Pending to Running: the uid as precondition, conditions by type, container statuses whole",
    current: pending,
    desired: running,
    want: {
      metadata: { uid: "uid-1" },
      status: {
        phase: "Running",
        "$setElementOrder/conditions": [{ type: "PodScheduled" }, { type: "Ready" }],
        conditions: [{ status: "True", reason: null, type: "Ready" }],
        podIP: "10.0.0.2",
        "$setElementOrder/podIPs": [{ ip: "10.0.0.2" }],
        podIPs: [{ ip: "10.0.0.2" }],
        containerStatuses: running.containerStatuses,
      },
    },
  },
  {
    name: "a field the kubelet no longer reports is removed",
    current: { ...running, nominatedNodeName: "n-1" },
    desired: running,
    want: { metadata: { uid: "uid-1" }, status: { nominatedNodeName: null } },
  },
  {
    name: "a pod with no status yet gets all of it",
    current: undefined,
    desired: { phase: "Pending", qosClass: "BestEffort" },
    want: { metadata: { uid: "uid-1" }, status: { phase: "Pending", qosClass: "BestEffort" } },
  },
] satisfies readonly {
  name: string;
  current: PodStatus | undefined;
  desired: PodStatus;
  want: unknown;
}[];

for (const c of cases) {
  test(`podStatusPatch: ${c.name}`, () => {
    assert.deepEqual(podStatusPatch("uid-1", c.current, c.desired), c.want);
  });
}
