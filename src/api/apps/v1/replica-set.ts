/** Wire types of `apps/v1` ReplicaSet, mirroring the JSON exactly. */
import type { PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";
import type { AppsCondition } from "./deployment.ts";

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: AppsCondition[];
}

export interface ReplicaSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ReplicaSetSpec;
  status?: ReplicaSetStatus;
  [field: string]: unknown;
}
