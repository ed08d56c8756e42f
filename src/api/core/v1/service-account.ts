/** The ServiceAccount kind. */
import type { FieldErrorList } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import type { ObjectReference } from "./event.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import type { LocalObjectReference } from "./pod-template.ts";

export interface ServiceAccount extends KubeObject {
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

export function validateServiceAccount(sa: ServiceAccount): FieldErrorList {
  return validateObjectMeta(sa.metadata, { namespaced: true }, FieldPath.of("metadata"));
}

export function validateServiceAccountUpdate(
  sa: ServiceAccount,
  old: ServiceAccount,
): FieldErrorList {
  return validateObjectMetaUpdate(sa.metadata, old.metadata, FieldPath.of("metadata"));
}

export const serviceAccountKind: KindDefinition<ServiceAccount> = {
  group: "",
  version: "v1",
  kind: "ServiceAccount",
  listKind: "ServiceAccountList",
  resource: "serviceaccounts",
  singular: "serviceaccount",
  namespaced: true,
  shortNames: ["sa"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("ServiceAccount"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: validateServiceAccount,
  validateUpdate: validateServiceAccountUpdate,
};
