/** Wire types of `batch/v1` CronJob, mirroring the JSON exactly. */
import type { ObjectReference } from "../../core/v1/event.ts";
import type { ObjectMeta } from "../../meta/types.ts";
import type { JobSpec } from "./job.ts";

export type ConcurrencyPolicy = "Allow" | "Forbid" | "Replace";

/** `JobTemplateSpec`: what each Job the CronJob creates starts from. */
export interface JobTemplateSpec {
  metadata?: ObjectMeta;
  spec?: Partial<JobSpec>;
}

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: ConcurrencyPolicy;
  suspend?: boolean;
  jobTemplate: JobTemplateSpec;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CronJobSpec;
  status?: CronJobStatus;
  [field: string]: unknown;
}

/**
 * Set by the CronJob controller on each Job it creates: the scheduled time (RFC 3339) the Job
 * stands for (upstream's `batch.kubernetes.io/cronjob-scheduled-timestamp`).
 */
export const cronJobScheduledTimestampAnnotation =
  "batch.kubernetes.io/cronjob-scheduled-timestamp";

/** Set by `kubectl create job --from=cronjob/NAME` on the Job it makes by hand. */
export const cronJobInstantiateAnnotation = "cronjob.kubernetes.io/instantiate";
