// The public surface of batch/v1.
export {
  type ConcurrencyPolicy,
  type CronJob,
  type CronJobSpec,
  type CronJobStatus,
  cronJobInstantiateAnnotation,
  cronJobScheduledTimestampAnnotation,
  type JobTemplateSpec,
} from "./cron-job.ts";
export { defaultCronJob } from "./cron-job-defaults.ts";
export { cronJobDefinitions } from "./cron-job-schema.ts";
export { validateCronJob, validateCronJobUpdate } from "./cron-job-validation.ts";
export { type CronSchedule, parseCronSchedule } from "./cron-parse.ts";
export { mostRecentScheduleTime, nextScheduleTime } from "./cron-schedule.ts";
export { loadLocationError } from "./cron-time.ts";
export { validateTimeZone } from "./cron-validation.ts";
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
export {
  validateJob,
  validateJobSpec,
  validateJobTemplateSpec,
  validateJobUpdate,
} from "./job-validation.ts";
export { batchV1Definitions, batchV1Kinds, cronJobKind, jobKind } from "./kinds.ts";
