/** `apps/v1` DaemonSet validation, as upstream's `ValidateDaemonSet`/`ValidateDaemonSetUpdate`. */
import { type FieldErrorList, notSupported, required } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import type { DaemonSet, DaemonSetSpec, RollingUpdateDaemonSet } from "./daemon-set.ts";
import { immutableSelector } from "./deployment-validation.ts";
import { validateControllerSelector, validateSelectorAndTemplate } from "./template-validation.ts";
import {
  goIntOrString,
  intOrPercentNumber,
  invalidRaw,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from "./validation-helpers.ts";

export function validateDaemonSet(ds: DaemonSet): FieldErrorList {
  const errs = validateObjectMeta(ds.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateDaemonSetSpec(ds.spec ?? ({} as DaemonSetSpec), fieldPath("spec")));
  return errs;
}

export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldErrorList {
  const errs = validateObjectMetaUpdate(ds.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateDaemonSetSpec(ds.spec ?? ({} as DaemonSetSpec), fieldPath("spec")));
  errs.push(...immutableSelector(ds.spec?.selector, old.spec?.selector));
  return errs;
}

export function validateDaemonSetSpec(spec: DaemonSetSpec, path: FieldPath): FieldErrorList {
  // Unlike the other apps kinds, a missing DaemonSet selector is not itself reported: it selects
  // nothing, so the template labels never match.
  const errs =
    spec.selector === undefined
      ? []
      : validateControllerSelector(spec.selector, path.child("selector"), "daemonset");
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, path, "DaemonSet"));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child("minReadySeconds")));
  const strategy = spec.updateStrategy ?? {};
  const sp = path.child("updateStrategy");
  switch (strategy.type) {
    case "OnDelete":
      break;
    case "RollingUpdate":
      if (strategy.rollingUpdate === undefined) {
        errs.push(required(sp.child("rollingUpdate")));
      } else {
        errs.push(...validateRollingUpdate(strategy.rollingUpdate, sp.child("rollingUpdate")));
      }
      break;
    default:
      errs.push(notSupported(sp.child("type"), strategy.type ?? "", ["OnDelete", "RollingUpdate"]));
  }
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child("revisionHistoryLimit")));
  return errs;
}

function validateRollingUpdate(ru: RollingUpdateDaemonSet, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  let hasUnavailable = false;
  let hasSurge = false;
  if (ru.maxUnavailable !== undefined && intOrPercentNumber(ru.maxUnavailable) !== 0) {
    hasUnavailable = true;
    errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, path.child("maxUnavailable")));
    errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, path.child("maxUnavailable")));
  }
  if (ru.maxSurge !== undefined && intOrPercentNumber(ru.maxSurge) !== 0) {
    hasSurge = true;
    errs.push(...validatePositiveIntOrPercent(ru.maxSurge, path.child("maxSurge")));
    errs.push(...isNotMoreThan100Percent(ru.maxSurge, path.child("maxSurge")));
  }
  if (hasUnavailable && hasSurge) {
    errs.push(
      invalidRaw(
        path.child("maxSurge"),
        goIntOrString(ru.maxSurge ?? 0),
        "may not be set when maxUnavailable is non-zero",
      ),
    );
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(path.child("maxUnavailable"), "cannot be 0 when maxSurge is 0"));
  }
  return errs;
}
