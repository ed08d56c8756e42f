/**
 * Resource names and quota scopes as LimitRange and ResourceQuota validation see them
 * (upstream's pkg/apis/core/helper and the resource-name checks of pkg/apis/core/validation).
 */
import { type FieldErrorList, invalid } from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import { isQualifiedName } from "../../validation/names.ts";
import {
  isExtendedResourceName,
  isHugePageResourceName,
  isNativeResource,
} from "./resource-validation.ts";

/** The scopes a ResourceQuota may name (`IsStandardResourceQuotaScope`). */
export const resourceQuotaScopes = [
  "Terminating",
  "NotTerminating",
  "BestEffort",
  "NotBestEffort",
  "PriorityClass",
  "CrossNamespacePodAffinity",
] as const;

/** The limit types a LimitRange item may name without a domain. */
export const standardLimitTypes: ReadonlySet<string> = new Set([
  "Pod",
  "Container",
  "PersistentVolumeClaim",
]);

const standardResources: ReadonlySet<string> = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "storage",
  "requests.storage",
  "services.nodeports",
  "services.loadbalancers",
]);

const standardQuotaResources: ReadonlySet<string> = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
  "requests.cpu",
  "requests.memory",
  "requests.storage",
  "requests.ephemeral-storage",
  "limits.cpu",
  "limits.memory",
  "limits.ephemeral-storage",
  "pods",
  "resourcequotas",
  "services",
  "replicationcontrollers",
  "secrets",
  "persistentvolumeclaims",
  "configmaps",
  "services.nodeports",
  "services.loadbalancers",
]);

const standardContainerResources: ReadonlySet<string> = new Set([
  "cpu",
  "memory",
  "ephemeral-storage",
]);

const podComputeQuotaResources: ReadonlySet<string> = new Set([
  "cpu",
  "memory",
  "limits.cpu",
  "limits.memory",
  "requests.cpu",
  "requests.memory",
]);

/** `IsQuotaHugePageResourceName`: `hugepages-2Mi` or `requests.hugepages-2Mi`. */
export function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith("hugepages-") || name.startsWith("requests.hugepages-");
}

/** `IsStandardResourceName`. */
export function isStandardResourceName(name: string): boolean {
  return standardResources.has(name) || isQuotaHugePageResourceName(name);
}

/** `IsStandardQuotaResourceName`: a resource the quota system knows without a domain. */
export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
}

/** `IsStandardResourceQuotaScope`. */
export function isStandardResourceQuotaScope(scope: string): boolean {
  return (resourceQuotaScopes as readonly string[]).includes(scope);
}

/** `IsResourceQuotaScopeValidForResource`: pod scopes only limit pod counts and compute. */
export function isResourceQuotaScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case "Terminating":
    case "NotTerminating":
    case "NotBestEffort":
    case "PriorityClass":
    case "CrossNamespacePodAffinity":
      return resource === "pods" || podComputeQuotaResources.has(resource);
    case "BestEffort":
      return resource === "pods";
    default:
      return true;
  }
}

/** `validateResourceName`: a qualified name, standard unless it has a domain. */
export function validateResourceName(value: string, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = isQualifiedName(value).map((msg) => invalid(path, value, msg));
  if (errs.length > 0) return errs;
  if (!value.includes("/") && !isStandardResourceName(value)) {
    errs.push(invalid(path, value, "must be a standard resource type or fully qualified"));
  }
  return errs;
}

/** `validateContainerResourceName`: what a container (or a Pod/Container limit) may name. */
export function validateContainerResourceName(value: string, path: FieldPath): FieldErrorList {
  const errs = validateResourceName(value, path);
  if (!value.includes("/")) {
    if (!standardContainerResources.has(value) && !isHugePageResourceName(value)) {
      errs.push(invalid(path, value, "must be a standard resource for containers"));
    }
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) {
    errs.push(invalid(path, value, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** `ValidateResourceQuotaResourceName`. */
export function validateResourceQuotaResourceName(value: string, path: FieldPath): FieldErrorList {
  const errs = validateResourceName(value, path);
  if (!value.includes("/") && !isStandardQuotaResourceName(value)) {
    errs.push(invalid(path, value, "must be a standard resource for quota"));
  }
  return errs;
}
