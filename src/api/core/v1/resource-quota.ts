/** The ResourceQuota kind: `ValidateResourceQuota` and its update rules. */
import { type FieldErrorList, invalid, required } from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { canonicalizeQuantities, coreSchemaRoot } from "./kind-helpers.ts";
import type { ResourceList } from "./pod-template.ts";
import {
  isResourceQuotaScopeValidForResource,
  isStandardQuotaResourceName,
  isStandardResourceQuotaScope,
  validateResourceQuotaResourceName,
} from "./quota-names.ts";
import { parseQuantityField, validateResourceQuantityValue } from "./resource-validation.ts";

/** One `spec.scopeSelector.matchExpressions` entry. */
export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface ResourceQuotaSpec {
  hard?: ResourceList;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
}

export interface ResourceQuotaStatus {
  hard?: ResourceList;
  used?: ResourceList;
}

export interface ResourceQuota extends KubeObject {
  spec?: ResourceQuotaSpec;
  status?: ResourceQuotaStatus;
}

/** Quantities print canonically, as the API server re-encodes them. */
export function applyResourceQuotaDefaults(quota: ResourceQuota): void {
  canonicalizeQuantities(quota.spec?.hard);
  canonicalizeQuantities(quota.status?.hard);
  canonicalizeQuantities(quota.status?.used);
}

/** Names and values of a `hard` or `used` map. */
function validateQuotaList(list: ResourceList | undefined, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const [name, text] of Object.entries(list ?? {})) {
    const p = path.key(name);
    errs.push(...validateResourceQuotaResourceName(name, p));
    const q = parseQuantityField(text, p, errs);
    if (q !== undefined) errs.push(...validateResourceQuantityValue(name, q, p));
  }
  return errs;
}

const conflictingScopes = [
  ["BestEffort", "NotBestEffort"],
  ["Terminating", "NotTerminating"],
] as const;

function hasConflict(scopes: ReadonlySet<string>): boolean {
  return conflictingScopes.some(([a, b]) => scopes.has(a) && scopes.has(b));
}

function validateScopes(spec: ResourceQuotaSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const scopes = spec.scopes ?? [];
  if (scopes.length === 0) return errs;
  const hard = Object.keys(spec.hard ?? {}).sort();
  const p = path.child("scopes");
  for (const scope of scopes) {
    if (!isStandardResourceQuotaScope(scope)) errs.push(invalid(p, scopes, "unsupported scope"));
    for (const k of hard) {
      if (isStandardQuotaResourceName(k) && !isResourceQuotaScopeValidForResource(scope, k)) {
        errs.push(invalid(p, scopes, "unsupported scope applied to resource"));
      }
    }
  }
  if (hasConflict(new Set(scopes))) errs.push(invalid(p, scopes, "conflicting scopes"));
  return errs;
}

const existsOnlyScopes = new Set([
  "BestEffort",
  "NotBestEffort",
  "Terminating",
  "NotTerminating",
  "CrossNamespacePodAffinity",
]);

function validateScopeSelector(spec: ResourceQuotaSpec, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = [];
  const selector = spec.scopeSelector;
  if (selector === undefined || selector === null) return errs;
  const hard = Object.keys(spec.hard ?? {}).sort();
  const p = path.child("scopeSelector", "matchExpressions");
  const seen = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    if (!isStandardResourceQuotaScope(req.scopeName)) {
      errs.push(invalid(p.child("scopeName"), req.scopeName, "unsupported scope"));
    }
    for (const k of hard) {
      if (
        isStandardQuotaResourceName(k) &&
        !isResourceQuotaScopeValidForResource(req.scopeName, k)
      ) {
        errs.push(invalid(p, selector, "unsupported scope applied to resource"));
      }
    }
    if (existsOnlyScopes.has(req.scopeName) && req.operator !== "Exists") {
      errs.push(
        invalid(
          p.child("operator"),
          req.operator,
          "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    const values = req.values ?? [];
    switch (req.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) {
          errs.push(
            required(
              p.child("values"),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        }
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length !== 0) {
          errs.push(
            invalid(
              p.child("values"),
              values,
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        }
        break;
      default:
        errs.push(invalid(p.child("operator"), req.operator, "not a valid selector operator"));
    }
    seen.add(req.scopeName);
  }
  if (hasConflict(seen)) errs.push(invalid(p, spec.scopes ?? null, "conflicting scopes"));
  return errs;
}

/** `ValidateResourceQuotaSpec`. */
export function validateResourceQuotaSpec(spec: ResourceQuotaSpec | undefined): FieldErrorList {
  const path = FieldPath.of("spec");
  const s = spec ?? {};
  const errs = validateQuotaList(s.hard, path.child("hard"));
  errs.push(...validateScopes(s, path));
  errs.push(...validateScopeSelector(s, path));
  return errs;
}

/** `ValidateResourceQuotaStatus`. */
export function validateResourceQuotaStatus(
  status: ResourceQuotaStatus | undefined,
): FieldErrorList {
  const path = FieldPath.of("status");
  return [
    ...validateQuotaList(status?.hard, path.child("hard")),
    ...validateQuotaList(status?.used, path.child("used")),
  ];
}

/** `ValidateResourceQuota`. */
export function validateResourceQuota(quota: ResourceQuota): FieldErrorList {
  const errs = validateObjectMeta(quota.metadata, { namespaced: true }, FieldPath.of("metadata"));
  errs.push(...validateResourceQuotaSpec(quota.spec));
  errs.push(...validateResourceQuotaStatus(quota.status));
  return errs;
}

/**
 * `ValidateResourceQuotaUpdate` (scopes may not change) with the status checks of
 * `ValidateResourceQuotaStatusUpdate`: the same rules serve the main resource and `/status`.
 */
export function validateResourceQuotaUpdate(
  quota: ResourceQuota,
  old: ResourceQuota,
): FieldErrorList {
  const errs = validateObjectMetaUpdate(quota.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateResourceQuotaSpec(quota.spec));
  const scopes = new Set(quota.spec?.scopes ?? []);
  const oldScopes = new Set(old.spec?.scopes ?? []);
  if (scopes.size !== oldScopes.size || [...scopes].some((s) => !oldScopes.has(s))) {
    errs.push(
      invalid(FieldPath.of("spec", "scopes"), quota.spec?.scopes ?? null, "field is immutable"),
    );
  }
  errs.push(...validateResourceQuotaStatus(quota.status));
  return errs;
}

export const resourceQuotaKind: KindDefinition<ResourceQuota> = {
  group: "",
  version: "v1",
  kind: "ResourceQuota",
  listKind: "ResourceQuotaList",
  resource: "resourcequotas",
  singular: "resourcequota",
  namespaced: true,
  shortNames: ["quota"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("ResourceQuota"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyResourceQuotaDefaults,
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
};
