/** Wire types of `apps/v1` StatefulSet, mirroring the JSON exactly. */
import type { IntOrString, PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";
import type { AppsCondition } from "./deployment.ts";

export interface RollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
}

export interface StatefulSetUpdateStrategy {
  type?: "RollingUpdate" | "OnDelete";
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

export type PersistentVolumeClaimRetentionPolicyType = "Retain" | "Delete";

export interface StatefulSetPersistentVolumeClaimRetentionPolicy {
  whenDeleted?: PersistentVolumeClaimRetentionPolicyType;
  whenScaled?: PersistentVolumeClaimRetentionPolicyType;
}

/**
 * A PersistentVolumeClaim template. Its spec is core's PersistentVolumeClaimSpec, kept as sent
 * here (volume claims are not emulated).
 */
export interface PersistentVolumeClaimTemplate {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaimTemplate[];
  serviceName?: string;
  podManagementPolicy?: "OrderedReady" | "Parallel";
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: AppsCondition[];
  availableReplicas?: number;
}

export interface StatefulSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: StatefulSetSpec;
  status?: StatefulSetStatus;
  [field: string]: unknown;
}
