/**
 * Wire types of gantry's `scheduling.k8s.io/v1alpha1` Workload: the 1.35 embedded pod groups
 * (`spec.podGroups`, each optionally replicated) plus templates for standalone PodGroups
 * (`spec.podGroupTemplates`, KEP-5832).
 */
import type { ObjectMeta } from "../../meta/types.ts";

/** The object that owns the Workload, in the Workload's namespace. */
export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

/** `{}`: schedule the group's pods one by one. */
export type BasicSchedulingPolicy = Record<string, never>;

/** All-or-nothing: no pod of a gang binds until `minCount` of them can. */
export interface GangSchedulingPolicy {
  minCount: number;
}

/** Exactly one of `basic` and `gang`. */
export interface PodGroupPolicy {
  basic?: BasicSchedulingPolicy;
  gang?: GangSchedulingPolicy;
}

/** One embedded group; pods join it through `pod.spec.workloadRef.podGroup`. */
export interface WorkloadPodGroup {
  /** A DNS label, unique among `podGroups`. */
  name: string;
  policy: PodGroupPolicy;
  /** How many replicas of this group the workload expects (each replica is one gang). */
  replicas?: number;
}

/** A template that standalone PodGroups name through `spec.podGroupTemplateName`. */
export interface PodGroupTemplate {
  name: string;
  policy: PodGroupPolicy;
}

export interface WorkloadSpec {
  controllerRef?: TypedLocalObjectReference;
  podGroups?: WorkloadPodGroup[];
  podGroupTemplates?: PodGroupTemplate[];
}

export interface Workload {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: WorkloadSpec;
  [field: string]: unknown;
}

/** At most this many entries in `podGroups`, and in `podGroupTemplates`. */
export const workloadMaxPodGroups = 8;
