/**
 * Workload and PodGroup validation. Messages follow upstream's `pkg/apis/scheduling/validation`
 * (1.35) where it has the rule; gantry's additions (templates, replicas, PodGroup) use the same
 * style.
 */

import { tooManyItems } from "../../apps/v1/validation-helpers.ts";
import { duplicate, type FieldErrorList, invalid, required } from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import { validateConditions } from "../../policy/v1/conditions-validation.ts";
import {
  validateImmutableField,
  validateNonnegative,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../validation/meta.ts";
import {
  isDns1123Label,
  isDns1123Subdomain,
  isValidPathSegmentName,
} from "../../validation/names.ts";
import type { PodGroup, PodGroupSpec } from "./pod-group.ts";
import {
  type PodGroupPolicy,
  type TypedLocalObjectReference,
  type Workload,
  type WorkloadSpec,
  workloadMaxPodGroups,
} from "./workload.ts";

export function validateWorkload(workload: Workload): FieldErrorList {
  const errs = validateObjectMeta(workload.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validateWorkloadSpec(workload.spec ?? {}, fieldPath("spec")));
  return errs;
}

/** `controllerRef` may be set later but never changed once set; both group lists are frozen. */
export function validateWorkloadUpdate(workload: Workload, old: Workload): FieldErrorList {
  const errs = validateObjectMetaUpdate(workload.metadata, old.metadata, fieldPath("metadata"));
  const spec = workload.spec ?? {};
  const oldSpec = old.spec ?? {};
  const p = fieldPath("spec");
  errs.push(...validateWorkloadSpec(spec, p));
  if (oldSpec.controllerRef !== undefined) {
    errs.push(
      ...validateImmutableField(
        spec.controllerRef,
        oldSpec.controllerRef,
        p.child("controllerRef"),
      ),
    );
  }
  errs.push(...validateImmutableField(spec.podGroups, oldSpec.podGroups, p.child("podGroups")));
  errs.push(
    ...validateImmutableField(
      spec.podGroupTemplates,
      oldSpec.podGroupTemplates,
      p.child("podGroupTemplates"),
    ),
  );
  return errs;
}

export function validateWorkloadSpec(spec: WorkloadSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.controllerRef !== undefined) {
    errs.push(...validateControllerRef(spec.controllerRef, path.child("controllerRef")));
  }
  const groups = spec.podGroups ?? [];
  const templates = spec.podGroupTemplates ?? [];
  if (groups.length === 0 && templates.length === 0) {
    errs.push(
      required(
        path.child("podGroups"),
        "must have at least one item in podGroups or podGroupTemplates",
      ),
    );
  }
  errs.push(
    ...validateGroupList(groups, path.child("podGroups"), (group, p) =>
      validateNonnegative(group.replicas, p.child("replicas")),
    ),
  );
  errs.push(...validateGroupList(templates, path.child("podGroupTemplates"), () => []));
  return errs;
}

function validateGroupList<G extends { name: string; policy: PodGroupPolicy }>(
  groups: readonly G[],
  path: FieldPath,
  extra: (group: G, path: FieldPath) => FieldErrorList,
): FieldErrorList {
  if (groups.length > workloadMaxPodGroups) {
    return [tooManyItems(path, groups.length, workloadMaxPodGroups)];
  }
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  groups.forEach((group, i) => {
    const p = path.index(i);
    const name = group.name ?? "";
    for (const msg of isDns1123Label(name)) errs.push(invalid(p.child("name"), name, msg));
    if (seen.has(name)) errs.push(duplicate(p.child("name"), name));
    seen.add(name);
    errs.push(...validatePolicy(group.policy ?? {}, p.child("policy")));
    errs.push(...extra(group, p));
  });
  return errs;
}

function validatePolicy(policy: PodGroupPolicy, path: FieldPath): FieldErrorList {
  const set: string[] = [];
  if (policy.basic !== undefined) set.push("`basic`");
  if (policy.gang !== undefined) set.push("`gang`");
  if (set.length === 0) return [required(path, "exactly one of `basic`, `gang` is required")];
  if (set.length > 1) {
    return [
      invalid(
        path,
        `{${set.join(", ")}}`,
        "exactly one of `basic`, `gang` is required, but multiple fields are set",
      ),
    ];
  }
  const minCount = policy.gang?.minCount;
  if (policy.gang !== undefined && !(typeof minCount === "number" && minCount > 0)) {
    return [invalid(path.child("gang", "minCount"), minCount ?? 0, "must be greater than zero")];
  }
  return [];
}

function validateControllerRef(ref: TypedLocalObjectReference, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  if ((ref.apiGroup ?? "") !== "") {
    for (const msg of isDns1123Subdomain(ref.apiGroup ?? "")) {
      errs.push(invalid(path.child("apiGroup"), ref.apiGroup, msg));
    }
  }
  for (const key of ["kind", "name"] as const) {
    const value = ref[key] ?? "";
    if (value === "") {
      errs.push(required(path.child(key)));
    } else {
      for (const msg of isValidPathSegmentName(value))
        errs.push(invalid(path.child(key), value, msg));
    }
  }
  return errs;
}

export function validatePodGroup(podGroup: PodGroup): FieldErrorList {
  const errs = validateObjectMeta(podGroup.metadata, { namespaced: true }, fieldPath("metadata"));
  errs.push(...validatePodGroupSpec(podGroup.spec, fieldPath("spec")));
  return errs;
}

/** The spec is immutable; status (scheduledPods, conditions) is checked on every update. */
export function validatePodGroupUpdate(podGroup: PodGroup, old: PodGroup): FieldErrorList {
  const errs = validateObjectMetaUpdate(podGroup.metadata, old.metadata, fieldPath("metadata"));
  const p = fieldPath("spec");
  errs.push(...validatePodGroupSpec(podGroup.spec, p));
  errs.push(
    ...validateImmutableField(
      podGroup.spec?.workloadRef,
      old.spec?.workloadRef,
      p.child("workloadRef"),
    ),
  );
  errs.push(
    ...validateImmutableField(
      podGroup.spec?.podGroupTemplateName,
      old.spec?.podGroupTemplateName,
      p.child("podGroupTemplateName"),
    ),
  );
  const status = podGroup.status;
  if (status !== undefined) {
    const sp = fieldPath("status");
    errs.push(...validateNonnegative(status.scheduledPods, sp.child("scheduledPods")));
    errs.push(...validateConditions(status.conditions, sp.child("conditions")));
  }
  return errs;
}

export function validatePodGroupSpec(
  spec: PodGroupSpec | undefined,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const ref = spec?.workloadRef;
  if (ref === undefined) {
    errs.push(required(path.child("workloadRef")));
  } else if ((ref.name ?? "") === "") {
    errs.push(required(path.child("workloadRef", "name")));
  } else {
    for (const msg of isDns1123Subdomain(ref.name)) {
      errs.push(invalid(path.child("workloadRef", "name"), ref.name, msg));
    }
  }
  const template = spec?.podGroupTemplateName ?? "";
  if (template === "") {
    errs.push(required(path.child("podGroupTemplateName")));
  } else {
    for (const msg of isDns1123Label(template)) {
      errs.push(invalid(path.child("podGroupTemplateName"), template, msg));
    }
  }
  return errs;
}
