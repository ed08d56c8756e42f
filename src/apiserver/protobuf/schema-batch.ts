// k8s.io/api/batch/v1: Job and CronJob. Field numbers: batch/v1 generated.proto (1.33); JSON
// rules: batch/v1 types.go.

import { keep, list, type MessageTable, ptr, val } from "./schema.ts";

export const batchMessages: MessageTable = {
  Job: [val(1, "metadata", "ObjectMeta"), val(2, "spec", "JobSpec"), val(3, "status", "JobStatus")],
  JobSpec: [
    ptr(1, "parallelism", "int32"),
    ptr(2, "completions", "int32"),
    ptr(3, "activeDeadlineSeconds", "int64"),
    ptr(11, "podFailurePolicy", "PodFailurePolicy"),
    ptr(16, "successPolicy", "SuccessPolicy"),
    ptr(7, "backoffLimit", "int32"),
    ptr(12, "backoffLimitPerIndex", "int32"),
    ptr(13, "maxFailedIndexes", "int32"),
    ptr(4, "selector", "LabelSelector"),
    ptr(5, "manualSelector", "bool"),
    val(6, "template", "PodTemplateSpec", keep),
    ptr(8, "ttlSecondsAfterFinished", "int32"),
    ptr(9, "completionMode", "string"),
    ptr(10, "suspend", "bool"),
    ptr(14, "podReplacementPolicy", "string"),
    ptr(15, "managedBy", "string"),
  ],
  PodFailurePolicy: [list(1, "rules", "PodFailurePolicyRule", keep)],
  PodFailurePolicyRule: [
    val(1, "action", "string", keep),
    ptr(2, "onExitCodes", "PodFailurePolicyOnExitCodesRequirement"),
    list(3, "onPodConditions", "PodFailurePolicyOnPodConditionsPattern"),
  ],
  PodFailurePolicyOnExitCodesRequirement: [
    ptr(1, "containerName", "string"),
    val(2, "operator", "string", keep),
    list(3, "values", "int32", keep),
  ],
  PodFailurePolicyOnPodConditionsPattern: [
    val(1, "type", "string", keep),
    val(2, "status", "string", keep),
  ],
  SuccessPolicy: [list(1, "rules", "SuccessPolicyRule", keep)],
  SuccessPolicyRule: [ptr(1, "succeededIndexes", "string"), ptr(2, "succeededCount", "int32")],
  // Status is server-owned and ignored on create; only its shape (`{}`) is kept.
  JobStatus: [],
  JobTemplateSpec: [val(1, "metadata", "ObjectMeta"), val(2, "spec", "JobSpec")],
  CronJob: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "CronJobSpec"),
    val(3, "status", "CronJobStatus"),
  ],
  CronJobSpec: [
    val(1, "schedule", "string", keep),
    ptr(8, "timeZone", "string"),
    ptr(2, "startingDeadlineSeconds", "int64"),
    val(3, "concurrencyPolicy", "string"),
    ptr(4, "suspend", "bool"),
    val(5, "jobTemplate", "JobTemplateSpec", keep),
    ptr(6, "successfulJobsHistoryLimit", "int32"),
    ptr(7, "failedJobsHistoryLimit", "int32"),
  ],
  CronJobStatus: [],
};
