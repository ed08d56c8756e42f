import assert from "node:assert/strict";
import test from "node:test";
import { parseClusterConfig } from "../config/parse.ts";
import { cadvisorTopologyInterpreter } from "../machine/topology.ts";
import { nodeFromPool } from "./emulated-node.ts";
import { nodeLease, nodeStatusNeedsWrite, nodeStatusOf, registrationNode } from "./node-object.ts";

const config = parseClusterConfig(`apiVersion: gantry.dev/v1alpha1
kind: ClusterConfig
nodePools:
- name: gpu
  instanceType: g5.xlarge
  labels: {accelerator: nvidia}
  taints: [{key: nvidia.com/gpu, effect: NoSchedule}]
  capacity: {cpu: 8, nvidia.com/gpu: 2}
  kubelet: {systemReserved: {cpu: 500m}}
`);
const pool = config.nodePools[0];
assert.ok(pool !== undefined, "pool !== undefined");
const node = nodeFromPool(pool, 0, cadvisorTopologyInterpreter);
const t0 = new Date("2026-01-01T00:00:00Z");

test("registrationNode: labels, annotations, taints, pod range and a ready status", () => {
  const got = registrationNode(node, "gantry", "10.128.0.0/24", t0, 10250);
  assert.deepEqual(
    {
      metadata: got.metadata,
      spec: got.spec,
      capacity: got.status?.capacity,
      allocatable: got.status?.allocatable,
      conditions: got.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
      addresses: got.status?.addresses,
      daemonEndpoints: got.status?.daemonEndpoints,
      versions: [got.status?.nodeInfo?.kubeletVersion, got.status?.nodeInfo?.operatingSystem],
    },
    {
      metadata: {
        name: "gpu-0",
        labels: {
          accelerator: "nvidia",
          "beta.kubernetes.io/arch": "amd64",
          "beta.kubernetes.io/os": "linux",
          "kubernetes.io/arch": "amd64",
          "kubernetes.io/hostname": "gpu-0",
          "kubernetes.io/os": "linux",
          "beta.kubernetes.io/instance-type": "g5.xlarge",
          "node.kubernetes.io/instance-type": "g5.xlarge",
        },
        annotations: {
          "gantry.dev/kubelet": "gantry",
          "gantry.dev/node-pool": "gpu",
          "volumes.kubernetes.io/controller-managed-attach-detach": "true",
        },
      },
      spec: {
        podCIDR: "10.128.0.0/24",
        podCIDRs: ["10.128.0.0/24"],
        taints: [{ key: "nvidia.com/gpu", effect: "NoSchedule" }],
      },
      capacity: {
        cpu: "8",
        memory: "16Gi",
        "ephemeral-storage": "100Gi",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "nvidia.com/gpu": "2",
        pods: "110",
      },
      allocatable: {
        cpu: "7500m",
        memory: "16Gi",
        "ephemeral-storage": "100Gi",
        "hugepages-1Gi": "0",
        "hugepages-2Mi": "0",
        "nvidia.com/gpu": "2",
        pods: "110",
      },
      conditions: [
        [
          "MemoryPressure",
          "False",
          "KubeletHasSufficientMemory",
          "kubelet has sufficient memory available",
        ],
        ["DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
        ["PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
        ["Ready", "True", "KubeletReady", "kubelet is posting ready status"],
      ],
      addresses: [
        { type: "InternalIP", address: "127.0.0.1" },
        { type: "Hostname", address: "gpu-0" },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      versions: ["v1.35.0", "linux"],
    },
  );
});

test("nodeStatusOf: keeps transition times and foreign conditions, stamps heartbeats", () => {
  const first = nodeStatusOf(node, undefined, t0, 10250);
  const withForeign = {
    ...first,
    conditions: [
      ...(first.conditions ?? []),
      { type: "NetworkUnavailable", status: "False" as const, reason: "RouteCreated" },
    ],
  };
  const later = nodeStatusOf(node, withForeign, new Date("2026-01-01T00:00:10Z"), 10250);
  assert.deepEqual(
    later.conditions?.map((c) => [c.type, c.lastTransitionTime, c.lastHeartbeatTime]),
    [
      ["MemoryPressure", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z"],
      ["DiskPressure", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z"],
      ["PIDPressure", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z"],
      ["Ready", "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z"],
      ["NetworkUnavailable", undefined, undefined],
    ],
  );
});

const writeCases = [
  { name: "never written", lastWriteAt: undefined, now: 0, change: false, want: true },
  { name: "unchanged and recent", lastWriteAt: 0, now: 60_000, change: false, want: false },
  {
    name: "unchanged for the report frequency",
    lastWriteAt: 0,
    now: 300_000,
    change: false,
    want: true,
  },
  { name: "changed", lastWriteAt: 0, now: 10_000, change: true, want: true },
] as const;

for (const c of writeCases) {
  test(`nodeStatusNeedsWrite: ${c.name}`, () => {
    const current = nodeStatusOf(node, undefined, t0, 10250);
    const desired = nodeStatusOf(
      node,
      current,
      new Date(t0.getTime() + c.now),
      c.change ? 10255 : 10250,
    );
    assert.equal(nodeStatusNeedsWrite(current, desired, c.lastWriteAt, c.now, 300_000), c.want);
  });
}

test("nodeLease: held by the node, owned by it, with a MicroTime renewal", () => {
  assert.deepEqual(nodeLease("gpu-0", "uid-1", 40, t0), {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name: "gpu-0",
      namespace: "kube-node-lease",
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "gpu-0", uid: "uid-1" }],
    },
    spec: {
      holderIdentity: "gpu-0",
      leaseDurationSeconds: 40,
      renewTime: "2026-01-01T00:00:00.000000Z",
    },
  });
});
