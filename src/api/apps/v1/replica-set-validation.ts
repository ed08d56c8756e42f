/** `apps/v1` ReplicaSet validation, as upstream's `ValidateReplicaSet`/`ValidateReplicaSetUpdate`. */
import type { FieldErrorList } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import {
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { immutableSelector } from "./deployment-validation.ts";
import type { ReplicaSet, ReplicaSetSpec } from "./replica-set.ts";
import { validateControllerSelector, validateSelectorAndTemplate } from "./template-validation.ts";

export function validateReplicaSet(rs: ReplicaSet): FieldErrorList {
  const errs = validateObjectMeta(rs.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateReplicaSetSpec(rs.spec ?? {}, fieldPath("spec")));
  return errs;
}

export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): FieldErrorList {
  const errs = validateObjectMetaUpdate(rs.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateReplicaSetSpec(rs.spec ?? {}, fieldPath("spec")));
  errs.push(...immutableSelector(rs.spec?.selector, old.spec?.selector));
  return errs;
}

export function validateReplicaSetSpec(spec: ReplicaSetSpec, path: FieldPath): FieldErrorList {
  const errs = validateNonnegative(spec.replicas, path.child("replicas"));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child("minReadySeconds")));
  // Upstream's ReplicaSet check reuses the Deployment wording.
  errs.push(...validateControllerSelector(spec.selector, path.child("selector"), "deployment"));
  errs.push(...validateSelectorAndTemplate(spec.selector, spec.template, path, "ReplicaSet"));
  return errs;
}
