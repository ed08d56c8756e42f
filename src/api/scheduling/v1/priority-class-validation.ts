/** `scheduling.k8s.io/v1` PriorityClass validation, as upstream's `ValidatePriorityClass`. */
import { type FieldErrorList, forbiddenField, notSupported } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  highestUserDefinablePriority,
  type PriorityClass,
  systemPriorityClasses,
  systemPriorityClassPrefix,
} from "./priority-class.ts";

/** `IsKnownSystemPriorityClass`: the error text, or `undefined` when the class is a known one. */
function systemClassError(pc: PriorityClass): string | undefined {
  const known = systemPriorityClasses.find((c) => c.name === pc.metadata.name);
  if (known === undefined) return `${pc.metadata.name ?? ""} is not a known system priority class`;
  if (known.value !== pc.value)
    return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (pc.globalDefault === true)
    return `globalDefault of ${known.name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(pc: PriorityClass): FieldErrorList {
  const errs = validateObjectMeta(pc.metadata, { namespaced: false }, fieldPath("metadata"));
  const name = pc.metadata.name ?? "";
  if (name.startsWith(systemPriorityClassPrefix)) {
    const error = systemClassError(pc);
    if (error !== undefined) {
      errs.push(
        forbiddenField(
          fieldPath("metadata", "name"),
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${error}`,
        ),
      );
    }
  } else if (pc.value > highestUserDefinablePriority) {
    errs.push(
      forbiddenField(
        fieldPath("value"),
        `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`,
      ),
    );
  }
  const policy: unknown = pc.preemptionPolicy;
  if (policy !== undefined && policy !== "PreemptLowerPriority" && policy !== "Never") {
    errs.push(
      notSupported(fieldPath("preemptionPolicy"), policy, ["PreemptLowerPriority", "Never"]),
    );
  }
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldErrorList {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata, fieldPath("metadata"));
  if (pc.value !== old.value) {
    errs.push(forbiddenField(fieldPath("value"), "may not be changed in an update."));
  }
  errs.push(
    ...validateImmutableField(
      pc.preemptionPolicy,
      old.preemptionPolicy,
      fieldPath("preemptionPolicy"),
    ),
  );
  return errs;
}
