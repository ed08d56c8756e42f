/** The LimitRange kind: defaults (`SetDefaults_LimitRangeItem`) and `ValidateLimitRange`. */
import {
  duplicate,
  type FieldErrorList,
  forbiddenField,
  invalid,
  required,
} from "../../meta/field-errors.ts";
import { FieldPath } from "../../meta/field-path.ts";
import type { KubeObject } from "../../meta/types.ts";
import {
  compareQuantities,
  formatQuantity,
  milliValue,
  type ParsedQuantity,
  parseQuantity,
} from "../../resource/quantity.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../validation/meta.ts";
import { isQualifiedName } from "../../validation/names.ts";
import { canonicalizeQuantities, coreSchemaRoot } from "./kind-helpers.ts";
import type { ResourceList } from "./pod-template.ts";
import {
  standardLimitTypes,
  validateContainerResourceName,
  validateResourceName,
} from "./quota-names.ts";
import { isOvercommitAllowed, parseQuantityField } from "./resource-validation.ts";

/** `Pod`, `Container`, `PersistentVolumeClaim`, or a domain-qualified type. */
export type LimitType = string;

export interface LimitRangeItem {
  type: LimitType;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

export interface LimitRange extends KubeObject {
  spec?: { limits?: LimitRangeItem[] };
}

const quantityFields = ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"] as const;

/**
 * `SetDefaults_LimitRangeItem`: a Container limit's default limit falls back to its max, its
 * default request to the default limit, then to its min. Quantities print canonically.
 */
export function applyLimitRangeDefaults(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    for (const field of quantityFields) canonicalizeQuantities(item[field]);
    if (item.type !== "Container") continue;
    const defaults: ResourceList = { ...item.default };
    for (const [name, q] of Object.entries(item.max ?? {})) defaults[name] ??= q;
    const requests: ResourceList = { ...item.defaultRequest };
    for (const [name, q] of Object.entries(defaults)) requests[name] ??= q;
    for (const [name, q] of Object.entries(item.min ?? {})) requests[name] ??= q;
    if (Object.keys(defaults).length > 0) item.default = defaults;
    if (Object.keys(requests).length > 0) item.defaultRequest = requests;
  }
}

function validateLimitTypeName(type: string, path: FieldPath): FieldErrorList {
  const errs: FieldErrorList = isQualifiedName(type).map((msg) => invalid(path, type, msg));
  if (errs.length > 0) return errs;
  if (!type.includes("/") && !standardLimitTypes.has(type)) {
    errs.push(invalid(path, type, "must be a standard limit type or fully qualified"));
  }
  return errs;
}

function validateLimitResourceName(type: string, name: string, path: FieldPath): FieldErrorList {
  return type === "Pod" || type === "Container"
    ? validateContainerResourceName(name, path)
    : validateResourceName(name, path);
}

/** Go's `%f`: six decimals. */
function goFloat(n: number): string {
  return n.toFixed(6);
}

/** A ratio limit as upstream compares it: ratio in whole units, bounds in thousandths. */
function ratioValues(
  ratio: ParsedQuantity,
  min: ParsedQuantity,
  max: ParsedQuantity,
): { ratio: number; min: number; max: number } {
  return { ratio: milliValue(ratio) / 1000, min: milliValue(min), max: milliValue(max) };
}

function validateItem(item: LimitRangeItem, path: FieldPath, seen: Set<string>): FieldErrorList {
  const type = item.type ?? "";
  const errs = validateLimitTypeName(type, path.child("type"));
  if (seen.has(type)) errs.push(duplicate(path.child("type"), type));
  seen.add(type);
  const read = (field: (typeof quantityFields)[number]): Map<string, ParsedQuantity> => {
    const out = new Map<string, ParsedQuantity>();
    for (const [name, text] of Object.entries(item[field] ?? {})) {
      const p = path.child(field).key(name);
      errs.push(...validateLimitResourceName(item.type ?? "", name, p));
      const q = parseQuantityField(text, p, errs);
      if (q !== undefined) out.set(name, q);
    }
    return out;
  };
  const max = read("max");
  const min = read("min");
  let defaults = new Map<string, ParsedQuantity>();
  let defaultRequests = new Map<string, ParsedQuantity>();
  if (item.type === "Pod") {
    if (Object.keys(item.default ?? {}).length > 0) {
      errs.push(forbiddenField(path.child("default"), "may not be specified when `type` is 'Pod'"));
    }
    if (Object.keys(item.defaultRequest ?? {}).length > 0) {
      errs.push(
        forbiddenField(path.child("defaultRequest"), "may not be specified when `type` is 'Pod'"),
      );
    }
  } else {
    defaults = read("default");
    defaultRequests = read("defaultRequest");
  }
  if (item.type === "PersistentVolumeClaim" && !max.has("storage") && !min.has("storage")) {
    errs.push(
      required(
        path.child("limits"),
        "either minimum or maximum storage value is required, but neither was provided",
      ),
    );
  }
  const ratios = read("maxLimitRequestRatio");
  const keys = new Set([
    ...max.keys(),
    ...min.keys(),
    ...defaults.keys(),
    ...defaultRequests.keys(),
    ...ratios.keys(),
  ]);
  const s = formatQuantity;
  for (const k of [...keys].sort()) {
    const lo = min.get(k);
    const hi = max.get(k);
    const def = defaults.get(k);
    const req = defaultRequests.get(k);
    const ratio = ratios.get(k);
    if (lo !== undefined && hi !== undefined && compareQuantities(lo, hi) > 0) {
      errs.push(
        invalid(
          path.child("min").key(k),
          s(lo),
          `min value ${s(lo)} is greater than max value ${s(hi)}`,
        ),
      );
    }
    if (req !== undefined && lo !== undefined && compareQuantities(lo, req) > 0) {
      errs.push(
        invalid(
          path.child("defaultRequest").key(k),
          s(req),
          `min value ${s(lo)} is greater than default request value ${s(req)}`,
        ),
      );
    }
    if (req !== undefined && hi !== undefined && compareQuantities(req, hi) > 0) {
      errs.push(
        invalid(
          path.child("defaultRequest").key(k),
          s(req),
          `default request value ${s(req)} is greater than max value ${s(hi)}`,
        ),
      );
    }
    if (req !== undefined && def !== undefined && compareQuantities(req, def) > 0) {
      errs.push(
        invalid(
          path.child("defaultRequest").key(k),
          s(req),
          `default request value ${s(req)} is greater than default limit value ${s(def)}`,
        ),
      );
    }
    if (def !== undefined && lo !== undefined && compareQuantities(lo, def) > 0) {
      errs.push(
        invalid(
          path.child("default").key(k),
          s(lo),
          `min value ${s(lo)} is greater than default value ${s(def)}`,
        ),
      );
    }
    if (def !== undefined && hi !== undefined && compareQuantities(def, hi) > 0) {
      errs.push(
        invalid(
          path.child("default").key(k),
          s(hi),
          `default value ${s(def)} is greater than max value ${s(hi)}`,
        ),
      );
    }
    if (ratio !== undefined && compareQuantities(ratio, parseQuantity("1")) < 0) {
      errs.push(
        invalid(
          path.child("maxLimitRequestRatio").key(k),
          s(ratio),
          `ratio ${s(ratio)} is less than 1`,
        ),
      );
    }
    if (ratio !== undefined && lo !== undefined && hi !== undefined) {
      const v = ratioValues(ratio, lo, hi);
      const limit = v.max / v.min;
      if (v.ratio > limit) {
        errs.push(
          invalid(
            path.child("maxLimitRequestRatio").key(k),
            s(ratio),
            `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`,
          ),
        );
      }
    }
    if (
      !isOvercommitAllowed(k) &&
      def !== undefined &&
      req !== undefined &&
      compareQuantities(def, req) !== 0
    ) {
      errs.push(
        invalid(
          path.child("defaultRequest").key(k),
          s(req),
          `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`,
        ),
      );
    }
  }
  return errs;
}

/** `ValidateLimitRange`. */
export function validateLimitRange(lr: LimitRange): FieldErrorList {
  const errs = validateObjectMeta(lr.metadata, { namespaced: true }, FieldPath.of("metadata"));
  const seen = new Set<string>();
  const limits = FieldPath.of("spec", "limits");
  (lr.spec?.limits ?? []).forEach((item, i) => {
    errs.push(...validateItem(item, limits.index(i), seen));
  });
  return errs;
}

/** `ValidateLimitRange` on the new object (updates have no further rules). */
export function validateLimitRangeUpdate(lr: LimitRange, old: LimitRange): FieldErrorList {
  const errs = validateObjectMetaUpdate(lr.metadata, old.metadata, FieldPath.of("metadata"));
  errs.push(...validateLimitRange(lr).filter((e) => !e.field.startsWith("metadata")));
  return errs;
}

export const limitRangeKind: KindDefinition<LimitRange> = {
  group: "",
  version: "v1",
  kind: "LimitRange",
  listKind: "LimitRangeList",
  resource: "limitranges",
  singular: "limitrange",
  namespaced: true,
  shortNames: ["limits"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("LimitRange"),
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: applyLimitRangeDefaults,
  validate: validateLimitRange,
  validateUpdate: validateLimitRangeUpdate,
};
