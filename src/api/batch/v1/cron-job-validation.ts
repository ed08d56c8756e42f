/** `batch/v1` CronJob validation, as upstream's `ValidateCronJobCreate`/`ValidateCronJobUpdate`. */
import {
  type FieldError,
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import type { CronJob, CronJobSpec } from "./cron-job.ts";
import { validateCronSchedule } from "./cron-validation.ts";
import type { JobSpec } from "./job.ts";
import { validateJobTemplateSpec } from "./job-validation.ts";

/**
 * The controller names each Job `<cronjob>-<minutes since the epoch>`, 11 characters more, and a
 * Job's name must fit a 63-character label.
 */
const maxCronJobNameLength = 52;

export function validateCronJob(cronJob: CronJob): FieldErrorList {
  const errs = validateObjectMeta(cronJob.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(
    ...validateCronJobSpec(cronJob.spec ?? ({} as CronJobSpec), undefined, fieldPath("spec")),
  );
  const name = cronJob.metadata.name ?? "";
  if (name.length > maxCronJobNameLength) {
    errs.push(
      invalid(
        fieldPath("metadata", "name"),
        name,
        `must be no more than ${maxCronJobNameLength} characters`,
      ),
    );
  }
  return errs;
}

/** On update the 52-character limit is not checked, so older, longer CronJobs stay editable. */
export function validateCronJobUpdate(cronJob: CronJob, old: CronJob): FieldErrorList {
  const errs = validateObjectMetaUpdate(cronJob.metadata, old.metadata, fieldPath("metadata"));
  errs.push(
    ...validateCronJobSpec(
      cronJob.spec ?? ({} as CronJobSpec),
      old.spec ?? ({} as CronJobSpec),
      fieldPath("spec"),
    ),
  );
  return errs;
}

function validateCronJobSpec(
  spec: CronJobSpec,
  old: CronJobSpec | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  // The time zone is checked on create and whenever it changes (an update keeps a zone the
  // machine's time zone database has since dropped).
  const checkZone = old === undefined || old.timeZone !== spec.timeZone;
  for (const problem of validateCronSchedule(spec.schedule ?? "", spec.timeZone, old?.schedule)) {
    if (problem.field === "timeZone" && !checkZone) continue;
    errs.push(scheduleError(problem, spec, path));
  }
  errs.push(
    ...validateNonnegative(spec.startingDeadlineSeconds, path.child("startingDeadlineSeconds")),
  );
  errs.push(...validateConcurrencyPolicy(spec.concurrencyPolicy, path.child("concurrencyPolicy")));
  const template = path.child("jobTemplate");
  errs.push(
    ...validateJobTemplateSpec((spec.jobTemplate?.spec ?? {}) as JobSpec, template.child("spec")),
  );
  errs.push(
    ...validateNonnegative(
      spec.successfulJobsHistoryLimit,
      path.child("successfulJobsHistoryLimit"),
    ),
  );
  errs.push(
    ...validateNonnegative(spec.failedJobsHistoryLimit, path.child("failedJobsHistoryLimit")),
  );
  return errs;
}

function scheduleError(
  problem: ReturnType<typeof validateCronSchedule>[number],
  spec: CronJobSpec,
  path: FieldPath,
): FieldError {
  const at = path.child(problem.field);
  const value = problem.field === "schedule" ? spec.schedule : spec.timeZone;
  switch (problem.kind) {
    case "Required":
      return required(at, problem.detail);
    case "Forbidden":
      return forbiddenField(at, problem.detail);
    default:
      return invalid(at, value, problem.detail);
  }
}

/** `validateConcurrencyPolicy`. */
function validateConcurrencyPolicy(policy: string | undefined, path: FieldPath): FieldErrorList {
  if (policy === "Allow" || policy === "Forbid" || policy === "Replace") return [];
  if (policy === undefined || policy === "") return [required(path)];
  return [notSupported(path, policy, ["Allow", "Forbid", "Replace"])];
}
