/** `apps/v1` Deployment validation, as upstream's `ValidateDeployment`/`ValidateDeploymentUpdate`. */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateImmutableField,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import type { Deployment, DeploymentSpec, DeploymentStrategy } from "./deployment.ts";
import { validateControllerSelector, validateSelectorAndTemplate } from "./template-validation.ts";
import {
  goIntOrString,
  goLabelSelector,
  intOrPercentNumber,
  invalidRaw,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from "./validation-helpers.ts";

export function validateDeployment(d: Deployment): FieldErrorList {
  const errs = validateObjectMeta(d.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateDeploymentSpec(d.spec ?? ({} as DeploymentSpec), fieldPath("spec")));
  return errs;
}

export function validateDeploymentUpdate(d: Deployment, old: Deployment): FieldErrorList {
  const errs = validateObjectMetaUpdate(d.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateDeploymentSpec(d.spec ?? ({} as DeploymentSpec), fieldPath("spec")));
  errs.push(...immutableSelector(d.spec?.selector, old.spec?.selector));
  return errs;
}

/** apps/v1 (unlike extensions/v1beta1) freezes `spec.selector` after create. */
export function immutableSelector(
  selector: DeploymentSpec["selector"],
  old: DeploymentSpec["selector"],
): FieldErrorList {
  const path = fieldPath("spec", "selector");
  return validateImmutableField(selector, old, path).length === 0
    ? []
    : [invalidRaw(path, goLabelSelector(selector), "field is immutable")];
}

export function validateDeploymentSpec(spec: DeploymentSpec, path: FieldPath): FieldErrorList {
  const errs = validateNonnegative(spec.replicas, path.child("replicas"));
  errs.push(...validateControllerSelector(spec.selector, path.child("selector"), "deployment"));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, path, "Deployment"));
  errs.push(...validateDeploymentStrategy(spec.strategy ?? {}, path.child("strategy")));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child("minReadySeconds")));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child("revisionHistoryLimit")));
  if (spec.progressDeadlineSeconds !== undefined) {
    const deadline = spec.progressDeadlineSeconds;
    errs.push(...validateNonnegative(deadline, path.child("progressDeadlineSeconds")));
    if (deadline <= (spec.minReadySeconds ?? 0)) {
      errs.push(
        invalid(
          path.child("progressDeadlineSeconds"),
          deadline,
          "must be greater than minReadySeconds",
        ),
      );
    }
  }
  return errs;
}

function validateDeploymentStrategy(strategy: DeploymentStrategy, path: FieldPath): FieldErrorList {
  switch (strategy.type) {
    case "Recreate":
      return strategy.rollingUpdate === undefined
        ? []
        : [
            forbiddenField(
              path.child("rollingUpdate"),
              "may not be specified when strategy `type` is 'Recreate'",
            ),
          ];
    case "RollingUpdate": {
      const ru = strategy.rollingUpdate;
      if (ru === undefined) {
        return [required(path.child("rollingUpdate"), "this should be defaulted and never be nil")];
      }
      const p = path.child("rollingUpdate");
      const errs: FieldErrorList = [];
      const maxUnavailable = ru.maxUnavailable ?? 0;
      const maxSurge = ru.maxSurge ?? 0;
      errs.push(...validatePositiveIntOrPercent(maxUnavailable, p.child("maxUnavailable")));
      errs.push(...validatePositiveIntOrPercent(maxSurge, p.child("maxSurge")));
      if (intOrPercentNumber(maxUnavailable) === 0 && intOrPercentNumber(maxSurge) === 0) {
        errs.push(
          invalidRaw(
            p.child("maxUnavailable"),
            goIntOrString(maxUnavailable),
            "may not be 0 when `maxSurge` is 0",
          ),
        );
      }
      errs.push(...isNotMoreThan100Percent(maxUnavailable, p.child("maxUnavailable")));
      return errs;
    }
    default:
      return [notSupported(path.child("Type"), strategy.type ?? "", ["Recreate", "RollingUpdate"])];
  }
}
