/**
 * The Node and Lease objects a kubelet writes: registration (labels, taints, pod CIDR), node
 * status (capacity, conditions with heartbeats, addresses, nodeInfo) and the heartbeat Lease.
 */
import {
  type Lease,
  type Node,
  type NodeCondition,
  type NodeStatus,
  semanticEqual,
} from "../../api/index.ts";
import { type DeepReadonly, rfc3339, rfc3339Micro } from "../../util/index.ts";
import { type EmulatedNode, kubeletVersion } from "./emulated-node.ts";

/** The annotation naming the fleet that runs a node (`gantry.dev/kubelet: gantry`). */
export const kubeletAnnotation = "gantry.dev/kubelet";
/** The config pool a registered node comes from (absent on nodes created through the API). */
export const poolAnnotation = "gantry.dev/node-pool";
/** The value of `gantry.dev/kubelet` that keeps every fleet away from a node. */
export const noKubelet = "none";
/** `gantry.dev/fail: "true"` on a Node stops its kubelet's heartbeats, as `fleet.fail` does. */
export const failAnnotation = "gantry.dev/fail";
/** The namespace of node heartbeat Leases. */
export const nodeLeaseNamespace = "kube-node-lease";
/** Every emulated kubelet's address: the proxy reaches it on loopback, keyed by node name. */
export const nodeInternalIp = "127.0.0.1";

/** The labels a kubelet puts on its node, over the pool's own. */
export function nodeLabels(node: EmulatedNode): Record<string, string> {
  const labels: Record<string, string> = {
    ...node.labels,
    "beta.kubernetes.io/arch": "amd64",
    "beta.kubernetes.io/os": "linux",
    "kubernetes.io/arch": "amd64",
    "kubernetes.io/hostname": node.name,
    "kubernetes.io/os": "linux",
  };
  if (node.instanceType !== "") {
    labels["beta.kubernetes.io/instance-type"] = node.instanceType;
    labels["node.kubernetes.io/instance-type"] = node.instanceType;
  }
  return labels;
}

type ConditionSpec = Pick<NodeCondition, "type" | "status" | "reason" | "message">;

/** The conditions of a healthy kubelet, in upstream's order. */
export const healthyConditions: readonly ConditionSpec[] = [
  {
    type: "MemoryPressure",
    status: "False",
    reason: "KubeletHasSufficientMemory",
    message: "kubelet has sufficient memory available",
  },
  {
    type: "DiskPressure",
    status: "False",
    reason: "KubeletHasNoDiskPressure",
    message: "kubelet has no disk pressure",
  },
  {
    type: "PIDPressure",
    status: "False",
    reason: "KubeletHasSufficientPID",
    message: "kubelet has sufficient PID available",
  },
  {
    type: "Ready",
    status: "True",
    reason: "KubeletReady",
    message: "kubelet is posting ready status",
  },
];

function conditions(previous: readonly DeepReadonly<NodeCondition>[], now: Date): NodeCondition[] {
  const stamp = rfc3339(now);
  const out: NodeCondition[] = [];
  for (const c of healthyConditions) {
    const old = previous.find((p) => p.type === c.type);
    const since =
      old !== undefined && old.status === c.status && old.lastTransitionTime !== undefined
        ? old.lastTransitionTime
        : stamp;
    out.push({ ...c, lastHeartbeatTime: stamp, lastTransitionTime: since });
  }
  // Conditions owned by others (NetworkUnavailable, problem detectors) stay as they are.
  for (const c of previous) {
    if (!healthyConditions.some((h) => h.type === c.type))
      out.push(structuredClone(c) as NodeCondition);
  }
  return out;
}

/** The status a kubelet reports for its node at `now`, keeping transition times of `current`. */
export function nodeStatusOf(
  node: EmulatedNode,
  current: DeepReadonly<NodeStatus> | undefined,
  now: Date,
  kubeletPort: number,
): NodeStatus {
  return {
    capacity: { ...node.capacity },
    allocatable: { ...node.allocatable },
    conditions: conditions(current?.conditions ?? [], now),
    addresses: [
      { type: "InternalIP", address: nodeInternalIp },
      { type: "Hostname", address: node.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    nodeInfo: {
      machineID: node.identity.machineId,
      systemUUID: node.identity.systemUuid,
      bootID: node.identity.bootId,
      kernelVersion: "6.8.0-gantry",
      osImage: "Gantry emulated node",
      containerRuntimeVersion: "containerd://2.1.0",
      kubeletVersion,
      kubeProxyVersion: "",
      operatingSystem: "linux",
      architecture: "amd64",
    },
    ...(current?.images === undefined
      ? {}
      : { images: structuredClone(current.images) as NonNullable<NodeStatus["images"]> }),
  };
}

/** The Node a kubelet registers (upstream `initialNode`). */
export function registrationNode(
  node: EmulatedNode,
  fleet: string,
  podCIDR: string | undefined,
  now: Date,
  kubeletPort: number,
): Node {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: node.name,
      labels: nodeLabels(node),
      annotations: {
        ...node.annotations,
        [kubeletAnnotation]: fleet,
        ...(node.pool === undefined ? {} : { [poolAnnotation]: node.pool }),
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
      },
    },
    spec: {
      ...(podCIDR === undefined ? {} : { podCIDR, podCIDRs: [podCIDR] }),
      ...(node.taints.length === 0 ? {} : { taints: node.taints.map((t) => ({ ...t })) }),
    },
    status: nodeStatusOf(node, undefined, now, kubeletPort),
  };
}

/** Conditions by type with heartbeat times cleared (upstream `nodeConditionsHaveChanged`). */
function comparableConditions(
  conditions: readonly DeepReadonly<NodeCondition>[] | undefined,
): unknown[] {
  return [...(conditions ?? [])]
    .sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))
    .map((c) => ({ ...c, lastHeartbeatTime: undefined }));
}

/**
 * Whether `desired` differs from `current` in anything but heartbeat times (upstream
 * `nodeStatusHasChanged`: conditions compared by type, heartbeats ignored, the rest as
 * `Semantic.DeepEqual`).
 */
export function nodeStatusChanged(
  current: DeepReadonly<NodeStatus> | undefined,
  desired: DeepReadonly<NodeStatus>,
): boolean {
  if (current === undefined) return true;
  const before = comparableConditions(current.conditions);
  const after = comparableConditions(desired.conditions);
  if (before.length !== after.length) return true;
  if (!before.every((c, i) => semanticEqual(c, after[i]))) return true;
  return !semanticEqual(
    { ...current, conditions: undefined },
    { ...desired, conditions: undefined },
  );
}

/**
 * Whether the status must be written now: it changed (heartbeats aside), or the report
 * frequency has passed since the last write (upstream `nodeStatusReportFrequency`).
 */
export function nodeStatusNeedsWrite(
  current: DeepReadonly<NodeStatus> | undefined,
  desired: NodeStatus,
  lastWriteAt: number | undefined,
  now: number,
  reportFrequencyMs: number,
): boolean {
  if (lastWriteAt === undefined || now - lastWriteAt >= reportFrequencyMs) return true;
  return nodeStatusChanged(current, desired);
}

/** The node's heartbeat Lease (owned by the Node, so it goes with it). */
export function nodeLease(
  name: string,
  nodeUid: string | undefined,
  durationSeconds: number,
  now: Date,
): Lease {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name,
      namespace: nodeLeaseNamespace,
      ...(nodeUid === undefined
        ? {}
        : { ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: nodeUid }] }),
    },
    spec: {
      holderIdentity: name,
      leaseDurationSeconds: durationSeconds,
      renewTime: rfc3339Micro(now),
    },
  };
}
