/**
 * PersistentVolume and PersistentVolumeClaim validation: upstream's `ValidatePersistentVolume`,
 * `ValidatePersistentVolumeUpdate`, `ValidatePersistentVolumeClaim`,
 * `ValidatePersistentVolumeClaimUpdate` and their status updates (pkg/apis/core/validation,
 * 1.33, with its default feature gates: RecoverVolumeExpansionFailure on,
 * VolumeAttributesClass off).
 */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { compareQuantities, type ParsedQuantity, parseQuantity } from "../../resource/quantity.ts";
import { semanticEqual } from "../../validation/equality.ts";
import {
  validateImmutableField,
  validateLabelSelector,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { isDns1123Subdomain } from "../../validation/names.ts";
import {
  betaStorageClassAnnotation,
  type PersistentVolume,
  type PersistentVolumeAccessMode,
  type PersistentVolumeClaim,
  type PersistentVolumeClaimSpec,
  type PersistentVolumeSpec,
  persistentVolumeSourceFields,
  supportedAccessModes,
  supportedReclaimPolicies,
  supportedVolumeModes,
  type TypedObjectReference,
} from "./persistent-volume.ts";
import { parseQuantityField, validateResourceQuantityValue } from "./resource-validation.ts";
import { validateNodeSelector } from "./scheduling-validation.ts";

const vacGateOff = "update is forbidden when the VolumeAttributesClass feature gate is disabled";

/** `ValidatePositiveQuantityValue`, then `ValidateResourceQuantityValue` when positive. */
function validateStorageQuantity(value: unknown, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const q = parseQuantityField(value, path, errs);
  if (q === undefined) return errs;
  if (q.unscaled <= 0n) return [invalid(path, value, "must be greater than zero")];
  return validateResourceQuantityValue("storage", q, path);
}

/** The access-mode rules PVs and PVCs share: supported values, ReadWriteOncePod alone. */
function validateAccessModes(
  modes: readonly PersistentVolumeAccessMode[],
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  let oncePod = false;
  let other = false;
  for (const mode of modes) {
    if (!supportedAccessModes.includes(mode)) {
      errs.push(notSupported(path, mode, supportedAccessModes));
    } else if (mode === "ReadWriteOncePod") oncePod = true;
    else other = true;
  }
  if (oncePod && other) {
    errs.push(forbiddenField(path, "may not use ReadWriteOncePod with other access modes"));
  }
  return errs;
}

function validateClassNameAt(name: string | null | undefined, path: FieldPath): FieldErrorList {
  if (name === undefined || name === null || name === "") return [];
  return isDns1123Subdomain(name).map((msg) => invalid(path, name, msg));
}

function validateDataSource(
  source: TypedObjectReference,
  path: FieldPath,
  withNamespace: boolean,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((source.name ?? "") === "") errs.push(required(path.child("name")));
  if ((source.kind ?? "") === "") errs.push(required(path.child("kind")));
  const apiGroup = source.apiGroup ?? "";
  if (apiGroup === "" && source.kind !== "PersistentVolumeClaim") {
    errs.push(
      invalid(
        path,
        source.kind,
        "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      ),
    );
  }
  if (apiGroup !== "") {
    for (const msg of isDns1123Subdomain(apiGroup)) {
      errs.push(invalid(path.child("apiGroup"), apiGroup, msg));
    }
  }
  const namespace = source.namespace ?? "";
  if (withNamespace && namespace !== "") {
    for (const msg of isDns1123Subdomain(namespace)) {
      errs.push(invalid(path.child("namespace"), namespace, msg));
    }
  }
  return errs;
}

/** `ValidatePersistentVolumeClaimSpec`. */
export function validatePersistentVolumeClaimSpec(
  spec: PersistentVolumeClaimSpec,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) {
    errs.push(required(path.child("accessModes"), "at least 1 access mode is required"));
  }
  if (spec.selector !== undefined && spec.selector !== null) {
    errs.push(...validateLabelSelector(spec.selector, path.child("selector")));
  }
  errs.push(...validateAccessModes(modes, path.child("accessModes")));
  const storagePath = path.child("resources").key("storage");
  const storage = spec.resources?.requests?.["storage"];
  if (storage === undefined) errs.push(required(storagePath));
  else errs.push(...validateStorageQuantity(storage, storagePath));
  errs.push(...validateClassNameAt(spec.storageClassName, path.child("storageClassName")));
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null && !supportedVolumeModes.includes(mode)) {
    errs.push(notSupported(path.child("volumeMode"), mode, supportedVolumeModes));
  }
  const dataSource = spec.dataSource ?? undefined;
  const dataSourceRef = spec.dataSourceRef ?? undefined;
  if (dataSource !== undefined) {
    errs.push(...validateDataSource(dataSource, path.child("dataSource"), false));
  }
  if (dataSourceRef !== undefined) {
    errs.push(...validateDataSource(dataSourceRef, path.child("dataSourceRef"), true));
  }
  if ((dataSourceRef?.namespace ?? "") !== "") {
    if (dataSource !== undefined) {
      errs.push(
        invalid(
          path,
          "spec.dataSource",
          "may not be specified when dataSourceRef.namespace is specified",
        ),
      );
    }
  } else if (dataSource !== undefined && dataSourceRef !== undefined) {
    const same =
      (dataSource.apiGroup ?? null) === (dataSourceRef.apiGroup ?? null) &&
      dataSource.kind === dataSourceRef.kind &&
      dataSource.name === dataSourceRef.name;
    if (!same) errs.push(invalid(path, "spec.dataSource", "must match dataSourceRef"));
  }
  return errs;
}

/** `ValidatePersistentVolumeClaim`: a DNS-subdomain name in a namespace, and the spec. */
export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldErrorList {
  const errs = validateObjectMeta(pvc.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, fieldPath("spec")));
  return errs;
}

function storageOf(list: Record<string, string> | undefined): ParsedQuantity {
  try {
    return parseQuantity(list?.["storage"] ?? "0");
  } catch {
    return parseQuantity("0");
  }
}

/**
 * `ValidatePersistentVolumeClaimUpdate`: the spec is immutable except `volumeName` (set once),
 * a class given where the claim had none, and — for a Bound claim — `resources.requests.storage`
 * (expansion; shrinking only above `status.capacity`). Upstream appends a `cmp.Diff` of the two
 * specs to the Forbidden message; gantry prints the message alone.
 */
export function validatePersistentVolumeClaimUpdate(
  pvc: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validatePersistentVolumeClaim(pvc));
  const newSpec = structuredClone(pvc.spec ?? {});
  const oldSpec = structuredClone(old.spec ?? {});
  if ((oldSpec.volumeName ?? "") === "") oldSpec.volumeName = newSpec.volumeName ?? "";
  const annotation = (p: PersistentVolumeClaim) =>
    p.metadata.annotations?.[betaStorageClassAnnotation];
  errs.push(
    ...validateImmutableField(
      annotation(pvc) ?? "",
      annotation(old) ?? "",
      fieldPath("metadata", "annotations", betaStorageClassAnnotation),
    ),
  );
  // validateStorageClassUpgradeFromNil: a class may be set once on a claim that had none.
  if (
    annotation(old) === undefined &&
    (old.spec?.storageClassName ?? undefined) === undefined &&
    (pvc.spec?.storageClassName ?? undefined) !== undefined
  ) {
    newSpec.storageClassName = oldSpec.storageClassName ?? null;
  }
  if (pvc.status?.phase === "Bound" && newSpec.resources?.requests !== undefined) {
    const oldStorage = old.spec?.resources?.requests?.["storage"];
    if (oldStorage === undefined) delete newSpec.resources.requests["storage"];
    else newSpec.resources.requests["storage"] = oldStorage;
  }
  newSpec.volumeAttributesClassName = oldSpec.volumeAttributesClassName ?? null;
  if (!semanticEqual(newSpec, oldSpec)) {
    errs.push(
      forbiddenField(
        fieldPath("spec"),
        "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
      ),
    );
  }
  const newSize = storageOf(pvc.spec?.resources?.requests);
  const oldSize = storageOf(old.spec?.resources?.requests);
  const statusSize = storageOf(old.status?.capacity);
  if (compareQuantities(newSize, oldSize) < 0 && compareQuantities(newSize, statusSize) <= 0) {
    errs.push(
      forbiddenField(
        fieldPath("spec", "resources", "requests", "storage"),
        "field can not be less than status.capacity",
      ),
    );
  }
  errs.push(
    ...validateImmutableField(pvc.spec?.volumeMode, old.spec?.volumeMode, fieldPath("volumeMode")),
  );
  if (!semanticEqual(pvc.spec?.volumeAttributesClassName, old.spec?.volumeAttributesClassName)) {
    errs.push(forbiddenField(fieldPath("spec", "volumeAttributesClassName"), vacGateOff));
  }
  return errs;
}

/** `ValidatePersistentVolumeClaimStatusUpdate`: metadata, access modes, capacity values. */
export function validatePersistentVolumeClaimStatusUpdate(
  pvc: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(pvc.metadata, old.metadata, fieldPath("metadata"));
  if ((pvc.metadata.resourceVersion ?? "") === "")
    errs.push(required(fieldPath("resourceVersion")));
  if ((pvc.spec?.accessModes ?? []).length === 0) {
    errs.push(required(fieldPath("Spec", "accessModes")));
  }
  const capacityPath = fieldPath("status", "capacity");
  for (const [name, value] of Object.entries(pvc.status?.capacity ?? {})) {
    const q = parseQuantityField(value, capacityPath.key(name), errs);
    if (q !== undefined)
      errs.push(...validateResourceQuantityValue(name, q, capacityPath.key(name)));
  }
  return errs;
}

/**
 * The single volume source of a PV, in upstream's order: the first one set counts, each later
 * one is Forbidden (except flexVolume, which upstream only counts; cephfs is reported as
 * `cephFS`, upstream's spelling there). `hostPath`, `local`, `csi` and `nfs` are checked field
 * by field; a local volume needs node affinity.
 */
function validatePersistentVolumeSource(
  spec: PersistentVolumeSpec,
  path: FieldPath,
  hasNodeAffinity: boolean,
): FieldErrorList {
  const errs: FieldErrorList = [];
  let count = 0;
  for (const field of persistentVolumeSourceFields) {
    const source = spec[field];
    if (source === undefined || source === null) continue;
    if (count > 0 && field !== "flexVolume") {
      const reported = field === "cephfs" ? "cephFS" : field;
      errs.push(forbiddenField(path.child(reported), "may not specify more than 1 volume type"));
      continue;
    }
    count++;
    const at = path.child(field);
    const needs = (names: readonly string[]) => {
      for (const name of names) {
        const value = (source as Record<string, unknown>)[name];
        if (value === undefined || value === null || value === "") {
          errs.push(required(at.child(name)));
        }
      }
    };
    if (field === "hostPath" || field === "local") needs(["path"]);
    else if (field === "csi") needs(["driver", "volumeHandle"]);
    else if (field === "nfs") needs(["server", "path"]);
    const p = (source as { path?: unknown }).path;
    if ((field === "hostPath" || field === "local") && typeof p === "string" && p !== "") {
      if (p.split("/").includes("..")) {
        errs.push(invalid(at.child("path"), p, "must not contain '..'"));
      }
    }
    if (field === "local" && !hasNodeAffinity) {
      errs.push(required(path.child("nodeAffinity"), "Local volume requires node affinity"));
    }
  }
  if (count === 0) errs.push(required(path, "must specify a volume type"));
  return errs;
}

/** `ValidatePersistentVolumeSpec` for a standalone PV, in upstream's order. */
function validatePersistentVolumeSpec(spec: PersistentVolumeSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(path.child("accessModes")));
  errs.push(...validateAccessModes(modes, path.child("accessModes")));
  const capacity = spec.capacity ?? {};
  const capacityPath = path.child("capacity");
  if (Object.keys(capacity).length === 0) errs.push(required(capacityPath));
  if (capacity["storage"] === undefined || Object.keys(capacity).length > 1) {
    errs.push(notSupported(capacityPath, capacity, ["storage"]));
  }
  for (const [name, value] of Object.entries(capacity)) {
    errs.push(...validateStorageQuantity(value, capacityPath.key(name)));
  }
  const policy = spec.persistentVolumeReclaimPolicy ?? "";
  if (policy !== "" && !supportedReclaimPolicies.includes(policy)) {
    errs.push(
      notSupported(path.child("persistentVolumeReclaimPolicy"), policy, supportedReclaimPolicies),
    );
  }
  const affinity = spec.nodeAffinity;
  let hasNodeAffinity = false;
  if (affinity !== undefined && affinity !== null) {
    const affinityPath = path.child("nodeAffinity");
    if (affinity.required === undefined || affinity.required === null) {
      errs.push(required(affinityPath.child("required"), "must specify required node constraints"));
    } else {
      hasNodeAffinity = true;
      errs.push(...validateNodeSelector(affinity.required, affinityPath.child("required")));
    }
  }
  errs.push(...validatePersistentVolumeSource(spec, path, hasNodeAffinity));
  if (
    policy === "Recycle" &&
    spec.hostPath !== undefined &&
    spec.hostPath !== null &&
    /^\/*$/.test(spec.hostPath.path ?? "") &&
    (spec.hostPath.path ?? "") !== ""
  ) {
    errs.push(
      forbiddenField(
        path.child("persistentVolumeReclaimPolicy"),
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  }
  errs.push(...validateClassNameAt(spec.storageClassName, path.child("storageClassName")));
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null && !supportedVolumeModes.includes(mode)) {
    errs.push(notSupported(path.child("volumeMode"), mode, supportedVolumeModes));
  }
  return errs;
}

/** `ValidatePersistentVolume`: a cluster-scoped DNS-subdomain name and the spec. */
export function validatePersistentVolume(pv: PersistentVolume): FieldErrorList {
  const errs = validateObjectMeta(pv.metadata, { namespaced: false }, fieldPath("metadata"));
  errs.push(...validatePersistentVolumeSpec(pv.spec ?? {}, fieldPath("spec")));
  return errs;
}

function sourceOf(spec: PersistentVolumeSpec | undefined): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  for (const field of persistentVolumeSourceFields) source[field] = spec?.[field];
  return source;
}

/**
 * `ValidatePersistentVolumeUpdate`: the object as on create, an immutable volume source and
 * volume mode, node affinity fixed once set. (Upstream's strategy adds metadata rules.)
 */
export function validatePersistentVolumeUpdate(
  pv: PersistentVolume,
  old: PersistentVolume,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(pv.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validatePersistentVolume(pv));
  if (!semanticEqual(sourceOf(pv.spec), sourceOf(old.spec))) {
    errs.push(
      forbiddenField(
        fieldPath("spec", "persistentvolumesource"),
        "spec.persistentvolumesource is immutable after creation",
      ),
    );
  }
  errs.push(
    ...validateImmutableField(pv.spec?.volumeMode, old.spec?.volumeMode, fieldPath("volumeMode")),
  );
  const oldAffinity = old.spec?.nodeAffinity;
  if (oldAffinity !== undefined && oldAffinity !== null) {
    errs.push(
      ...validateImmutableField(pv.spec?.nodeAffinity, oldAffinity, fieldPath("nodeAffinity")),
    );
  }
  if (!semanticEqual(pv.spec?.volumeAttributesClassName, old.spec?.volumeAttributesClassName)) {
    errs.push(forbiddenField(fieldPath("spec", "volumeAttributesClassName"), vacGateOff));
  }
  return errs;
}

/** `ValidatePersistentVolumeStatusUpdate`: metadata rules and a resourceVersion. */
export function validatePersistentVolumeStatusUpdate(
  pv: PersistentVolume,
  old: PersistentVolume,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(pv.metadata, old.metadata, fieldPath("metadata"));
  if ((pv.metadata.resourceVersion ?? "") === "") errs.push(required(fieldPath("resourceVersion")));
  return errs;
}
