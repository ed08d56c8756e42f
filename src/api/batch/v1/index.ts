// The public surface of batch/v1.
export {
  type CompletionMode,
  controllerUidLabel,
  gangSchedulingAnnotation,
  type Job,
  type JobCondition,
  type JobSchedulingConfiguration,
  type JobSpec,
  type JobStatus,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
  type PodFailurePolicy,
  type PodFailurePolicyRule,
  type PodReplacementPolicy,
  type SuccessPolicy,
  type UncountedTerminatedPods,
  type WorkloadPodGroupBasicSchedulingPolicy,
  type WorkloadPodGroupGangSchedulingPolicy,
  type WorkloadPodGroupSchedulingPolicy,
} from "./job.ts";
export { defaultJob, generateJobSelector } from "./job-defaults.ts";
export { batchName, jobDefinitions } from "./job-schema.ts";
export { validateJob, validateJobSpec, validateJobUpdate } from "./job-validation.ts";
export { batchV1Definitions, batchV1Kinds, jobKind } from "./kinds.ts";
