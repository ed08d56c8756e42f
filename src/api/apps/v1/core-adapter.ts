/**
 * The one seam between this area and core/v1's pod-template logic and published definitions.
 * Every kind here that embeds a PodTemplateSpec (Deployment, ReplicaSet, StatefulSet, DaemonSet,
 * Job) validates and defaults it through these functions.
 */
import { coreV1Definitions } from "../../core/v1/definitions.ts";
import { applyPodTemplateSpecDefaults } from "../../core/v1/pod-defaults.ts";
import { validatePodTemplateSpec } from "../../core/v1/pod-spec-validation.ts";
import type { PodTemplateSpec } from "../../core/v1/pod-template.ts";
import type { FieldErrorList } from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import type { Definitions } from "../../schema/schema.ts";

/**
 * `ValidatePodTemplateSpec`: labels and annotations (reported at `<path>.labels` and
 * `<path>.annotations`, as upstream does), then the pod spec under `<path>.spec`.
 */
export function validatePodTemplate(template: PodTemplateSpec, path: FieldPath): FieldErrorList {
  return validatePodTemplateSpec(template, path);
}

/** Fills the pod template's defaults in place (`SetDefaults_PodSpec` and everything inside). */
export function defaultPodTemplate(template: PodTemplateSpec): void {
  applyPodTemplateSpecDefaults(template);
}

/**
 * The definitions other areas publish that this area's schemas refer to by name: meta/v1
 * (ObjectMeta, LabelSelector, Condition, …) and core/v1 (PodTemplateSpec, …).
 */
export function externalDefinitions(): Definitions {
  return coreV1Definitions;
}
