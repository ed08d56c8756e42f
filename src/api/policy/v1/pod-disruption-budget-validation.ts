/** `policy/v1` PodDisruptionBudget validation, as upstream's, plus gantry's budget scope. */

import {
  goIntOrString,
  goLabelSelector,
  invalidRaw,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from "../../apps/v1/validation-helpers.ts";
import { type FieldErrorList, invalid, notSupported } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateLabelSelector,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { validateConditions } from "./conditions-validation.ts";
import type {
  PodDisruptionBudget,
  PodDisruptionBudgetSpec,
  PodDisruptionBudgetStatus,
} from "./pod-disruption-budget.ts";

export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldErrorList {
  const errs = validateObjectMeta(pdb.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validatePodDisruptionBudgetSpec(pdb.spec ?? {}, fieldPath("spec")));
  return errs;
}

/** The spec is mutable in policy/v1; the status is checked as the status subresource does. */
export function validatePodDisruptionBudgetUpdate(
  pdb: PodDisruptionBudget,
  old: PodDisruptionBudget,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(pdb.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validatePodDisruptionBudgetSpec(pdb.spec ?? {}, fieldPath("spec")));
  if (pdb.status !== undefined) {
    errs.push(...validatePodDisruptionBudgetStatus(pdb.status, fieldPath("status")));
  }
  return errs;
}

export function validatePodDisruptionBudgetSpec(
  spec: PodDisruptionBudgetSpec,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalidRaw(path, goSpec(spec), "minAvailable and maxUnavailable cannot be both set"));
  }
  for (const key of ["minAvailable", "maxUnavailable"] as const) {
    const value = spec[key];
    if (value === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(value, path.child(key)));
    errs.push(...isNotMoreThan100Percent(value, path.child(key)));
  }
  errs.push(...validateLabelSelector(spec.selector, path.child("selector")));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== "IfHealthyBudget" && policy !== "AlwaysAllow") {
    errs.push(
      notSupported(path.child("unhealthyPodEvictionPolicy"), policy, [
        "AlwaysAllow",
        "IfHealthyBudget",
      ]),
    );
  }
  errs.push(...validateBudgetScope(spec, path));
  return errs;
}

/**
 * gantry: `budgetScope` must be `Pod` or `PodGroup`, and when `usePodGroups` is also set the two
 * must agree (`usePodGroups: true` means `PodGroup`, `false` means `Pod`).
 */
function validateBudgetScope(spec: PodDisruptionBudgetSpec, path: FieldPath): FieldErrorList {
  const scope: unknown = spec.budgetScope;
  if (scope === undefined) return [];
  if (scope !== "Pod" && scope !== "PodGroup") {
    return [notSupported(path.child("budgetScope"), scope, ["Pod", "PodGroup"])];
  }
  if (spec.usePodGroups === undefined) return [];
  const implied = spec.usePodGroups ? "PodGroup" : "Pod";
  return scope === implied
    ? []
    : [
        invalid(
          path.child("budgetScope"),
          scope,
          `must be "${implied}" when usePodGroups is ${String(spec.usePodGroups)}, or leave one of them unset`,
        ),
      ];
}

/** `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1). */
export function validatePodDisruptionBudgetStatus(
  status: PodDisruptionBudgetStatus,
  path: FieldPath,
): FieldErrorList {
  const errs = validateConditions(status.conditions, path.child("conditions"));
  errs.push(...validateNonnegative(status.disruptionsAllowed, path.child("disruptionsAllowed")));
  errs.push(...validateNonnegative(status.currentHealthy, path.child("currentHealthy")));
  errs.push(...validateNonnegative(status.desiredHealthy, path.child("desiredHealthy")));
  errs.push(...validateNonnegative(status.expectedPods, path.child("expectedPods")));
  return errs;
}

/** A deterministic rendering of Go's `%#v` of the spec (pointers shown by value). */
function goSpec(spec: PodDisruptionBudgetSpec): string {
  const ios = (v: PodDisruptionBudgetSpec["minAvailable"]): string =>
    v === undefined ? "(*intstr.IntOrString)(nil)" : `&${goIntOrString(v)}`;
  const selector =
    spec.selector === undefined ? "(*v1.LabelSelector)(nil)" : `&${goLabelSelector(spec.selector)}`;
  const policy =
    spec.unhealthyPodEvictionPolicy === undefined
      ? "(*policy.UnhealthyPodEvictionPolicyType)(nil)"
      : `&${JSON.stringify(spec.unhealthyPodEvictionPolicy)}`;
  return `policy.PodDisruptionBudgetSpec{MinAvailable:${ios(spec.minAvailable)}, Selector:${selector}, MaxUnavailable:${ios(spec.maxUnavailable)}, UnhealthyPodEvictionPolicy:${policy}}`;
}
