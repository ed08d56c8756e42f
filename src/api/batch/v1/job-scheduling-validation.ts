/**
 * Validation of a Job's gang-scheduling opt-in: `spec.scheduling` (Kubernetes 1.37, KEP-5547)
 * and gantry's `scheduling.gantry.dev/gang` annotation.
 */

import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { validateImmutableField } from "../../validation/meta.ts";
import { gangSchedulingAnnotation, type Job, type JobSpec } from "./job.ts";

/**
 * `spec.scheduling`: exactly one of `basic` and `gang` when `schedulingPolicy` is set; a gang's
 * `minCount`, when set, between 1 and `parallelism` (a larger gang could never form); and not
 * together with `spec.template.spec.workloadRef`, whose user-managed group would make it moot.
 */
export function validateJobSchedulingSpec(spec: JobSpec, path: FieldPath): FieldErrorList {
  const scheduling = spec.scheduling;
  if (scheduling === undefined) return [];
  const p = path.child("scheduling");
  const errs: FieldErrorList = [];
  if (spec.template?.spec?.workloadRef !== undefined) {
    errs.push(forbiddenField(p, "may not be set when `spec.template.spec.workloadRef` is set"));
  }
  const policy = scheduling.schedulingPolicy;
  if (policy === undefined) return errs;
  const pp = p.child("schedulingPolicy");
  if (policy.basic === undefined && policy.gang === undefined) {
    errs.push(invalid(pp, "", "must specify one of: `basic`, `gang`"));
    return errs;
  }
  if (policy.basic !== undefined && policy.gang !== undefined) {
    errs.push(
      invalid(
        pp,
        "{basic, gang}",
        "exactly one of `basic`, `gang` is required, but multiple fields are set",
      ),
    );
    return errs;
  }
  const minCount = policy.gang?.minCount;
  if (minCount === undefined) return errs;
  const mp = pp.child("gang", "minCount");
  if (minCount < 1) {
    errs.push(invalid(mp, minCount, "must be greater than or equal to 1"));
  } else if (spec.parallelism !== undefined && minCount > spec.parallelism) {
    errs.push(
      invalid(mp, minCount, `must be less than or equal to parallelism (${spec.parallelism})`),
    );
  }
  return errs;
}

/** The opt-in annotation is `"true"` or `"false"`, so a typo never silently opts out. */
export function validateGangSchedulingAnnotation(job: Job): FieldErrorList {
  const value = job.metadata.annotations?.[gangSchedulingAnnotation];
  if (value === undefined || value === "true" || value === "false") return [];
  return [
    notSupported(fieldPath("metadata", "annotations").key(gangSchedulingAnnotation), value, [
      "false",
      "true",
    ]),
  ];
}

/**
 * Whether the Job asks for a gang whose `minCount` is its `parallelism` (a gang without
 * `minCount`, or the annotation without `spec.scheduling`).
 */
function gangFollowsParallelism(job: Job): boolean {
  const scheduling = job.spec?.scheduling;
  if (scheduling !== undefined) {
    const gang = scheduling.schedulingPolicy?.gang;
    return gang !== undefined && gang.minCount === undefined;
  }
  return job.metadata.annotations?.[gangSchedulingAnnotation] === "true";
}

/**
 * `spec.scheduling` is immutable (gantry's Workload templates are, so a changed policy could not
 * reach the group), and so is `parallelism` of a Job whose gang size follows it, as in
 * Kubernetes 1.36.
 */
export function validateJobSchedulingUpdate(job: Job, old: Job): FieldErrorList {
  const p = fieldPath("spec");
  const errs = validateImmutableField(
    job.spec?.scheduling,
    old.spec?.scheduling,
    p.child("scheduling"),
  );
  const parallelism = job.spec?.parallelism;
  if (gangFollowsParallelism(old) && parallelism !== old.spec?.parallelism) {
    errs.push(
      invalid(
        p.child("parallelism"),
        parallelism,
        "field is immutable while the gang's minCount follows it",
      ),
    );
  }
  return errs;
}
