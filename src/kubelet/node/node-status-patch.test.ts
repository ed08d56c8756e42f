import assert from "node:assert/strict";
import test from "node:test";
import type { NodeStatus } from "../../api/index.ts";
import { nodeStatusPatch } from "./node-status-patch.ts";

const t0 = "2026-01-01T00:00:00Z";
const t1 = "2026-01-01T00:00:10Z";

function ready(heartbeat: string, status: "True" | "False" = "True") {
  return {
    type: "Ready",
    status,
    reason: status === "True" ? "KubeletReady" : "KubeletNotReady",
    message: "kubelet is posting ready status",
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: t0,
  };
}

function memory(heartbeat: string) {
  return {
    type: "MemoryPressure",
    status: "False" as const,
    reason: "KubeletHasSufficientMemory",
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: t0,
  };
}

const base: NodeStatus = {
  capacity: { cpu: "4", memory: "16Gi", pods: "110" },
  allocatable: { cpu: "4", memory: "16Gi", pods: "110" },
  conditions: [memory(t0), ready(t0)],
  addresses: [
    { type: "InternalIP", address: "127.0.0.1" },
    { type: "Hostname", address: "n-0" },
  ],
  daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
  nodeInfo: { kubeletVersion: "v1.35.0", kubeProxyVersion: "" } as NonNullable<
    NodeStatus["nodeInfo"]
  >,
};

const cases = [
  {
    name: "nothing changed: no patch",
    current: base,
    desired: base,
    want: undefined,
  },
  {
    name: "heartbeats only: each condition's heartbeat by type, with the list's order",
    current: base,
    desired: { ...base, conditions: [memory(t1), ready(t1)] },
    want: {
      status: {
        "$setElementOrder/conditions": [{ type: "MemoryPressure" }, { type: "Ready" }],
        conditions: [
          { lastHeartbeatTime: t1, type: "MemoryPressure" },
          { lastHeartbeatTime: t1, type: "Ready" },
        ],
      },
    },
  },
  {
    name: "a condition someone else changed is put back field by field",
    current: { ...base, conditions: [memory(t0), ready(t0, "False")] },
    desired: { ...base, conditions: [memory(t0), { ...ready(t1), lastTransitionTime: t1 }] },
    want: {
      status: {
        "$setElementOrder/conditions": [{ type: "MemoryPressure" }, { type: "Ready" }],
        conditions: [
          {
            status: "True",
            reason: "KubeletReady",
            lastHeartbeatTime: t1,
            lastTransitionTime: t1,
            type: "Ready",
          },
        ],
      },
    },
  },
  {
    name: "a changed and a removed quantity: the key's new value and null",
    current: {
      ...base,
      capacity: { cpu: "4", memory: "16Gi", pods: "110", "nvidia.com/gpu": "1" },
    },
    desired: { ...base, capacity: { cpu: "8", memory: "16Gi", pods: "110" } },
    want: { status: { capacity: { cpu: "8", "nvidia.com/gpu": null } } },
  },
  {
    name: "changed addresses are replaced whole",
    current: base,
    desired: { ...base, addresses: [{ type: "InternalIP", address: "10.0.0.1" }] },
    want: {
      status: {
        addresses: [{ type: "InternalIP", address: "10.0.0.1" }, { $patch: "replace" }],
      },
    },
  },
  {
    name: "a node's first addresses merge by type",
    current: { ...base, addresses: [] },
    desired: base,
    want: {
      status: {
        "$setElementOrder/addresses": [{ type: "InternalIP" }, { type: "Hostname" }],
        addresses: [
          { type: "InternalIP", address: "127.0.0.1" },
          { type: "Hostname", address: "n-0" },
        ],
      },
    },
  },
  {
    name: "an empty string equals a missing one (Go's zero value)",
    current: {
      ...base,
      nodeInfo: { kubeletVersion: "v1.35.0" } as NonNullable<NodeStatus["nodeInfo"]>,
    },
    desired: base,
    want: undefined,
  },
  {
    name: "a nested map changes key by key",
    current: base,
    desired: { ...base, daemonEndpoints: { kubeletEndpoint: { Port: 10255 } } },
    want: { status: { daemonEndpoints: { kubeletEndpoint: { Port: 10255 } } } },
  },
] satisfies readonly {
  name: string;
  current: NodeStatus;
  desired: NodeStatus;
  want: unknown;
}[];

for (const c of cases) {
  test(`nodeStatusPatch: ${c.name}`, () => {
    assert.deepEqual(nodeStatusPatch(c.current, c.desired), c.want);
  });
}

test("nodeStatusPatch: a condition another writer added is deleted by type", () => {
  const current = {
    ...base,
    conditions: [memory(t0), ready(t0), { type: "Custom", status: "True" as const }],
  };
  assert.deepEqual(nodeStatusPatch(current, base), {
    status: {
      "$setElementOrder/conditions": [{ type: "MemoryPressure" }, { type: "Ready" }],
      conditions: [{ $patch: "delete", type: "Custom" }],
    },
  });
});
