/** Wire types of `apps/v1` DaemonSet, mirroring the JSON exactly. */
import type { IntOrString, PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";
import type { AppsCondition } from "./deployment.ts";

export interface RollingUpdateDaemonSet {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DaemonSetUpdateStrategy {
  type?: "RollingUpdate" | "OnDelete";
  rollingUpdate?: RollingUpdateDaemonSet;
}

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: AppsCondition[];
}

export interface DaemonSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: DaemonSetSpec;
  status?: DaemonSetStatus;
  [field: string]: unknown;
}
