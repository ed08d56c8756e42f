/**
 * Validates a custom resource against its CRD version's structural schema, printing errors as
 * apiextensions' OpenAPI validator does:
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 */

import { isPlainObject } from "../../../util/index.ts";
import { tooManyItems } from "../../apps/v1/validation-helpers.ts";
import {
  duplicate,
  type FieldError,
  type FieldErrorList,
  invalid,
  notSupported,
  required,
  tooLong,
} from "../../meta/field-errors.ts";
import { type FieldPath, fieldPath } from "../../meta/field-path.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { schemaAt } from "./schema-checks.ts";

/** The JSON type name the validator reports for a value. */
export function jsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "object") return "object";
  return typeof value;
}

/** Formats a number as Go's `%v` does for JSON numbers. */
function num(value: number): string {
  return String(value);
}

/**
 * Validates `value` (the whole object, or a subtree at `path`) against `schema`. Root-level
 * `apiVersion`, `kind` and `metadata` are left to the caller. Returns every violation.
 */
export function validateAgainstSchema(
  value: unknown,
  schema: JSONSchemaProps,
  path?: FieldPath,
): FieldErrorList {
  const errs: FieldErrorList = [];
  visitSchemaNode(value, schema, path, errs, path === undefined, plainWalk, undefined);
  return errs;
}

/**
 * How `visitSchemaNode` reaches the children of a node (its properties and items): the create
 * path validates each as it is; the update path first correlates each with the old object's
 * value (ratcheting). `C` is what the walk knows of the node whose children these are.
 */
export interface SchemaWalk<C> {
  /**
   * Whether `x-kubernetes-list-type` set/map duplicates are reported with the node's own errors
   * (create), or left to a separate whole-object pass (update, as upstream's
   * `ValidateListSetsAndMaps`).
   */
  readonly listTypeDuplicates: boolean;
  /** Validates `value`, the property or item `key` of the node `parent`, against `schema`. */
  child(
    value: unknown,
    schema: JSONSchemaProps,
    path: FieldPath,
    key: string | number,
    parent: C,
    errs: FieldError[],
  ): void;
}

/** Validates every child as it is, list-type duplicates included: the create path. */
const plainWalk: SchemaWalk<undefined> = {
  listTypeDuplicates: true,
  child(value, schema, path, _key, _parent, errs) {
    visitSchemaNode(value, schema, path, errs, false, plainWalk, undefined);
  },
};

/** Validates every child as it is, leaving list-type duplicates to a separate pass. */
export const uncorrelatedWalk: SchemaWalk<undefined> = {
  listTypeDuplicates: false,
  child(value, schema, path, _key, _parent, errs) {
    visitSchemaNode(value, schema, path, errs, false, uncorrelatedWalk, undefined);
  },
};

export function childPath(path: FieldPath | undefined, name: string): FieldPath {
  return path === undefined ? fieldPath(name) : path.child(name);
}

/**
 * Checks `value` against the keywords of `s` and hands its children to `walk`. At the root
 * (`isRoot`) `apiVersion`, `kind` and `metadata` are left to the caller.
 */
export function visitSchemaNode<C>(
  value: unknown,
  s: JSONSchemaProps,
  path: FieldPath | undefined,
  errs: FieldError[],
  isRoot: boolean,
  walk: SchemaWalk<C>,
  node: C,
): void {
  const name = path?.toString() ?? "";
  const at = path ?? fieldPath("");
  const actual = jsonTypeOf(value);
  if (value === null && s.nullable === true) return;
  if (s["x-kubernetes-int-or-string"] === true) {
    if (actual !== "integer" && actual !== "string") {
      errs.push(invalid(at, actual, `${name} in body must be of type integer,string: "${actual}"`));
      return;
    }
  } else if (s.type !== undefined && !typeMatches(s.type, actual)) {
    errs.push(invalid(at, actual, `${name} in body must be of type ${s.type}: "${actual}"`));
    if (s.enum !== undefined && !enumContains(s.enum, value))
      errs.push(enumError(at, value, s.enum));
    return;
  } else if (
    s.type === undefined &&
    value === null &&
    s["x-kubernetes-preserve-unknown-fields"] !== true
  ) {
    return;
  }
  if (s.enum !== undefined && !enumContains(s.enum, value)) errs.push(enumError(at, value, s.enum));
  if (typeof value === "number") checkNumber(value, s, at, name, errs);
  if (typeof value === "string") checkString(value, s, at, name, errs);
  if (Array.isArray(value)) checkArray(value, s, path, name, errs, walk, node);
  if (isPlainObject(value)) checkObject(value, s, path, name, errs, isRoot, walk, node);
  checkJunctors(value, s, path, name, errs);
}

function typeMatches(type: string, actual: string): boolean {
  return type === actual || (type === "number" && actual === "integer");
}

function enumContains(values: readonly unknown[], value: unknown): boolean {
  const text = JSON.stringify(value);
  return values.some((v) => JSON.stringify(v) === text);
}

function enumError(path: FieldPath, value: unknown, values: readonly unknown[]): FieldError {
  return notSupported(
    path,
    value,
    values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
  );
}

function checkNumber(
  value: number,
  s: JSONSchemaProps,
  at: FieldPath,
  name: string,
  errs: FieldError[],
): void {
  if (s.minimum !== undefined) {
    const ok = s.exclusiveMinimum === true ? value > s.minimum : value >= s.minimum;
    if (!ok) {
      const rel = s.exclusiveMinimum === true ? "greater than" : "greater than or equal to";
      errs.push(invalid(at, value, `${name} in body should be ${rel} ${num(s.minimum)}`));
    }
  }
  if (s.maximum !== undefined) {
    const ok = s.exclusiveMaximum === true ? value < s.maximum : value <= s.maximum;
    if (!ok) {
      const rel = s.exclusiveMaximum === true ? "less than" : "less than or equal to";
      errs.push(invalid(at, value, `${name} in body should be ${rel} ${num(s.maximum)}`));
    }
  }
  if (s.multipleOf !== undefined && s.multipleOf !== 0 && !Number.isInteger(value / s.multipleOf)) {
    errs.push(invalid(at, value, `${name} in body should be a multiple of ${num(s.multipleOf)}`));
  }
}

function checkString(
  value: string,
  s: JSONSchemaProps,
  at: FieldPath,
  name: string,
  errs: FieldError[],
): void {
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) errs.push(tooLong(at, s.maxLength));
  if (s.minLength !== undefined && length < s.minLength) {
    errs.push(invalid(at, value, `${name} in body should be at least ${s.minLength} chars long`));
  }
  if (s.pattern !== undefined) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern, "u");
    } catch {
      re = undefined;
    }
    if (re !== undefined && !re.test(value)) {
      errs.push(invalid(at, value, `${name} in body should match '${s.pattern}'`));
    }
  }
}

function checkArray<C>(
  value: unknown[],
  s: JSONSchemaProps,
  path: FieldPath | undefined,
  name: string,
  errs: FieldError[],
  walk: SchemaWalk<C>,
  node: C,
): void {
  const at = path ?? fieldPath("");
  if (s.maxItems !== undefined && value.length > s.maxItems)
    errs.push(tooManyItems(at, value.length, s.maxItems));
  if (s.minItems !== undefined && value.length < s.minItems) {
    errs.push(
      invalid(at, value.length, `${name} in body should have at least ${s.minItems} items`),
    );
  }
  const listType = s["x-kubernetes-list-type"];
  if (s.uniqueItems === true || (walk.listTypeDuplicates && listType === "set")) {
    setDuplicates(value, at, errs);
  }
  if (walk.listTypeDuplicates && listType === "map") mapDuplicates(value, s, at, errs);
  const items = schemaAt(s.items);
  if (items === undefined) return;
  for (let i = 0; i < value.length; i++) {
    walk.child(value[i], items, at.index(i), i, node, errs);
  }
}

/**
 * Reports the `x-kubernetes-list-type` set and map invariants of the list `value` at `at`: a set
 * item equal to an earlier one, a map item whose keys an earlier item has.
 */
export function listTypeDuplicates(
  value: readonly unknown[],
  s: JSONSchemaProps,
  at: FieldPath,
  errs: FieldError[],
): void {
  const listType = s["x-kubernetes-list-type"];
  if (listType === "set") setDuplicates(value, at, errs);
  else if (listType === "map") mapDuplicates(value, s, at, errs);
}

function setDuplicates(value: readonly unknown[], at: FieldPath, errs: FieldError[]): void {
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) errs.push(duplicate(at.index(i), item));
    seen.add(key);
  });
}

function mapDuplicates(
  value: readonly unknown[],
  s: JSONSchemaProps,
  at: FieldPath,
  errs: FieldError[],
): void {
  const keys = s["x-kubernetes-list-map-keys"] ?? [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (!isPlainObject(item)) return;
    const key = JSON.stringify(keys.map((k) => item[k] ?? null));
    if (seen.has(key)) {
      errs.push(duplicate(at.index(i), Object.fromEntries(keys.map((k) => [k, item[k]]))));
    }
    seen.add(key);
  });
}

function checkObject<C>(
  value: Record<string, unknown>,
  s: JSONSchemaProps,
  path: FieldPath | undefined,
  name: string,
  errs: FieldError[],
  isRoot: boolean,
  walk: SchemaWalk<C>,
  node: C,
): void {
  const at = path ?? fieldPath("");
  for (const key of s.required ?? []) {
    if (!(key in value)) errs.push(required(childPath(path, key)));
  }
  const count = Object.keys(value).length;
  if (s.maxProperties !== undefined && count > s.maxProperties)
    errs.push(tooManyItems(at, count, s.maxProperties));
  if (s.minProperties !== undefined && count < s.minProperties) {
    errs.push(
      invalid(at, count, `${name} in body should have at least ${s.minProperties} properties`),
    );
  }
  const properties = s.properties ?? {};
  const additional = schemaAt(s.additionalProperties);
  for (const [key, fieldValue] of Object.entries(value)) {
    if (isRoot && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    const sub = schemaAt(properties[key]) ?? additional;
    if (sub !== undefined) walk.child(fieldValue, sub, childPath(path, key), key, node, errs);
  }
}

function checkJunctors(
  value: unknown,
  s: JSONSchemaProps,
  path: FieldPath | undefined,
  name: string,
  errs: FieldError[],
): void {
  // Most schemas have no junctors: nothing to make for them.
  if (
    s.anyOf === undefined &&
    s.allOf === undefined &&
    s.oneOf === undefined &&
    s.not === undefined
  )
    return;
  const quoted = JSON.stringify(name);
  // Upstream reports junctor failures without a field path: `<nil>: Invalid value: "": …`.
  const junctorError = (detail: string): FieldError => ({
    type: "FieldValueInvalid",
    field: "<nil>",
    value: "",
    detail,
  });
  const passes = (sub: unknown): boolean => {
    const schema = schemaAt(sub);
    return (
      schema === undefined ||
      validateAgainstSchema(value, schema, path ?? fieldPath("")).length === 0
    );
  };
  const anyOf = s.anyOf ?? [];
  if (anyOf.length > 0 && !anyOf.some(passes)) {
    errs.push(junctorError(`${quoted} must validate at least one schema (anyOf)`));
  }
  const allOf = s.allOf ?? [];
  const allPassed = allOf.filter(passes).length;
  if (allOf.length > 0 && allPassed < allOf.length) {
    errs.push(
      junctorError(
        allPassed === 0
          ? `${quoted} must validate all the schemas (allOf). None validated`
          : `${quoted} must validate all the schemas (allOf)`,
      ),
    );
  }
  const oneOf = s.oneOf ?? [];
  if (oneOf.length > 0 && oneOf.filter(passes).length !== 1) {
    errs.push(junctorError(`${quoted} must validate one and only one schema (oneOf)`));
  }
  const not = schemaAt(s.not);
  if (not !== undefined && passes(not)) {
    errs.push(junctorError(`${quoted} must not validate the schema (not)`));
  }
}
