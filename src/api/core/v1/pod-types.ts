/** Wire types of `core/v1` Pod (spec types live in pod-template.ts). */
import type { KubeObject } from "../../meta/types.ts";
import type { ConditionStatus } from "./node-types.ts";
import type { PodSpec, ResourceList, ResourceRequirements } from "./pod-template.ts";

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";
export type PodQosClass = "Guaranteed" | "Burstable" | "BestEffort";

export interface PodCondition {
  type: string;
  observedGeneration?: number;
  status: ConditionStatus;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: {
    exitCode: number;
    signal?: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  user?: Record<string, unknown>;
  allocatedResourcesStatus?: Record<string, unknown>[];
  stopSignal?: string;
}

export interface PodIp {
  ip: string;
}

export interface PodStatus {
  observedGeneration?: number;
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: PodIp[];
  podIP?: string;
  podIPs?: PodIp[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: PodQosClass;
  ephemeralContainerStatuses?: ContainerStatus[];
  resize?: string;
  resourceClaimStatuses?: { name: string; resourceClaimName?: string }[];
  extendedResourceClaimStatus?: Record<string, unknown>;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}
