/** Wire types of gantry's `scheduling.k8s.io/v1alpha1` PodGroup (KEP-5832 shape). */
import type { Condition, ObjectMeta } from "../../meta/types.ts";

/** The Workload, in the PodGroup's namespace, whose template this group instantiates. */
export interface PodGroupWorkloadReference {
  name: string;
}

export interface PodGroupSpec {
  workloadRef: PodGroupWorkloadReference;
  /** The name of one of the Workload's `spec.podGroupTemplates`. */
  podGroupTemplateName: string;
}

export interface PodGroupStatus {
  /** How many of the group's pods are bound to nodes. */
  scheduledPods?: number;
  conditions?: Condition[];
}

export interface PodGroup {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodGroupSpec;
  status?: PodGroupStatus;
  [field: string]: unknown;
}

/** The condition the scheduler maintains on a PodGroup, and its reasons. */
export const podGroupScheduledCondition = "PodGroupScheduled";
export const podGroupScheduledReason = "Scheduled";
export const podGroupUnschedulableReason = "Unschedulable";
export const podGroupSchedulerErrorReason = "SchedulerError";
