/** The ReplicationController kind. */
import {
  type FieldErrorList,
  forbiddenField,
  invalid,
  notSupported,
  required,
} from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import {
  validateLabels,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import { applyPodTemplateSpecDefaults } from "./pod-defaults.ts";
import { validatePodTemplateSpec } from "./pod-spec-validation.ts";
import type { PodTemplateSpec } from "./pod-template.ts";

export interface ReplicationControllerCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicationController extends KubeObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: Record<string, string>;
    template?: PodTemplateSpec;
  };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: ReplicationControllerCondition[];
  };
}

/** `SetDefaults_ReplicationController`: selector and labels from the template, one replica. */
export function applyReplicationControllerDefaults(rc: ReplicationController): void {
  rc.spec ??= {};
  const labels = rc.spec.template?.metadata?.labels;
  if (labels !== undefined) {
    if (Object.keys(rc.spec.selector ?? {}).length === 0) rc.spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  rc.spec.replicas ??= 1;
  applyPodTemplateSpecDefaults(rc.spec.template);
}

function validateSpec(rc: ReplicationController): FieldErrorList {
  const path = FieldPath.of("spec");
  const spec = rc.spec ?? {};
  const errs = validateNonnegative(spec.minReadySeconds, path.child("minReadySeconds"));
  errs.push(...validateNonnegative(spec.replicas, path.child("replicas")));
  const selector = spec.selector ?? {};
  if (Object.keys(selector).length === 0) errs.push(required(path.child("selector")));
  else errs.push(...validateLabels(selector, path.child("selector")));
  const template = spec.template;
  if (template === undefined) {
    errs.push(required(path.child("template")));
    return errs;
  }
  const labels = template.metadata?.labels ?? {};
  if (
    Object.keys(selector).length > 0 &&
    !Object.entries(selector).every(([k, v]) => labels[k] === v)
  ) {
    errs.push(
      invalid(
        path.child("template", "metadata", "labels"),
        labels,
        "`selector` does not match template `labels`",
      ),
    );
  }
  errs.push(...validatePodTemplateSpec(template, path.child("template")));
  const restart = template.spec?.restartPolicy;
  if (restart !== undefined && restart !== "Always") {
    errs.push(notSupported(path.child("template", "spec", "restartPolicy"), restart, ["Always"]));
  }
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(
      forbiddenField(
        path.child("template", "spec", "activeDeadlineSeconds"),
        "activeDeadlineSeconds in ReplicationController is not Supported",
      ),
    );
  }
  return errs;
}

export function validateReplicationController(rc: ReplicationController): FieldErrorList {
  const errs = validateObjectMeta(rc.metadata, { namespaced: true }, FieldPath.of("metadata"));
  errs.push(...validateSpec(rc));
  return errs;
}

export function validateReplicationControllerUpdate(
  rc: ReplicationController,
  old: ReplicationController,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(rc.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateSpec(rc));
  return errs;
}

export const replicationControllerKind: KindDefinition<ReplicationController> = {
  group: "",
  version: "v1",
  kind: "ReplicationController",
  listKind: "ReplicationControllerList",
  resource: "replicationcontrollers",
  singular: "replicationcontroller",
  namespaced: true,
  shortNames: ["rc"],
  categories: ["all"],
  verbs: allVerbs,
  schema: coreSchemaRoot("ReplicationController"),
  tracksGeneration: true,
  subresources: {
    status: true,
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
  },
  applyDefaults: applyReplicationControllerDefaults,
  validate: validateReplicationController,
  validateUpdate: validateReplicationControllerUpdate,
  selectableFields: (rc) => ({ "status.replicas": String(rc.status?.replicas ?? 0) }),
};
