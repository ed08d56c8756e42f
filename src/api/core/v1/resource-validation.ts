/** Resource names and quantities in ResourceLists (`pkg/apis/core/validation`, `helper`). */

import { errorMessage } from "../../../util/index.ts";
import { type FieldErrorList, invalid, required } from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import {
  compareQuantities,
  formatQuantity,
  milliValue,
  type ParsedQuantity,
  parseQuantity,
} from "../../resource/quantity.ts";
import { isQualifiedName } from "../../validation/names.ts";
import type { ResourceRequirements } from "./pod-template.ts";

const standardContainerResources = new Set(["cpu", "memory", "ephemeral-storage"]);
const integerResources = new Set([
  "pods",
  "services",
  "replicationcontrollers",
  "resourcequotas",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
]);

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith("hugepages-");
}

/** Native resources have no domain or a `kubernetes.io` one. */
export function isNativeResource(name: string): boolean {
  return !name.includes("/") || name.includes("kubernetes.io/");
}

/** Extended resources (`example.com/gpu`) are counted in whole units and never overcommitted. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith("requests.")) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

/** Parses a quantity field, reporting an unparsable one at `path`. */
export function parseQuantityField(
  text: unknown,
  path: FieldPath,
  errs: FieldErrorList,
): ParsedQuantity | undefined {
  try {
    return parseQuantity(String(text));
  } catch (error) {
    errs.push(invalid(path, text, errorMessage(error)));
    return undefined;
  }
}

/** `ValidateResourceQuantityValue`: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(
  resource: string,
  q: ParsedQuantity,
  path: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (q.unscaled < 0n) {
    errs.push(invalid(path, formatQuantity(q), "must be greater than or equal to 0"));
  }
  if (isIntegerResourceName(resource) && milliValue(q) % 1000 !== 0) {
    errs.push(invalid(path, formatQuantity(q), "must be an integer"));
  }
  return errs;
}

/** `validateContainerResourceName`. */
export function validateContainerResourceName(name: string, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = isQualifiedName(name).map((msg) => invalid(path, name, msg));
  if (!name.includes("/")) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      errs.push(invalid(path, name, "must be a standard resource for containers"));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** Container (or pod-level) requests and limits: names, values, and requests ≤ limits. */
export function validateResourceRequirements(
  requirements: ResourceRequirements | undefined,
  path: FieldPath,
  nameValidator: (name: string, path: FieldPath) => FieldErrorList = validateContainerResourceName,
): FieldErrorList {
  const errs: FieldErrorList = [];
  const limPath = path.child("limits");
  const reqPath = path.child("requests");
  const limits = new Map<string, ParsedQuantity>();
  for (const [name, text] of Object.entries(requirements?.limits ?? {})) {
    const p = limPath.key(name);
    errs.push(...nameValidator(name, p));
    const q = parseQuantityField(text, p, errs);
    if (q === undefined) continue;
    errs.push(...validateResourceQuantityValue(name, q, p));
    limits.set(name, q);
  }
  for (const [name, text] of Object.entries(requirements?.requests ?? {})) {
    const p = reqPath.key(name);
    errs.push(...nameValidator(name, p));
    const q = parseQuantityField(text, p, errs);
    if (q === undefined) continue;
    errs.push(...validateResourceQuantityValue(name, q, p));
    const limit = limits.get(name);
    if (limit !== undefined) {
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(
          invalid(
            reqPath,
            formatQuantity(q),
            `must be equal to ${name} limit of ${formatQuantity(limit)}`,
          ),
        );
      } else if (cmp > 0) {
        errs.push(
          invalid(
            reqPath,
            formatQuantity(q),
            `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`,
          ),
        );
      }
    } else if (!isOvercommitAllowed(name) && requirements?.limits?.[name] === undefined) {
      errs.push(required(limPath, "Limit must be set for non overcommitable resources"));
    }
  }
  return errs;
}
