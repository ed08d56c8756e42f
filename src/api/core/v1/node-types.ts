/** Wire types of `core/v1` Node. */
import type { KubeObject } from "../../meta/types.ts";
import type { ResourceList, TaintEffect } from "./pod-template.ts";

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: Record<string, unknown>;
  externalID?: string;
}

export type ConditionStatus = "True" | "False" | "Unknown";

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: "Hostname" | "InternalIP" | "ExternalIP" | "InternalDNS" | "ExternalDNS" | string;
  address: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
  swap?: { capacity?: number };
}

export interface NodeDaemonEndpoints {
  kubeletEndpoint?: { Port: number };
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  nodeInfo?: NodeSystemInfo;
  images?: { names?: string[]; sizeBytes?: number }[];
  volumesInUse?: string[];
  volumesAttached?: { name: string; devicePath: string }[];
  config?: Record<string, unknown>;
  runtimeHandlers?: Record<string, unknown>[];
  features?: Record<string, unknown>;
  declaredFeatures?: string[];
}

export interface Node extends KubeObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}
