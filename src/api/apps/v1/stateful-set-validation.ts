/** `apps/v1` StatefulSet validation, as upstream's `ValidateStatefulSet`/`ValidateStatefulSetUpdate`. */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { semanticEqual } from "../../validation/equality.ts";
import {
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isDns1123Label } from "../../validation/names.ts";
import type { StatefulSet, StatefulSetSpec } from "./stateful-set.ts";
import { validateControllerSelector, validateSelectorAndTemplate } from "./template-validation.ts";
import {
  goIntOrString,
  intOrPercentNumber,
  invalidRaw,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from "./validation-helpers.ts";

export function validateStatefulSet(ss: StatefulSet): FieldErrorList {
  const errs = validateObjectMeta(ss.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateStatefulSetSpec(ss.spec ?? ({} as StatefulSetSpec), fieldPath("spec")));
  return errs;
}

/** The spec fields an update may change; anything else is forbidden as one error on `spec`. */
const mutableSpecFields = [
  "replicas",
  "ordinals",
  "template",
  "updateStrategy",
  "revisionHistoryLimit",
  "persistentVolumeClaimRetentionPolicy",
  "minReadySeconds",
] as const;

export function validateStatefulSetUpdate(ss: StatefulSet, old: StatefulSet): FieldErrorList {
  const errs = validateObjectMetaUpdate(ss.metadata, old.metadata, fieldPath("metadata"));
  const spec = ss.spec ?? ({} as StatefulSetSpec);
  errs.push(...validateStatefulSetSpec(spec, fieldPath("spec")));
  const frozen = (s: StatefulSetSpec | undefined): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...(s ?? {}) };
    for (const f of mutableSpecFields) delete copy[f];
    return copy;
  };
  if (!semanticEqual(frozen(spec), frozen(old.spec))) {
    errs.push(
      forbiddenField(
        fieldPath("spec"),
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

export function validateStatefulSetSpec(spec: StatefulSetSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  switch (spec.podManagementPolicy) {
    case undefined:
      errs.push(required(path.child("podManagementPolicy")));
      break;
    case "OrderedReady":
    case "Parallel":
      break;
    default:
      errs.push(
        invalid(
          path.child("podManagementPolicy"),
          spec.podManagementPolicy,
          "must be 'OrderedReady' or 'Parallel'",
        ),
      );
  }
  errs.push(...validateUpdateStrategy(spec, path.child("updateStrategy")));
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (retention !== undefined) {
    const rp = path.child("persistentVolumeClaimRetentionPolicy");
    for (const key of ["whenDeleted", "whenScaled"] as const) {
      const value = retention[key];
      if (value !== "Retain" && value !== "Delete") {
        errs.push(notSupported(rp.child(key), value ?? "", ["Retain", "Delete"]));
      }
    }
  }
  if (spec.ordinals !== undefined) {
    errs.push(...validateNonnegative(spec.ordinals.start, path.child("ordinals.start")));
  }
  errs.push(...validateNonnegative(spec.replicas, path.child("replicas")));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child("minReadySeconds")));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child("revisionHistoryLimit")));
  if (spec.serviceName !== undefined && spec.serviceName !== "") {
    for (const msg of isDns1123Label(spec.serviceName)) {
      errs.push(invalid(path.child("serviceName"), spec.serviceName, msg));
    }
  }
  errs.push(...validateControllerSelector(spec.selector, path.child("selector"), "statefulset"));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, path, "StatefulSet"));
  return errs;
}

function validateUpdateStrategy(spec: StatefulSetSpec, path: FieldPath): FieldErrorList {
  const strategy = spec.updateStrategy ?? {};
  switch (strategy.type) {
    case undefined:
      return [required(path)];
    case "OnDelete":
      return strategy.rollingUpdate === undefined
        ? []
        : [
            invalid(
              path.child("rollingUpdate"),
              strategy.rollingUpdate,
              "only allowed for updateStrategy 'RollingUpdate'",
            ),
          ];
    case "RollingUpdate": {
      const ru = strategy.rollingUpdate;
      if (ru === undefined) return [];
      const p = path.child("rollingUpdate");
      const errs = validateNonnegative(ru.partition, p.child("partition"));
      if (ru.maxUnavailable !== undefined) {
        const mu = ru.maxUnavailable;
        errs.push(...validatePositiveIntOrPercent(mu, p.child("maxUnavailable")));
        if (intOrPercentNumber(mu) === 0) {
          errs.push(invalidRaw(p.child("maxUnavailable"), goIntOrString(mu), "cannot be 0"));
        }
        errs.push(...isNotMoreThan100Percent(mu, p.child("maxUnavailable")));
      }
      return errs;
    }
    default:
      return [invalid(path, strategy, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}
