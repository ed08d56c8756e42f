/**
 * The core/v1 PodTemplate kind: `ValidatePodTemplate` and `ValidatePodTemplateUpdate`
 * (pkg/apis/core/validation, 1.33) and the template's pod defaults.
 */
import type { FieldErrorList } from "../../meta/field-errors.ts";
import { fieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import { applyPodTemplateSpecDefaults } from "./pod-defaults.ts";
import { validatePodTemplateSpec } from "./pod-spec-validation.ts";
import type { PodTemplateSpec } from "./pod-template.ts";

export interface PodTemplate extends KubeObject {
  template?: PodTemplateSpec;
}

/** `SetDefaults_PodSpec` and everything inside, on the template. */
export function applyPodTemplateDefaults(podTemplate: PodTemplate): void {
  podTemplate.template ??= {};
  applyPodTemplateSpecDefaults(podTemplate.template);
}

/** `ValidatePodTemplate`: a DNS-subdomain name in a namespace, and the template. */
export function validatePodTemplate(podTemplate: PodTemplate): FieldErrorList {
  const errs = validateObjectMeta(
    podTemplate.metadata,
    { namespaced: true },
    fieldPath("metadata"),
  );
  errs.push(...validatePodTemplateSpec(podTemplate.template ?? {}, fieldPath("template")));
  return errs;
}

/** `ValidatePodTemplateUpdate`: metadata rules, then the template as on create. */
export function validatePodTemplateUpdate(
  podTemplate: PodTemplate,
  old: PodTemplate,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(podTemplate.metadata, old.metadata, fieldPath("metadata"));
  errs.push(...validatePodTemplateSpec(podTemplate.template ?? {}, fieldPath("template")));
  return errs;
}

export const podTemplateKind: KindDefinition<PodTemplate> = {
  group: "",
  version: "v1",
  kind: "PodTemplate",
  listKind: "PodTemplateList",
  resource: "podtemplates",
  singular: "podtemplate",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("PodTemplate"),
  // Upstream's strategy sets generation 1 and bumps it when the template changes.
  tracksGeneration: true,
  subresources: { status: false },
  applyDefaults: applyPodTemplateDefaults,
  validate: validatePodTemplate,
  validateUpdate: validatePodTemplateUpdate,
};
