/**
 * Wire types of `leaderworkerset.x-k8s.io/v1` LeaderWorkerSet (kubernetes-sigs/lws), mirroring
 * the JSON exactly. A LeaderWorkerSet runs `replicas` groups; each group is one leader pod and
 * `size - 1` worker pods.
 */
import type { PersistentVolumeClaimTemplate } from "../../apps/v1/stateful-set.ts";
import type { IntOrString, PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { Condition, ObjectMeta } from "../../meta/types.ts";

/** `RecreateGroupOnPodRestart` (default), `RecreateGroupAfterStart`, `None`, or `Default` (deprecated `None`). */
export type RestartPolicyType =
  | "RecreateGroupOnPodRestart"
  | "RecreateGroupAfterStart"
  | "None"
  | "Default";

/** `LeaderCreated` (default): workers right after the leader; `LeaderReady`: once it is Ready. */
export type StartupPolicyType = "LeaderCreated" | "LeaderReady";

export type SubGroupPolicyType = "LeaderWorker" | "LeaderExcluded";

/** `Shared` (default): one headless service `<lws>`; `UniquePerReplica`: one per group. */
export type SubdomainPolicy = "Shared" | "UniquePerReplica";

export interface SubGroupPolicy {
  subGroupPolicyType?: SubGroupPolicyType;
  subGroupSize?: number;
}

export interface LeaderWorkerTemplate {
  /** The leader's template; the worker template when unset. */
  leaderTemplate?: PodTemplateSpec;
  workerTemplate: PodTemplateSpec;
  /** Pods per group, the leader included. @default 1 */
  size?: number;
  /** @default "RecreateGroupOnPodRestart" */
  restartPolicy?: RestartPolicyType;
  subGroupPolicy?: SubGroupPolicy;
  volumeClaimTemplates?: PersistentVolumeClaimTemplate[];
  persistentVolumeClaimRetentionPolicy?: {
    whenDeleted?: "Retain" | "Delete";
    whenScaled?: "Retain" | "Delete";
  };
}

export interface RollingUpdateConfiguration {
  /** Groups below this index are not updated. @default 0 */
  partition?: number;
  /** @default 1 */
  maxUnavailable?: IntOrString;
  /** @default 0 */
  maxSurge?: IntOrString;
}

export interface RolloutStrategy {
  /** Only `RollingUpdate`. */
  type: "RollingUpdate";
  rollingUpdateConfiguration?: RollingUpdateConfiguration;
}

export interface NetworkConfig {
  subdomainPolicy?: SubdomainPolicy;
}

export interface LeaderWorkerSetSpec {
  /** Number of groups; the `/scale` subresource's replicas. @default 1 */
  replicas?: number;
  leaderWorkerTemplate: LeaderWorkerTemplate;
  rolloutStrategy?: RolloutStrategy;
  /** @default "LeaderCreated" */
  startupPolicy?: StartupPolicyType;
  networkConfig?: NetworkConfig;
}

export interface LeaderWorkerSetStatus {
  conditions?: Condition[];
  /** Groups whose every pod is Running and Ready (updated or not). */
  readyReplicas?: number;
  /** Groups at the current template revision (ready or not). */
  updatedReplicas?: number;
  /** Groups that exist (their leader pod does). */
  replicas?: number;
  /** The selector of the leader pods, for the HorizontalPodAutoscaler through `/scale`. */
  hpaPodSelector?: string;
  observedGeneration?: number;
}

export interface LeaderWorkerSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: LeaderWorkerSetSpec;
  status?: LeaderWorkerSetStatus;
  [field: string]: unknown;
}

/** The condition types of a LeaderWorkerSet. */
export type LeaderWorkerSetConditionType = "Available" | "Progressing" | "UpdateInProgress";
