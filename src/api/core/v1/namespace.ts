/** The Namespace kind. */
import { type FieldErrorList, invalid } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { isDns1123Label, isQualifiedName } from "../../validation/names.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";

export interface NamespaceCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: "Active" | "Terminating"; conditions?: NamespaceCondition[] };
}

/** The label every namespace carries with its own name. */
export const labelMetadataName = "kubernetes.io/metadata.name";
/** The finalizer the namespace controller removes once the namespace is empty. */
export const finalizerKubernetes = "kubernetes";

const standardFinalizers = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/**
 * `SetDefaults_Namespace`: phase Active and the `kubernetes.io/metadata.name` label. On a create
 * (no uid, resourceVersion or creationTimestamp yet) `spec.finalizers` also gains `kubernetes`,
 * as the namespace strategy's PrepareForCreate does; updates never re-add it.
 */
export function applyNamespaceDefaults(ns: Namespace): void {
  ns.status ??= {};
  ns.status.phase ??= "Active";
  const name = ns.metadata.name ?? "";
  if (name !== "") {
    ns.metadata.labels ??= {};
    ns.metadata.labels[labelMetadataName] = name;
  }
  const isCreate =
    ns.metadata.uid === undefined &&
    ns.metadata.resourceVersion === undefined &&
    (ns.metadata.creationTimestamp ?? undefined) === undefined;
  if (isCreate) {
    ns.spec ??= {};
    const finalizers = ns.spec.finalizers ?? [];
    if (!finalizers.includes(finalizerKubernetes))
      ns.spec.finalizers = [...finalizers, finalizerKubernetes];
  }
}

function validateFinalizerNames(
  finalizers: readonly string[] | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const f of finalizers ?? []) {
    const msgs = isQualifiedName(f);
    if (msgs.length > 0) {
      for (const msg of msgs) errs.push(invalid(path, f, msg));
    } else if (!f.includes("/") && !standardFinalizers.has(f)) {
      errs.push(
        invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified"),
      );
    }
  }
  return errs;
}

/** `ValidateNamespace`: the name is a DNS label. */
export function validateNamespace(ns: Namespace): FieldErrorList {
  const errs = validateObjectMeta(
    ns.metadata,
    { namespaced: false, nameValidator: isDns1123Label },
    FieldPath.of("metadata"),
  );
  errs.push(...validateFinalizerNames(ns.spec?.finalizers, FieldPath.of("spec", "finalizers")));
  return errs;
}

/** `ValidateNamespaceUpdate`. */
export function validateNamespaceUpdate(ns: Namespace, old: Namespace): FieldErrorList {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateFinalizerNames(ns.spec?.finalizers, FieldPath.of("spec", "finalizers")));
  return errs;
}

export const namespaceKind: KindDefinition<Namespace> = {
  group: "",
  version: "v1",
  kind: "Namespace",
  listKind: "NamespaceList",
  resource: "namespaces",
  singular: "namespace",
  namespaced: false,
  shortNames: ["ns"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("Namespace"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyNamespaceDefaults,
  validate: validateNamespace,
  validateUpdate: validateNamespaceUpdate,
  selectableFields: (ns) => ({ "status.phase": ns.status?.phase ?? "" }),
};
