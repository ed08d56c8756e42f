/** `coordination.k8s.io/v1` Lease validation, as upstream's `ValidateLease`. */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { isQualifiedName } from "../../validation/names.ts";
import type { Lease, LeaseSpec } from "./lease.ts";

export function validateLease(lease: Lease): FieldErrorList {
  const errs = validateObjectMeta(lease.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateLeaseSpec(lease.spec ?? {}, fieldPath("spec")));
  return errs;
}

export function validateLeaseUpdate(lease: Lease, old: Lease): FieldErrorList {
  const errs = validateObjectMetaUpdate(lease.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateLeaseSpec(lease.spec ?? {}, fieldPath("spec")));
  return errs;
}

export function validateLeaseSpec(spec: LeaseSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(
      invalid(
        path.child("leaseDurationSeconds"),
        spec.leaseDurationSeconds,
        "must be greater than 0",
      ),
    );
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(
      invalid(
        path.child("leaseTransitions"),
        spec.leaseTransitions,
        "must be greater than or equal to 0",
      ),
    );
  }
  if (spec.strategy !== undefined && spec.strategy !== "") {
    errs.push(...validateStrategy(spec.strategy, path.child("strategy")));
  }
  if ((spec.preferredHolder ?? "") !== "" && (spec.strategy ?? "") === "") {
    errs.push(
      forbiddenField(
        path.child("preferredHolder"),
        "may only be specified if `strategy` is defined",
      ),
    );
  }
  return errs;
}

/** `OldestEmulationVersion`, or a qualified name with a prefix for a third-party strategy. */
function validateStrategy(strategy: string, path: FieldPath): FieldErrorList {
  if (strategy === "OldestEmulationVersion") return [];
  const parts = strategy.split("/");
  if (parts.length !== 2) {
    return [notSupported(path, strategy, ["OldestEmulationVersion"])];
  }
  return isQualifiedName(strategy).map((msg) => invalid(path, strategy, msg));
}
