/** Wire types of `batch/v1` Job, mirroring the JSON exactly. */
import type { PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { LabelSelector, ObjectMeta } from "../../meta/types.ts";

export interface PodFailurePolicyOnExitCodesRequirement {
  containerName?: string;
  operator: "In" | "NotIn";
  values: number[];
}

export interface PodFailurePolicyOnPodConditionsPattern {
  type: string;
  status?: "True" | "False" | "Unknown";
}

export interface PodFailurePolicyRule {
  action: "FailJob" | "FailIndex" | "Ignore" | "Count";
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

export interface PodFailurePolicy {
  rules: PodFailurePolicyRule[];
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

export interface SuccessPolicy {
  rules: SuccessPolicyRule[];
}

/** `{}`: the Job's pods schedule one by one (upstream's `WorkloadPodGroupBasicSchedulingPolicy`). */
export type WorkloadPodGroupBasicSchedulingPolicy = Record<string, never>;

/** All-or-nothing placement (upstream's `WorkloadPodGroupGangSchedulingPolicy`). */
export interface WorkloadPodGroupGangSchedulingPolicy {
  /** At least this many pods must fit before any binds. Unset: the Job's parallelism. */
  minCount?: number;
}

/** Exactly one of `basic` and `gang` (upstream's `WorkloadPodGroupSchedulingPolicy`). */
export interface WorkloadPodGroupSchedulingPolicy {
  basic?: WorkloadPodGroupBasicSchedulingPolicy;
  gang?: WorkloadPodGroupGangSchedulingPolicy;
}

/**
 * `spec.scheduling` (Kubernetes 1.37, KEP-5547): the Job's workload-aware scheduling intent,
 * which the Job controller compiles into a Workload and a PodGroup. gantry serves the policy
 * only; upstream's `schedulingConstraints`, `disruptionMode` and `resourceClaims` are not served.
 */
export interface JobSchedulingConfiguration {
  /** Unset: basic. */
  schedulingPolicy?: WorkloadPodGroupSchedulingPolicy;
}

export type CompletionMode = "NonIndexed" | "Indexed";
export type PodReplacementPolicy = "TerminatingOrFailed" | "Failed";

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: PodFailurePolicy;
  successPolicy?: SuccessPolicy;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: CompletionMode;
  suspend?: boolean;
  podReplacementPolicy?: PodReplacementPolicy;
  managedBy?: string;
  scheduling?: JobSchedulingConfiguration;
}

export interface JobCondition {
  type: "Suspended" | "Complete" | "Failed" | "FailureTarget" | "SuccessCriteriaMet" | string;
  status: "True" | "False" | "Unknown";
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  ready?: number;
}

export interface Job {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: JobSpec;
  status?: JobStatus;
  [field: string]: unknown;
}

/** The label the Job controller and selector generation key pods on (GA name). */
export const controllerUidLabel = "batch.kubernetes.io/controller-uid";
/** The pre-1.27 spelling, still set on pods for compatibility. */
export const legacyControllerUidLabel = "controller-uid";
export const jobNameLabel = "batch.kubernetes.io/job-name";
export const legacyJobNameLabel = "job-name";

/**
 * gantry's opt-in for clients whose Job type has no `spec.scheduling`: `"true"` asks the Job
 * controller for a gang of `parallelism` pods, as `spec.scheduling.schedulingPolicy.gang: {}`
 * does. `spec.scheduling`, when set, wins. The only values accepted are `"true"` and `"false"`.
 */
export const gangSchedulingAnnotation = "scheduling.gantry.dev/gang";
