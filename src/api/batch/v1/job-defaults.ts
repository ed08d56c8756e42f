/** `batch/v1` Job defaulting and the registry's selector generation. */
import { defaultPodTemplate } from "../../apps/v1/core-adapter.ts";
import {
  controllerUidLabel,
  type Job,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
} from "./job.ts";

const maxInt32 = 2_147_483_647;

/** `SetDefaults_Job` (batch/v1), then the pod template's defaults. */
export function defaultJob(job: Job): void {
  const spec = job.spec;
  if (spec === undefined) return;
  // A non-parallel job may leave both unset: both then default to 1.
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : maxInt32;
  const templateLabels = spec.template?.metadata?.labels;
  if (templateLabels !== undefined && Object.keys(job.metadata.labels ?? {}).length === 0) {
    job.metadata.labels = { ...templateLabels };
  }
  spec.completionMode ??= "NonIndexed";
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) pattern.status ??= "True";
  }
  spec.podReplacementPolicy ??=
    spec.podFailurePolicy === undefined ? "TerminatingOrFailed" : "Failed";
  spec.manualSelector ??= false;
  if (spec.template !== undefined) defaultPodTemplate(spec.template);
}

/**
 * What the Job registry does on create unless `spec.manualSelector` is true: label the pod
 * template with the job's name and `uid` (both the `batch.kubernetes.io/` and the legacy
 * unprefixed keys, never overwriting labels the user set), and select on
 * `batch.kubernetes.io/controller-uid=<uid>`. A conflicting user label is left for validation
 * to reject. Mutates `job` in place; call it after the uid is assigned and before validation.
 */
export function generateJobSelector(job: Job, uid: string): void {
  const spec = job.spec;
  if (spec === undefined || spec.manualSelector === true) return;
  spec.template ??= {};
  spec.template.metadata ??= {};
  spec.template.metadata.labels ??= {};
  const labels = spec.template.metadata.labels;
  const name = job.metadata.name ?? "";
  for (const key of [legacyJobNameLabel, jobNameLabel]) labels[key] ??= name;
  for (const key of [legacyControllerUidLabel, controllerUidLabel]) labels[key] ??= uid;
  spec.selector ??= {};
  spec.selector.matchLabels ??= {};
  const matchLabels = spec.selector.matchLabels;
  matchLabels[controllerUidLabel] ??= uid;
}
