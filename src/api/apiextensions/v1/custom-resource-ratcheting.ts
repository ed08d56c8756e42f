/**
 * CRD validation ratcheting (KEP-4008, upstream feature `CRDValidationRatcheting`, GA in 1.33):
 * on UPDATE, OpenAPI schema errors in a part of the object that did not change are not reported,
 * so an object that a tightened schema made invalid can still be updated in its other fields.
 *
 * The rules are upstream's ratcheting schema validator (apiextensions-apiserver
 * `validation/ratcheting.go` over apiserver `cel/common/equality.go`, `CorrelatedObject`):
 * - Correlation. The root is correlated with the old object; a property with the old object's
 *   property of the same name (both present); an item of an `x-kubernetes-list-type: map` list
 *   with the first old item that has the same map-key values (all keys present and scalar).
 *   Items of every other list (atomic, the default, and sets) are never correlated, and nothing
 *   under `allOf`/`anyOf`/`oneOf`/`not` is: those are validated in full.
 * - A correlated node that is unchanged reports none of its errors, its own or its descendants'
 *   (so it is not validated at all here). Unchanged means: both null; equal scalars; objects
 *   with the same keys whose values are each unchanged under their property (or
 *   `additionalProperties`) schema, a key without a schema counting as changed; map-type lists
 *   of the same length whose items each correlate with an unchanged old item (so reordering is
 *   no change); any other list equal to the old one as a whole.
 * - Every other node is validated against all of its keywords, so `required`, `maxProperties`,
 *   junctors and the like are ratcheted only as far as the node that carries them is unchanged.
 *
 * List-type duplicates are not part of this walk: see `ratchetListTypeDuplicates`.
 */

import { isPlainObject, jsonEqual } from "../../../util/index.ts";
import type { FieldError, FieldErrorList } from "../../meta/field-errors.ts";
import type { FieldPath } from "../../meta/field-path.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { ratchetListTypeDuplicates } from "./custom-resource-list-types.ts";
import {
  type SchemaWalk,
  uncorrelatedWalk,
  visitSchemaNode,
} from "./custom-resource-validation.ts";
import { schemaAt } from "./schema-checks.ts";

/** Scratch space of one update's validation; thrown away with it. */
interface Ratchet {
  /** New values (objects and arrays) found unchanged, with the old value they were compared to. */
  readonly unchanged: Map<object, unknown>;
  /** New values found changed, with the old value they were compared to. */
  readonly changed: Map<object, unknown>;
  /** Map-type lists of the old object indexed by their items' map keys (first item wins). */
  readonly lists: Map<readonly unknown[], Map<string, unknown>>;
  /** Whether identity of two values under a schema node implies they are unchanged. */
  readonly closed: Map<JSONSchemaProps, boolean>;
}

/** A node of the new object correlated with its old value: the parent its children see. */
interface Correlated {
  readonly old: unknown;
  readonly schema: JSONSchemaProps;
  readonly ratchet: Ratchet;
}

function newRatchet(): Ratchet {
  return { unchanged: new Map(), changed: new Map(), lists: new Map(), closed: new Map() };
}

/**
 * Validates the update of `value` (the whole object, or a subtree at `path`) from `old` against
 * `schema` with ratcheting, list-type duplicates included. Root-level `apiVersion`, `kind` and
 * `metadata` are left to the caller, as for `validateAgainstSchema`.
 */
export function validateUpdateAgainstSchema(
  value: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  path?: FieldPath,
): FieldErrorList {
  const errs = ratchetedSchemaErrors(value, old, schema, path, path === undefined);
  errs.push(...ratchetListTypeDuplicates({ value, schema, path }, { old, schema }));
  return errs;
}

/**
 * The OpenAPI schema errors of updating `value` from `old`, ratcheted. `isResourceRoot` marks
 * `value` as a whole object, whose `apiVersion`, `kind` and `metadata` are left to the caller.
 */
export function ratchetedSchemaErrors(
  value: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  path: FieldPath | undefined,
  isResourceRoot: boolean,
): FieldErrorList {
  const errs: FieldErrorList = [];
  correlatedNode(value, old, schema, path, errs, isResourceRoot, newRatchet());
  return errs;
}

function correlatedNode(
  value: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  path: FieldPath | undefined,
  errs: FieldError[],
  isRoot: boolean,
  ratchet: Ratchet,
): void {
  // A whole object's metadata is never pruned to its schema: identity proves nothing there.
  if (isUnchanged(value, old, schema, ratchet, !isRoot)) return;
  const node: Correlated = { old, schema, ratchet };
  visitSchemaNode(value, schema, path, errs, isRoot, correlatedWalk, node);
}

/** Correlates each child with the old value it had, validating uncorrelated ones in full. */
const correlatedWalk: SchemaWalk<Correlated> = {
  listTypeDuplicates: false,
  child(value, schema, path, key, parent, errs) {
    const old = typeof key === "string" ? oldProperty(parent.old, key) : oldItem(parent, value);
    if (old === undefined) {
      visitSchemaNode(value, schema, path, errs, false, uncorrelatedWalk, undefined);
    } else {
      correlatedNode(value, old, schema, path, errs, false, parent.ratchet);
    }
  },
};

function oldProperty(old: unknown, key: string): unknown {
  return isPlainObject(old) && Object.hasOwn(old, key) ? old[key] : undefined;
}

/** The old item a new item of a map-type list correlates with; `undefined` for other lists. */
function oldItem(parent: Correlated, item: unknown): unknown {
  const { old, schema, ratchet } = parent;
  if (schema["x-kubernetes-list-type"] !== "map" || !Array.isArray(old)) return undefined;
  const key = mapKeyOf(schema, item);
  return key === undefined ? undefined : mapListIndex(schema, old, ratchet).get(key);
}

/**
 * The old list's items by their map-key values, the first item winning. Empty (nothing
 * correlates) unless the schema is a map-type array with keys, as upstream's `MakeMapList`.
 */
function mapListIndex(
  schema: JSONSchemaProps,
  old: readonly unknown[],
  ratchet: Ratchet,
): Map<string, unknown> {
  let index = ratchet.lists.get(old);
  if (index !== undefined) return index;
  index = new Map();
  if (schema.type === "array" && (schema["x-kubernetes-list-map-keys"] ?? []).length > 0) {
    for (const item of old) {
      const key = mapKeyOf(schema, item);
      if (key !== undefined && !index.has(key)) index.set(key, item);
    }
  }
  ratchet.lists.set(old, index);
  return index;
}

/** An item's map-key values as one string; `undefined` unless every key holds a scalar. */
function mapKeyOf(schema: JSONSchemaProps, item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  const parts: string[] = [];
  for (const key of schema["x-kubernetes-list-map-keys"] ?? []) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    const type = typeof value;
    if (type !== "string" && type !== "number" && type !== "boolean") return undefined;
    parts.push(JSON.stringify(value));
  }
  return parts.join("\u0000");
}

/**
 * Whether the correlated `value` is unchanged from `old` under `schema` (upstream's
 * `CachedDeepEqual`). `identity` allows `value === old` to answer for schema nodes where that
 * is exact (no unknown fields, no map-type lists below), given values pruned to their schema.
 */
function isUnchanged(
  value: unknown,
  old: unknown,
  schema: JSONSchemaProps,
  ratchet: Ratchet,
  identity: boolean,
): boolean {
  if (value === null || value === undefined) return old === null || old === undefined;
  if (typeof value !== "object") return value === old;
  if (old === null || typeof old !== "object") return false;
  if (identity && value === old && isClosed(schema, ratchet)) return true;
  if (ratchet.unchanged.has(value) && ratchet.unchanged.get(value) === old) return true;
  if (ratchet.changed.has(value) && ratchet.changed.get(value) === old) return false;
  let unchanged: boolean;
  if (Array.isArray(value)) {
    unchanged = Array.isArray(old) && isListUnchanged(value, old, schema, ratchet);
  } else {
    unchanged =
      !Array.isArray(old) &&
      isObjectUnchanged(
        value as Record<string, unknown>,
        old as Record<string, unknown>,
        schema,
        ratchet,
      );
  }
  (unchanged ? ratchet.unchanged : ratchet.changed).set(value, old);
  return unchanged;
}

function isListUnchanged(
  value: readonly unknown[],
  old: readonly unknown[],
  schema: JSONSchemaProps,
  ratchet: Ratchet,
): boolean {
  if (value.length !== old.length) return false;
  // Items of lists other than map-type ones do not correlate: the list compares as a unit.
  if (schema["x-kubernetes-list-type"] !== "map") return jsonEqual(value, old);
  const items = schemaAt(schema.items);
  const index = mapListIndex(schema, old, ratchet);
  for (const item of value) {
    const key = mapKeyOf(schema, item);
    const match = key === undefined ? undefined : index.get(key);
    if (match === undefined || items === undefined) return false;
    if (!isUnchanged(item, match, items, ratchet, true)) return false;
  }
  return true;
}

function isObjectUnchanged(
  value: Readonly<Record<string, unknown>>,
  old: Readonly<Record<string, unknown>>,
  schema: JSONSchemaProps,
  ratchet: Ratchet,
): boolean {
  const properties = schema.properties;
  const additional = schemaAt(schema.additionalProperties);
  let count = 0;
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field === undefined) continue;
    count++;
    const before = Object.hasOwn(old, key) ? old[key] : undefined;
    if (before === undefined) return false;
    const sub =
      (properties !== undefined && Object.hasOwn(properties, key)
        ? schemaAt(properties[key])
        : undefined) ?? additional;
    // A field no schema describes cannot be correlated, so counts as changed (as upstream).
    if (sub === undefined || !isUnchanged(field, before, sub, ratchet, true)) return false;
  }
  for (const key of Object.keys(old)) if (old[key] !== undefined) count--;
  return count === 0;
}

/**
 * Whether, under `schema`, two identical values are always unchanged: no subtree may hold fields
 * without a schema (`x-kubernetes-preserve-unknown-fields`, embedded resources) or be a map-type
 * list (whose items may lack keys or repeat them).
 */
function isClosed(schema: JSONSchemaProps, ratchet: Ratchet): boolean {
  const known = ratchet.closed.get(schema);
  if (known !== undefined) return known;
  let closed =
    schema["x-kubernetes-preserve-unknown-fields"] !== true &&
    schema["x-kubernetes-embedded-resource"] !== true &&
    schema["x-kubernetes-list-type"] !== "map";
  // Other lists compare as a unit, whatever their items hold.
  for (const sub of Object.values(schema.properties ?? {})) {
    if (!closed) break;
    const s = schemaAt(sub);
    closed = s === undefined || isClosed(s, ratchet);
  }
  const additional = schemaAt(schema.additionalProperties);
  if (closed && additional !== undefined) closed = isClosed(additional, ratchet);
  ratchet.closed.set(schema, closed);
  return closed;
}
