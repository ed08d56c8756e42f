/** Pod-template checks shared by the apps/v1 controllers, with upstream's messages. */
import type { PodTemplateSpec } from "../../core/v1/pod-template.ts";
import {
  type FieldErrorList,
  forbiddenField,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import type { LabelSelector } from "../../meta/types.ts";
import { validateLabelSelector } from "../../validation/meta.ts";
import { validatePodTemplate } from "./core-adapter.ts";
import {
  goLabelSelector,
  invalidRaw,
  isEmptySelector,
  selectorMatchesLabels,
  selectorMismatch,
} from "./validation-helpers.ts";

/**
 * `spec.selector`: required, valid, and not empty (`empty selector is invalid for <kind>`; the
 * ReplicaSet check says "deployment", as upstream's does).
 */
export function validateControllerSelector(
  selector: LabelSelector | undefined,
  path: FieldPath,
  kindWord: string,
): FieldErrorList {
  if (selector === undefined) return [required(path)];
  const errs = validateLabelSelector(selector, path);
  if (isEmptySelector(selector)) {
    errs.push(
      invalidRaw(path, goLabelSelector(selector), `empty selector is invalid for ${kindWord}`),
    );
  }
  return errs;
}

/**
 * `ValidatePodTemplateSpecForReplicaSet` (and its StatefulSet/DaemonSet twins): the template must
 * exist, match the selector, be a valid pod template, restart `Always`, and set no
 * `activeDeadlineSeconds`.
 */
export function validateControllerTemplate(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  path: FieldPath,
  kind: string,
): FieldErrorList {
  if (template === undefined) return [required(path)];
  const errs: FieldErrorList = [];
  const labels = template.metadata?.labels;
  // A nil selector selects nothing, so it never matches; `{}` skips the check (upstream's
  // `!selector.Empty()`).
  if (selector === undefined || !isEmptySelector(selector)) {
    if (selectorMatchesLabels(selector, labels) === false) {
      errs.push(selectorMismatch(path.child("metadata", "labels"), labels));
    }
  }
  errs.push(...validatePodTemplate(template, path));
  const restartPolicy = template.spec?.restartPolicy;
  if (restartPolicy !== "Always") {
    errs.push(notSupported(path.child("spec", "restartPolicy"), restartPolicy ?? "", ["Always"]));
  }
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(
      forbiddenField(
        path.child("spec", "activeDeadlineSeconds"),
        `activeDeadlineSeconds in ${kind} is not Supported`,
      ),
    );
  }
  return errs;
}

/**
 * Runs the template checks when the selector converts, else reports `invalid label selector` on
 * the selector, as the apps validators do.
 */
export function validateSelectorAndTemplate(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
  specPath: FieldPath,
  kind: string,
): FieldErrorList {
  if (selector !== undefined && selectorMatchesLabels(selector, {}) === undefined) {
    return [
      invalidRaw(specPath.child("selector"), goLabelSelector(selector), "invalid label selector"),
    ];
  }
  return validateControllerTemplate(template, selector, specPath.child("template"), kind);
}
