/** `batch/v1` CronJob defaulting. */
import { defaultPodTemplate } from "../../apps/v1/core-adapter.ts";
import type { CronJob } from "./cron-job.ts";

/**
 * `SetDefaults_CronJob` (batch/v1), then what the generated defaulters fill inside the job
 * template: the pod template's defaults and the pod failure policy's `status: "True"`. The
 * template's Job-level fields (parallelism, completions, backoffLimit, …) stay unset: each Job
 * made from it gets them when it is created.
 */
export function defaultCronJob(cronJob: CronJob): void {
  const spec = cronJob.spec;
  if (spec === undefined) return;
  spec.concurrencyPolicy ??= "Allow";
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobSpec = spec.jobTemplate?.spec;
  if (jobSpec === undefined) return;
  for (const rule of jobSpec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) pattern.status ??= "True";
  }
  if (jobSpec.template !== undefined) defaultPodTemplate(jobSpec.template);
}
