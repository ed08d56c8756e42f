import { isPlainObject } from "../../util/index.ts";
import { type Definitions, resolve, type Schema } from "./schema.ts";

/** What pruning removed: every unknown field's path, as upstream prints it (`spec.x[0].y`). */
export interface PruneResult {
  readonly unknownFields: readonly string[];
}

/**
 * Removes, in place, every field the schema does not declare, as the API server's decoder and
 * CRD pruning do. Subtrees under `x-kubernetes-preserve-unknown-fields`, int-or-string and
 * schema-less values are kept as sent. `apiVersion`, `kind` and `metadata` of the root (and of
 * embedded resources) are always known.
 */
export function pruneUnknownFields(
  value: Record<string, unknown>,
  schema: Schema,
  definitions: Definitions,
): PruneResult {
  const unknownFields: string[] = [];
  pruneObject(value, schema, definitions, "", true, unknownFields);
  return { unknownFields };
}

function pruneValue(
  value: unknown,
  schema: Schema,
  definitions: Definitions,
  path: string,
  unknown: string[],
): void {
  const resolved = resolve(schema, definitions);
  if (resolved["x-kubernetes-int-or-string"] === true) return;
  if (Array.isArray(value)) {
    if (resolved.items !== undefined) {
      for (let i = 0; i < value.length; i++) {
        pruneValue(value[i], resolved.items, definitions, `${path}[${i}]`, unknown);
      }
    }
    return;
  }
  if (isPlainObject(value)) {
    pruneObject(
      value,
      resolved,
      definitions,
      path,
      resolved["x-kubernetes-embedded-resource"] === true,
      unknown,
    );
  }
}

function pruneObject(
  value: Record<string, unknown>,
  schema: Schema,
  definitions: Definitions,
  path: string,
  isResource: boolean,
  unknown: string[],
): void {
  const resolved = resolve(schema, definitions);
  const properties = resolved.properties;
  const additional = resolved.additionalProperties;
  const preserve = resolved["x-kubernetes-preserve-unknown-fields"] === true;
  // No structure declared and not a typed empty object: keep the value as sent.
  if (
    properties === undefined &&
    additional === undefined &&
    (preserve || resolved.type !== "object")
  ) {
    return;
  }
  for (const key of Object.keys(value)) {
    const child = `${path === "" ? "" : `${path}.`}${key}`;
    const declared = properties?.[key];
    if (declared !== undefined) {
      pruneValue(value[key], declared, definitions, child, unknown);
      continue;
    }
    if (isResource && (key === "apiVersion" || key === "kind" || key === "metadata")) continue;
    if (additional !== undefined && additional !== false) {
      if (additional !== true) pruneValue(value[key], additional, definitions, child, unknown);
      continue;
    }
    if (preserve) continue;
    unknown.push(child);
    delete value[key];
  }
}
