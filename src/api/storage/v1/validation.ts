/**
 * StorageClass validation: upstream's `ValidateStorageClass` and `ValidateStorageClassUpdate`
 * (pkg/apis/storage/validation, 1.33).
 */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
  tooLong,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { semanticEqual } from "../../validation/equality.ts";
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isQualifiedName } from "../../validation/names.ts";
import type { StorageClass, TopologySelectorTerm } from "./storage-class.ts";

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;
const supportedReclaimPolicies = ["Delete", "Retain"];
const supportedBindingModes = ["Immediate", "WaitForFirstConsumer"];

/** `validateProvisioner`: required, and a qualified name once lower-cased. */
function validateProvisioner(provisioner: string, path: FieldPath): FieldErrorList {
  if (provisioner === "") return [required(path)];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((msg) => invalid(path, lower, msg));
}

/** `validateParameters`: at most 512 entries of at most 256 KiB, no empty key. */
function validateParameters(
  parameters: Record<string, string> | undefined,
  path: FieldPath,
): FieldErrorList {
  const entries = Object.entries(parameters ?? {});
  if (entries.length > maxProvisionerParameterLen) {
    return [tooLong(path, maxProvisionerParameterLen)];
  }
  const errs: FieldErrorList = [];
  let size = 0;
  for (const [key, value] of entries) {
    if (key.length < 1) errs.push(invalid(path, key, "field can not be empty."));
    size += new TextEncoder().encode(key).length + new TextEncoder().encode(value ?? "").length;
  }
  if (size > maxProvisionerParameterSize) errs.push(tooLong(path, maxProvisionerParameterSize));
  return errs;
}

function validateAllowedTopologies(
  terms: readonly TopologySelectorTerm[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  (terms ?? []).forEach((term, i) => {
    const at = path.index(i);
    const expressions = term.matchLabelExpressions ?? [];
    if (expressions.length === 0) {
      errs.push(required(at, "must have at least one label selector requirement"));
    }
    const seen = new Set<string>();
    expressions.forEach((expr, j) => {
      const e = at.child("matchLabelExpressions").index(j);
      for (const msg of isQualifiedName(expr.key ?? "")) {
        errs.push(invalid(e.child("key"), expr.key, msg));
      }
      if ((expr.values ?? []).length === 0) {
        errs.push(required(e.child("values"), "must specify as least one value"));
      }
      if (seen.has(expr.key)) {
        errs.push(invalid(e.child("key"), expr.key, "duplicate key"));
      }
      seen.add(expr.key);
    });
  });
  return errs;
}

/** `ValidateStorageClass`. */
export function validateStorageClass(storageClass: StorageClass): FieldErrorList {
  const errs = validateObjectMeta(
    storageClass.metadata,
    { namespaced: false },
    fieldPath("metadata"),
  );
  errs.push(...validateProvisioner(storageClass.provisioner ?? "", fieldPath("provisioner")));
  errs.push(...validateParameters(storageClass.parameters, fieldPath("parameters")));
  const policy = storageClass.reclaimPolicy ?? "";
  if (policy !== "" && !supportedReclaimPolicies.includes(policy)) {
    errs.push(notSupported(fieldPath("reclaimPolicy"), policy, supportedReclaimPolicies));
  }
  const mode = storageClass.volumeBindingMode;
  if (mode === undefined || mode === null) errs.push(required(fieldPath("volumeBindingMode")));
  else if (!supportedBindingModes.includes(mode)) {
    errs.push(notSupported(fieldPath("volumeBindingMode"), mode, supportedBindingModes));
  }
  errs.push(
    ...validateAllowedTopologies(storageClass.allowedTopologies, fieldPath("allowedTopologies")),
  );
  return errs;
}

/**
 * `ValidateStorageClassUpdate`: metadata rules, then parameters, provisioner, reclaim policy and
 * binding mode are fixed. Upstream's strategy validates the new object as on create first.
 */
export function validateStorageClassUpdate(
  storageClass: StorageClass,
  old: StorageClass,
): FieldErrorList {
  const errs = validateStorageClass(storageClass);
  errs.push(
    ...validateObjectMetaUpdate(storageClass.metadata, old.metadata, fieldPath("metadata")),
  );
  if (!semanticEqual(storageClass.parameters ?? {}, old.parameters ?? {})) {
    errs.push(forbiddenField(fieldPath("parameters"), "updates to parameters are forbidden."));
  }
  if ((storageClass.provisioner ?? "") !== (old.provisioner ?? "")) {
    errs.push(forbiddenField(fieldPath("provisioner"), "updates to provisioner are forbidden."));
  }
  if ((storageClass.reclaimPolicy ?? "") !== (old.reclaimPolicy ?? "")) {
    errs.push(
      forbiddenField(fieldPath("reclaimPolicy"), "updates to reclaimPolicy are forbidden."),
    );
  }
  errs.push(
    ...validateImmutableField(
      storageClass.volumeBindingMode,
      old.volumeBindingMode,
      fieldPath("volumeBindingMode"),
    ),
  );
  return errs;
}
