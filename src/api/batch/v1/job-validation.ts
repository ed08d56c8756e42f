/** `batch/v1` Job validation, as upstream's `ValidateJob`/`ValidateJobUpdate`. */

import { validatePodTemplate } from "../../apps/v1/core-adapter.ts";
import {
  goLabelSelector,
  goStringMap,
  invalidRaw,
  selectorMatchesLabels,
  selectorMismatch,
} from "../../apps/v1/validation-helpers.ts";
import { type FieldErrorList, invalid, notSupported, required } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import type { ObjectMeta } from "../../meta/types.ts";
import { semanticEqual } from "../../validation/equality.ts";
import {
  validateImmutableField,
  validateLabelSelector,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  controllerUidLabel,
  type Job,
  type JobSpec,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
} from "./job.ts";
import {
  validateGangSchedulingAnnotation,
  validateJobSchedulingSpec,
  validateJobSchedulingUpdate,
} from "./job-scheduling-validation.ts";

const maxParallelismForIndexedJob = 100_000;

export function validateJob(job: Job): FieldErrorList {
  const errs = validateObjectMeta(job.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateGeneratedSelector(job, true));
  errs.push(...validateGangSchedulingAnnotation(job));
  errs.push(...validateJobSpec(job.spec ?? ({} as JobSpec), fieldPath("spec")));
  return errs;
}

export function validateJobUpdate(job: Job, old: Job): FieldErrorList {
  const errs = validateObjectMetaUpdate(job.metadata, old.metadata, fieldPath("metadata"));
  const oldLabels = old.spec?.template?.metadata?.labels ?? {};
  errs.push(...validateGeneratedSelector(job, controllerUidLabel in oldLabels));
  const spec = job.spec ?? ({} as JobSpec);
  const oldSpec = old.spec ?? ({} as JobSpec);
  const p = fieldPath("spec");
  errs.push(...validateJobSpec(spec, p));
  errs.push(...validateCompletionsUpdate(spec, oldSpec, p));
  errs.push(...immutableSelector(spec, oldSpec, p.child("selector")));
  errs.push(...validateTemplateUpdate(job, old, p.child("template")));
  errs.push(
    ...validateImmutableField(
      spec.completionMode,
      oldSpec.completionMode,
      p.child("completionMode"),
    ),
  );
  errs.push(
    ...validateImmutableField(
      spec.podFailurePolicy,
      oldSpec.podFailurePolicy,
      p.child("podFailurePolicy"),
    ),
  );
  errs.push(
    ...validateImmutableField(
      spec.backoffLimitPerIndex,
      oldSpec.backoffLimitPerIndex,
      p.child("backoffLimitPerIndex"),
    ),
  );
  errs.push(...validateImmutableField(spec.managedBy, oldSpec.managedBy, p.child("managedBy")));
  errs.push(
    ...validateImmutableField(spec.successPolicy, oldSpec.successPolicy, p.child("successPolicy")),
  );
  errs.push(...validateGangSchedulingAnnotation(job));
  errs.push(...validateJobSchedulingUpdate(job, old));
  return errs;
}

/** `ValidateJobSpec`: the fields every Job spec must satisfy, and a selector matching the template. */
export function validateJobSpec(spec: JobSpec, path: FieldPath): FieldErrorList {
  const errs = validateJobSpecFields(spec, path);
  if (spec.selector === undefined) {
    errs.push(required(path.child("selector")));
  } else {
    errs.push(...validateLabelSelector(spec.selector, path.child("selector")));
  }
  const labels = spec.template?.metadata?.labels;
  if (selectorMatchesLabels(spec.selector, labels) === false) {
    errs.push(selectorMismatch(path.child("template", "metadata", "labels"), labels));
  }
  return errs;
}

/**
 * `ValidateJobTemplateSpec`: a CronJob's job template, whose selector the Job controller
 * generates for each Job, so none may be given.
 */
export function validateJobTemplateSpec(spec: JobSpec, path: FieldPath): FieldErrorList {
  const errs = validateJobSpecFields(spec, path);
  if (spec.selector !== undefined) {
    errs.push(
      invalidRaw(
        path.child("selector"),
        goLabelSelector(spec.selector),
        "`selector` will be auto-generated",
      ),
    );
  }
  if (spec.manualSelector === true) {
    errs.push(notSupported(path.child("manualSelector"), true, ["nil", "false"]));
  }
  return errs;
}

/** Upstream's unexported `validateJobSpec`: everything but the selector. */
function validateJobSpecFields(spec: JobSpec, path: FieldPath): FieldErrorList {
  const errs = validateNonnegative(spec.parallelism, path.child("parallelism"));
  errs.push(...validateNonnegative(spec.completions, path.child("completions")));
  errs.push(
    ...validateNonnegative(spec.activeDeadlineSeconds, path.child("activeDeadlineSeconds")),
  );
  errs.push(...validateNonnegative(spec.backoffLimit, path.child("backoffLimit")));
  errs.push(
    ...validateNonnegative(spec.ttlSecondsAfterFinished, path.child("ttlSecondsAfterFinished")),
  );
  if (spec.backoffLimitPerIndex !== undefined) {
    errs.push(
      ...validateNonnegative(spec.backoffLimitPerIndex, path.child("backoffLimitPerIndex")),
    );
    if (spec.completionMode !== "Indexed") {
      errs.push(
        invalid(
          path.child("backoffLimitPerIndex"),
          spec.backoffLimitPerIndex,
          "requires indexed completion mode",
        ),
      );
    }
  }
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...validateNonnegative(spec.maxFailedIndexes, path.child("maxFailedIndexes")));
    if (spec.backoffLimitPerIndex === undefined) {
      errs.push(required(path.child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
    }
  }
  if (spec.completionMode !== undefined) {
    if (spec.completionMode !== "NonIndexed" && spec.completionMode !== "Indexed") {
      errs.push(
        notSupported(path.child("completionMode"), spec.completionMode, ["NonIndexed", "Indexed"]),
      );
    }
    if (spec.completionMode === "Indexed") {
      if (spec.completions === undefined) {
        errs.push(required(path.child("completions"), "when completion mode is Indexed"));
      }
      if (spec.parallelism !== undefined && spec.parallelism > maxParallelismForIndexedJob) {
        errs.push(
          invalid(
            path.child("parallelism"),
            spec.parallelism,
            `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`,
          ),
        );
      }
    }
  }
  if (spec.podReplacementPolicy !== undefined) {
    const prp = spec.podReplacementPolicy;
    if (spec.podFailurePolicy !== undefined) {
      if (prp !== "Failed")
        errs.push(notSupported(path.child("podReplacementPolicy"), prp, ["Failed"]));
    } else if (prp !== "Failed" && prp !== "TerminatingOrFailed") {
      errs.push(
        notSupported(path.child("podReplacementPolicy"), prp, ["Failed", "TerminatingOrFailed"]),
      );
    }
  }
  const template = spec.template ?? {};
  errs.push(...validatePodTemplate(template, path.child("template")));
  const restartPolicy = template.spec?.restartPolicy;
  const rp = path.child("template", "spec", "restartPolicy");
  if (restartPolicy === undefined || restartPolicy === "Always") {
    errs.push(required(rp, `valid values: "OnFailure", "Never"`));
  } else if (restartPolicy !== "OnFailure" && restartPolicy !== "Never") {
    errs.push(notSupported(rp, restartPolicy, ["OnFailure", "Never"]));
  } else if (spec.podFailurePolicy !== undefined && restartPolicy !== "Never") {
    errs.push(
      invalid(rp, restartPolicy, `only "Never" is supported when podFailurePolicy is specified`),
    );
  }
  errs.push(...validateJobSchedulingSpec(spec, path));
  return errs;
}

/**
 * Unless `manualSelector` is true, the generated labels must be on the template and the
 * selector must select the job's own uid (`validateGeneratedSelector`).
 */
function validateGeneratedSelector(job: Job, requirePrefixedLabels: boolean): FieldErrorList {
  if (job.spec?.manualSelector === true) return [];
  const errs: FieldErrorList = [];
  const uid = job.metadata.uid ?? "";
  const name = job.metadata.name ?? "";
  if (uid === "") errs.push(required(fieldPath("metadata", "uid")));
  const meta = job.spec?.template?.metadata ?? {};
  const metaPath = fieldPath("spec", "template", "metadata");
  errs.push(...hasLabel(meta, metaPath, legacyControllerUidLabel, uid));
  errs.push(...hasLabel(meta, metaPath, legacyJobNameLabel, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...hasLabel(meta, metaPath, controllerUidLabel, uid));
    errs.push(...hasLabel(meta, metaPath, jobNameLabel, name));
    expected[controllerUidLabel] = uid;
  } else {
    expected[legacyControllerUidLabel] = uid;
  }
  if (selectorMatchesLabels(job.spec?.selector, expected) === false) {
    errs.push(
      invalidRaw(
        fieldPath("spec", "selector"),
        goLabelSelector(job.spec?.selector),
        "`selector` not auto-generated",
      ),
    );
  }
  return errs;
}

/** `ValidateHasLabel`. */
function hasLabel(
  meta: ObjectMeta,
  path: FieldPath,
  key: string,
  expected: string,
): FieldErrorList {
  const actual = meta.labels?.[key];
  const p = path.child("labels").key(key);
  if (actual === undefined) return [required(p, expected)];
  return actual === expected
    ? []
    : [invalidRaw(p, goStringMap(meta.labels), `must be '${expected}'`)];
}

/** Completions are immutable, except that an Indexed job may change them with parallelism. */
function validateCompletionsUpdate(spec: JobSpec, old: JobSpec, path: FieldPath): FieldErrorList {
  if (spec.completions === old.completions) return [];
  if (
    spec.completionMode === "Indexed" &&
    spec.completions !== undefined &&
    old.completions !== undefined
  ) {
    return spec.completions === spec.parallelism
      ? []
      : [
          invalid(
            path.child("completions"),
            spec.completions,
            `can only be modified in tandem with ${path.child("parallelism").toString()}`,
          ),
        ];
  }
  return validateImmutableField(spec.completions, old.completions, path.child("completions"));
}

function immutableSelector(spec: JobSpec, old: JobSpec, path: FieldPath): FieldErrorList {
  return semanticEqual(spec.selector, old.selector)
    ? []
    : [invalidRaw(path, goLabelSelector(spec.selector), "field is immutable")];
}

/**
 * The template is immutable, except that a suspended job that never started may change its
 * scheduling directives: node affinity, node selector, tolerations, scheduling gates, labels and
 * annotations.
 */
function validateTemplateUpdate(job: Job, old: Job, path: FieldPath): FieldErrorList {
  const template = job.spec?.template ?? {};
  const oldTemplate = structuredClone(old.spec?.template ?? {});
  const mutableDirectives = old.spec?.suspend === true && old.status?.startTime === undefined;
  if (mutableDirectives) {
    oldTemplate.metadata = { ...(oldTemplate.metadata ?? {}) };
    setOrDelete(oldTemplate.metadata, "labels", template.metadata?.labels);
    setOrDelete(oldTemplate.metadata, "annotations", template.metadata?.annotations);
    if (oldTemplate.spec !== undefined && template.spec !== undefined) {
      setOrDelete(oldTemplate.spec, "affinity", template.spec.affinity);
      setOrDelete(oldTemplate.spec, "nodeSelector", template.spec.nodeSelector);
      setOrDelete(oldTemplate.spec, "tolerations", template.spec.tolerations);
      setOrDelete(oldTemplate.spec, "schedulingGates", template.spec.schedulingGates);
    }
  }
  return validateImmutableField(template, oldTemplate, path);
}

function setOrDelete<T extends object, K extends keyof T>(
  target: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value === undefined) delete target[key];
  else target[key] = value;
}
