/** `apps/v1` ControllerRevision validation, as upstream's `ValidateControllerRevision(Update)`. */
import { type FieldErrorList, required } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import {
  validateImmutableField,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import type { ControllerRevision } from "./controller-revision.ts";

export function validateControllerRevision(revision: ControllerRevision): FieldErrorList {
  const errs = validateObjectMeta(revision.metadata, { namespaced: true }, fieldPath("metadata"));
  if (revision.data === undefined || revision.data === null) {
    errs.push(required(fieldPath("data"), "data is mandatory"));
  }
  errs.push(...validateNonnegative(revision.revision, fieldPath("revision")));
  return errs;
}

export function validateControllerRevisionUpdate(
  revision: ControllerRevision,
  old: ControllerRevision,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(revision.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validateControllerRevision(revision));
  errs.push(...validateImmutableField(revision.data, old.data, fieldPath("data")));
  return errs;
}
