/** Wire types of `apps/v1` Deployment, mirroring the JSON exactly. */
import type { IntOrString, PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: "Recreate" | "RollingUpdate";
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

/** The `apps/v1` condition shape shared by Deployment, ReplicaSet, StatefulSet and DaemonSet. */
export interface AppsCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: AppsCondition[];
  collisionCount?: number;
}

export interface Deployment {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: DeploymentSpec;
  status?: DeploymentStatus;
  [field: string]: unknown;
}
