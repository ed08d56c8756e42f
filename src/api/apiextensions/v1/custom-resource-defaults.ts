/**
 * Structural defaulting of custom resources from the CRD schema's `default`s, as apiextensions
 * does on decode: a missing field with a default gets a copy of it, then defaulting descends into
 * every present value (including just-defaulted ones), through properties, items and
 * additionalProperties. A `null` in a field that is not nullable is dropped first, so its default
 * (if any) applies.
 */
import { isPlainObject } from "../../../util/index.ts";
import type { JSONSchemaProps } from "./crd.ts";
import { schemaAt } from "./schema-checks.ts";

/** Applies schema defaults in place. Root `apiVersion`, `kind` and `metadata` are left alone. */
export function applySchemaDefaults(value: unknown, schema: JSONSchemaProps): void {
  visit(value, schema, true);
}

function visit(value: unknown, s: JSONSchemaProps, isRoot: boolean): void {
  if (Array.isArray(value)) {
    const items = schemaAt(s.items);
    if (items === undefined) return;
    for (const item of value) visit(item, items, false);
    return;
  }
  if (!isPlainObject(value)) return;
  const properties = s.properties ?? {};
  for (const [key, raw] of Object.entries(properties)) {
    if (isRoot && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    const sub = schemaAt(raw);
    if (sub === undefined) continue;
    if (value[key] === null && sub.nullable !== true) delete value[key];
    if (!(key in value) && sub.default !== undefined) value[key] = structuredClone(sub.default);
    if (key in value) visit(value[key], sub, false);
  }
  const additional = schemaAt(s.additionalProperties);
  if (additional !== undefined) {
    for (const key of Object.keys(value)) {
      if (key in properties) continue;
      visit(value[key], additional, false);
    }
  }
}
