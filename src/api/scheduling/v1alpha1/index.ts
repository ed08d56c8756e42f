// The public surface of scheduling.k8s.io/v1alpha1.
export { podGroupKind, schedulingV1alpha1Kinds, workloadKind } from "./kinds.ts";
export {
  type PodGroup,
  type PodGroupSpec,
  type PodGroupStatus,
  type PodGroupWorkloadReference,
  podGroupScheduledCondition,
  podGroupScheduledReason,
  podGroupSchedulerErrorReason,
  podGroupUnschedulableReason,
} from "./pod-group.ts";
export { schedulingV1alpha1Definitions, schedulingV1alpha1Name } from "./schema.ts";
export {
  validatePodGroup,
  validatePodGroupSpec,
  validatePodGroupUpdate,
  validateWorkload,
  validateWorkloadSpec,
  validateWorkloadUpdate,
} from "./validation.ts";
export {
  type BasicSchedulingPolicy,
  type GangSchedulingPolicy,
  type PodGroupPolicy,
  type PodGroupTemplate,
  type TypedLocalObjectReference,
  type Workload,
  type WorkloadPodGroup,
  type WorkloadSpec,
  workloadMaxPodGroups,
} from "./workload.ts";
