/**
 * Wire types of `kueue.x-k8s.io/v1beta1` (kubernetes-sigs/kueue v0.14), served as CRDs:
 * ResourceFlavor, ClusterQueue, LocalQueue, Workload and WorkloadPriorityClass. Field names
 * mirror the JSON exactly; only the fields gantry reads or writes are spelled out.
 */
import type { Taint } from "../../core/v1/node-types.ts";
import type { PodTemplateSpec, ResourceList, Toleration } from "../../core/v1/pod-template.ts";
import type { Condition, LabelSelector, ObjectMeta } from "../../meta/types.ts";

export interface ResourceFlavor {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: {
    /** Labels of the nodes this flavor stands for; become the admitted pods' nodeSelector. */
    nodeLabels?: Record<string, string>;
    /** Taints of those nodes; a workload must tolerate the NoSchedule/NoExecute ones. */
    nodeTaints?: Taint[];
    /** Added to admitted pods; also tolerate the flavor's own taints. */
    tolerations?: Toleration[];
    topologyName?: string;
  };
  [field: string]: unknown;
}

/** One resource's quota in one flavor of a ClusterQueue. */
export interface ResourceQuota {
  name: string;
  nominalQuota: string | number;
  borrowingLimit?: string | number;
  lendingLimit?: string | number;
}

export interface FlavorQuotas {
  name: string;
  resources: ResourceQuota[];
}

export interface ResourceGroup {
  coveredResources: string[];
  flavors: FlavorQuotas[];
}

export type QueueingStrategy = "StrictFIFO" | "BestEffortFIFO";
export type PreemptionPolicy = "Never" | "LowerPriority" | "LowerOrNewerEqualPriority" | "Any";
export type StopPolicy = "None" | "Hold" | "HoldAndDrain";

export interface ClusterQueuePreemption {
  /** @default "Never" */
  withinClusterQueue?: PreemptionPolicy;
  /** @default "Never" */
  reclaimWithinCohort?: PreemptionPolicy;
  borrowWithinCohort?: { policy?: "Never" | "LowerPriority"; maxPriorityThreshold?: number };
}

export interface ClusterQueueSpec {
  resourceGroups?: ResourceGroup[];
  cohort?: string;
  /** @default "BestEffortFIFO" */
  queueingStrategy?: QueueingStrategy;
  /** `undefined`/`null` selects no namespace, `{}` every namespace. */
  namespaceSelector?: LabelSelector | null;
  preemption?: ClusterQueuePreemption;
  flavorFungibility?: {
    whenCanBorrow?: "Borrow" | "TryNextFlavor";
    whenCanPreempt?: "Preempt" | "TryNextFlavor";
  };
  /** @default "None" */
  stopPolicy?: StopPolicy;
  admissionChecks?: string[];
}

export interface ResourceUsage {
  name: string;
  total?: string;
  borrowed?: string;
}

export interface FlavorUsage {
  name: string;
  resources: ResourceUsage[];
}

export interface ClusterQueueStatus {
  conditions?: Condition[];
  flavorsReservation?: FlavorUsage[];
  flavorsUsage?: FlavorUsage[];
  pendingWorkloads?: number;
  reservingWorkloads?: number;
  admittedWorkloads?: number;
}

export interface ClusterQueue {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ClusterQueueSpec;
  status?: ClusterQueueStatus;
  [field: string]: unknown;
}

export interface LocalQueueFlavorUsage {
  name: string;
  resources: { name: string; total?: string }[];
}

export interface LocalQueueStatus {
  conditions?: Condition[];
  pendingWorkloads?: number;
  reservingWorkloads?: number;
  admittedWorkloads?: number;
  flavorsReservation?: LocalQueueFlavorUsage[];
  /** Singular "flavor", as v1beta1 spells it. */
  flavorUsage?: LocalQueueFlavorUsage[];
}

export interface LocalQueue {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: { clusterQueue?: string; stopPolicy?: StopPolicy };
  status?: LocalQueueStatus;
  [field: string]: unknown;
}

export interface PodSet {
  /** @default "main" */
  name: string;
  /** @default 1 */
  count: number;
  minCount?: number;
  template: PodTemplateSpec;
}

export interface WorkloadSpec {
  podSets: PodSet[];
  queueName?: string;
  priorityClassName?: string;
  priority?: number;
  priorityClassSource?: string;
  /** @default true */
  active?: boolean;
  maximumExecutionTimeSeconds?: number;
}

export interface PodSetAssignment {
  name: string;
  /** Resource name → flavor name. */
  flavors?: Record<string, string>;
  resourceUsage?: ResourceList;
  count?: number;
}

export interface Admission {
  clusterQueue: string;
  podSetAssignments: PodSetAssignment[];
}

export interface ReclaimablePod {
  name: string;
  count: number;
}

export interface WorkloadStatus {
  conditions?: Condition[];
  admission?: Admission;
  requeueState?: { count?: number; requeueAt?: string };
  reclaimablePods?: ReclaimablePod[];
  resourceRequests?: { name: string; resources?: ResourceList }[];
}

export interface Workload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: WorkloadSpec;
  status?: WorkloadStatus;
  [field: string]: unknown;
}

export interface WorkloadPriorityClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  value: number;
  description?: string;
  [field: string]: unknown;
}
