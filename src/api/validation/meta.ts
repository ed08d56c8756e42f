import { utf8ByteLength } from "../../util/index.ts";
import {
  type FieldErrorList,
  forbiddenField,
  immutable,
  invalid,
  required,
  tooLong,
} from "../meta/field-errors.ts";
import type { FieldPath } from "../meta/field-path.ts";
import type {
  LabelSelector,
  LabelSelectorRequirement,
  ObjectMeta,
  OwnerReference,
} from "../meta/types.ts";
import { semanticEqual } from "./equality.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maskTrailingDash,
} from "./names.ts";

/** The total size of all annotation keys and values: 256 KiB. */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

export interface ObjectMetaOptions {
  /** Whether the kind is namespaced: `metadata.namespace` is then required, else forbidden. */
  readonly namespaced: boolean;
  /** Checks `metadata.name` (and `generateName` with its trailing dash masked). @default isDns1123Subdomain */
  readonly nameValidator?: (name: string) => string[];
}

/** apimachinery's `ValidateObjectMeta` for a create. */
export function validateObjectMeta(
  meta: ObjectMeta,
  options: ObjectMetaOptions,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const nameFn = options.nameValidator ?? isDns1123Subdomain;
  const generateName = meta.generateName ?? "";
  if (generateName !== "") {
    for (const msg of nameFn(maskTrailingDash(generateName))) {
      errs.push(invalid(path.child("generateName"), generateName, msg));
    }
  }
  const name = meta.name ?? "";
  if (name === "") {
    errs.push(required(path.child("name"), "name or generateName is required"));
  } else {
    for (const msg of nameFn(name)) errs.push(invalid(path.child("name"), name, msg));
  }
  const namespace = meta.namespace ?? "";
  if (options.namespaced) {
    if (namespace === "") {
      errs.push(required(path.child("namespace")));
    } else {
      for (const msg of isDns1123Label(namespace)) {
        errs.push(invalid(path.child("namespace"), namespace, msg));
      }
    }
  } else if (namespace !== "") {
    errs.push(forbiddenField(path.child("namespace"), "not allowed on this type"));
  }
  if (meta.generation !== undefined && meta.generation < 0) {
    errs.push(
      invalid(path.child("generation"), meta.generation, "must be greater than or equal to 0"),
    );
  }
  errs.push(...validateLabels(meta.labels, path.child("labels")));
  errs.push(...validateAnnotations(meta.annotations, path.child("annotations")));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child("ownerReferences")));
  errs.push(...validateFinalizers(meta.finalizers, path.child("finalizers")));
  return errs;
}

/** apimachinery's `ValidateObjectMetaUpdate`: identity fields are immutable. */
export function validateObjectMetaUpdate(
  meta: ObjectMeta,
  old: ObjectMeta,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  errs.push(...validateFinalizers(meta.finalizers, path.child("finalizers")));
  if (old.deletionTimestamp !== undefined) {
    const before = new Set(old.finalizers ?? []);
    const added = [...new Set(meta.finalizers ?? [])].filter((f) => !before.has(f)).sort();
    if (added.length > 0) {
      errs.push(
        forbiddenField(
          path.child("finalizers"),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(", ")}}`,
        ),
      );
    }
  }
  if ((meta.resourceVersion ?? "") === "") {
    errs.push(
      invalid(
        path.child("resourceVersion"),
        meta.resourceVersion ?? "",
        "must be specified for an update",
      ),
    );
  }
  if ((meta.generation ?? 0) < (old.generation ?? 0)) {
    errs.push(invalid(path.child("generation"), meta.generation ?? 0, "must not be decremented"));
  }
  const fields = [
    "name",
    "namespace",
    "uid",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
  ] as const;
  for (const field of fields) {
    if (!semanticEqual(meta[field], old[field])) {
      errs.push(immutable(path.child(field), meta[field] ?? ""));
    }
  }
  errs.push(...validateLabels(meta.labels, path.child("labels")));
  errs.push(...validateAnnotations(meta.annotations, path.child("annotations")));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child("ownerReferences")));
  return errs;
}

/** Label keys must be qualified names and values valid label values; errors point at the map. */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(key, path));
    for (const msg of isValidLabelValue(value)) errs.push(invalid(path, value, msg));
  }
  return errs;
}

/** A label key: a qualified name. */
export function validateLabelName(name: string, path: FieldPath): FieldErrorList {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** Annotation keys are qualified names (checked lower-cased); all of them total at most 256 KiB. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(invalid(path, key, msg));
    size += utf8ByteLength(key) + utf8ByteLength(value);
  }
  if (size > totalAnnotationSizeLimitBytes) errs.push(tooLong(path, totalAnnotationSizeLimitBytes));
  return errs;
}

/** Owner references need apiVersion, kind, name and uid; at most one may be the controller. */
export function validateOwnerReferences(
  refs: readonly OwnerReference[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  let firstController = "";
  for (const ref of refs ?? []) {
    const version = ref.apiVersion.includes("/")
      ? ref.apiVersion.slice(ref.apiVersion.indexOf("/") + 1)
      : ref.apiVersion;
    if (version === "") {
      errs.push(invalid(path.child("apiVersion"), ref.apiVersion, "version must not be empty"));
    }
    if (ref.kind === "") errs.push(invalid(path.child("kind"), ref.kind, "kind must not be empty"));
    if (ref.name === "") errs.push(invalid(path.child("name"), ref.name, "name must not be empty"));
    if (ref.uid === "") errs.push(invalid(path.child("uid"), ref.uid, "uid must not be empty"));
    if (ref.apiVersion === "v1" && ref.kind === "Event") {
      errs.push(invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"));
    }
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController === "") {
        firstController = current;
      } else {
        errs.push(
          invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      }
    }
  }
  return errs;
}

/** Finalizers are qualified names; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(
  finalizers: readonly string[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const finalizer of finalizers ?? []) {
    for (const msg of isQualifiedName(finalizer)) errs.push(invalid(path, finalizer, msg));
  }
  const list = finalizers ?? [];
  if (list.includes("orphan") && list.includes("foregroundDeletion")) {
    errs.push(invalid(path, list, "finalizer orphan and foregroundDeletion cannot be both set"));
  }
  return errs;
}

/** `metav1validation.ValidateLabelSelector`. */
export function validateLabelSelector(
  selector: LabelSelector | undefined,
  path: FieldPath,
): FieldErrorList {
  if (selector === undefined) return [];
  const errs = validateLabels(selector.matchLabels, path.child("matchLabels"));
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, path.child("matchExpressions").index(i)));
  });
  return errs;
}

/**
 * The values rule of the set-based operators shared by label and node selectors: `In`/`NotIn`
 * need values, `Exists`/`DoesNotExist` forbid them. `undefined` when `operator` is none of the
 * four, so callers add their own operators (`Gt`, `Lt`) or the "not a valid selector operator"
 * error.
 */
export function validateSetOperatorValues(
  operator: string,
  values: readonly string[],
  path: FieldPath,
): FieldErrorList | undefined {
  switch (operator) {
    case "In":
    case "NotIn":
      return values.length === 0
        ? [required(path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'")]
        : [];
    case "Exists":
    case "DoesNotExist":
      return values.length > 0
        ? [
            forbiddenField(
              path.child("values"),
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          ]
        : [];
    default:
      return undefined;
  }
}

/** One `matchExpressions` entry: operator/values agreement, key and value formats. */
export function validateLabelSelectorRequirement(
  requirement: LabelSelectorRequirement,
  path: FieldPath,
): FieldErrorList {
  const values = requirement.values ?? [];
  const errs = validateSetOperatorValues(requirement.operator, values, path) ?? [
    invalid(path.child("operator"), requirement.operator, "not a valid selector operator"),
  ];
  errs.push(...validateLabelName(requirement.key, path.child("key")));
  values.forEach((value, i) => {
    for (const msg of isValidLabelValue(value)) {
      errs.push(invalid(path.child("values").index(i), value, msg));
    }
  });
  return errs;
}

/** `ValidateNonnegativeField`: `must be greater than or equal to 0`. */
export function validateNonnegative(value: number | undefined, path: FieldPath): FieldErrorList {
  return value !== undefined && value < 0
    ? [invalid(path, value, "must be greater than or equal to 0")]
    : [];
}

/** `ValidateImmutableField`: `field is immutable` when the values differ semantically. */
export function validateImmutableField(
  value: unknown,
  old: unknown,
  path: FieldPath,
): FieldErrorList {
  return semanticEqual(value, old) ? [] : [immutable(path, value)];
}
