/**
 * The cluster config (`gantry up --config FILE`): the emulated node pools and their kubelet
 * settings, fully defaulted. `parse.ts` reads the YAML; this file holds the types and defaults.
 */
import type { ResourceList, Taint } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";
import {
  type ControllerManagerSettings,
  defaultControllerManagerSettings,
} from "./controller-manager-settings.ts";

export const clusterConfigApiVersion = "gantry.dev/v1alpha1";
export const clusterConfigKind = "ClusterConfig";

/** The CPU manager policies upstream knows. */
export const cpuManagerPolicies = ["none", "static"] as const;
export type CpuManagerPolicy = (typeof cpuManagerPolicies)[number];

/** The topology manager policies upstream knows. */
export const topologyManagerPolicies = [
  "none",
  "best-effort",
  "restricted",
  "single-numa-node",
] as const;
export type TopologyManagerPolicy = (typeof topologyManagerPolicies)[number];

export const topologyManagerScopes = ["container", "pod"] as const;
export type TopologyManagerScope = (typeof topologyManagerScopes)[number];

/**
 * One pool's kubelet settings. Names follow `KubeletConfiguration` where upstream has the
 * setting; `podStartDelay` and `podStopDelay` are the emulation's own. Durations are in
 * milliseconds here and Go duration strings (`"10s"`) in the file.
 */
export interface KubeletSettings {
  readonly cpuManagerPolicy: CpuManagerPolicy;
  /** Passed to the CPU manager as given (`full-pcpus-only: "true"`). */
  readonly cpuManagerPolicyOptions: Readonly<Record<string, string>>;
  readonly cpuManagerReconcilePeriodMs: number;
  /**
   * Kubelet feature gates; only the CPU manager's are known (`CPUManagerPolicyAlphaOptions`,
   * default false; `CPUManagerPolicyBetaOptions`, default true).
   */
  readonly featureGates: Readonly<Record<string, boolean>>;
  readonly topologyManagerPolicy: TopologyManagerPolicy;
  readonly topologyManagerScope: TopologyManagerScope;
  /** A cpuset list (`"0,1"` or `"0-3"`); "" for none. */
  readonly reservedSystemCPUs: string;
  readonly maxPods: number;
  readonly systemReserved: Readonly<ResourceList>;
  readonly kubeReserved: Readonly<ResourceList>;
  /** Eviction signal → threshold (`memory.available: 100Mi`, `nodefs.available: "10%"`). */
  readonly evictionHard: Readonly<Record<string, string>>;
  /** How long after admission a pod's containers start (ContainerCreating until then). */
  readonly podStartDelayMs: number;
  /** How long a container takes to stop once asked (capped by the grace period). */
  readonly podStopDelayMs: number;
  /** How often the kubelet computes node status. */
  readonly nodeStatusUpdateFrequencyMs: number;
  /** How often node status is written when nothing changed. */
  readonly nodeStatusReportFrequencyMs: number;
  /** The node Lease's duration; it is renewed every quarter of it. */
  readonly nodeLeaseDurationSeconds: number;
}

/** One node pool: `count` alike nodes named `<namePrefix><index>`. */
export interface NodePool {
  readonly name: string;
  readonly count: number;
  readonly namePrefix: string;
  /** The `node.kubernetes.io/instance-type` label; "" for none. */
  readonly instanceType: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly taints: readonly Readonly<Taint>[];
  /** Canonical quantities: cpu, memory, pods, ephemeral-storage, hugepages-*, extended. */
  readonly capacity: Readonly<ResourceList>;
  /** Explicit, or capacity minus the kubelet's reservations. */
  readonly allocatable: Readonly<ResourceList>;
  /** Opaque CPU topology, read by the topology interpreter and the CPU manager. */
  readonly topology?: JsonObject;
  readonly kubelet: KubeletSettings;
}

/** Where pod IPs come from: each node gets the next `/nodeCIDRMaskSize` of `podSubnet`. */
export interface NetworkingConfig {
  readonly podSubnet: string;
  readonly nodeCIDRMaskSize: number;
}

/** The whole file, defaulted. */
export interface ClusterConfig {
  readonly apiVersion: typeof clusterConfigApiVersion;
  readonly kind: typeof clusterConfigKind;
  readonly networking: NetworkingConfig;
  readonly nodePools: readonly NodePool[];
  /**
   * The controller manager's node lifecycle and pod GC settings (not a kubelet's, but they
   * decide what a failed emulated node leads to). @default defaultControllerManagerSettings
   */
  readonly controllerManager?: ControllerManagerSettings;
  /** The raw `queueing:` section, checked by the queueing component's own parser. */
  readonly queueing?: unknown;
}

/** The node count of `gantry up` without options. */
export const defaultNodeCount = 3;

export const defaultNetworking: NetworkingConfig = Object.freeze({
  // Holds 32,768 node /24s and stays clear of kubeadm's 10.96.0.0/12 service range.
  podSubnet: "10.128.0.0/9",
  nodeCIDRMaskSize: 24,
});

export const defaultKubeletSettings: KubeletSettings = Object.freeze({
  cpuManagerPolicy: "none",
  cpuManagerPolicyOptions: {},
  cpuManagerReconcilePeriodMs: 10_000,
  featureGates: {},
  topologyManagerPolicy: "none",
  topologyManagerScope: "container",
  reservedSystemCPUs: "",
  maxPods: 110,
  systemReserved: {},
  kubeReserved: {},
  evictionHard: {},
  podStartDelayMs: 0,
  podStopDelayMs: 1000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 300_000,
  nodeLeaseDurationSeconds: 40,
});

/** Capacity of a node whose pool does not say otherwise (pods comes from `maxPods`). */
export const defaultCapacity: Readonly<ResourceList> = Object.freeze({
  cpu: "4",
  memory: "16Gi",
  "ephemeral-storage": "100Gi",
  "hugepages-1Gi": "0",
  "hugepages-2Mi": "0",
});

/** A pool of `count` default nodes (4 CPUs, 16Gi, 110 pods) named `node-0`, `node-1`, … */
export function defaultNodePool(count: number): NodePool {
  const capacity = { ...defaultCapacity, pods: String(defaultKubeletSettings.maxPods) };
  return {
    name: "default",
    count,
    namePrefix: "node-",
    instanceType: "",
    labels: {},
    annotations: {},
    taints: [],
    capacity,
    allocatable: { ...capacity },
    kubelet: defaultKubeletSettings,
  };
}

/** What `gantry up --nodes N` runs (N defaults to 3). */
export function defaultClusterConfig(nodes: number = defaultNodeCount): ClusterConfig {
  if (!Number.isInteger(nodes) || nodes < 0) {
    throw new RangeError(`Cannot make ${nodes} nodes: --nodes takes a whole number ≥ 0`);
  }
  return {
    apiVersion: clusterConfigApiVersion,
    kind: clusterConfigKind,
    networking: defaultNetworking,
    nodePools: nodes === 0 ? [] : [defaultNodePool(nodes)],
    controllerManager: defaultControllerManagerSettings,
  };
}

/** The node names of a pool, in order. */
export function poolNodeNames(pool: NodePool): string[] {
  return Array.from({ length: pool.count }, (_, i) => `${pool.namePrefix}${i}`);
}
