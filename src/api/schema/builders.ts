import type { Schema } from "./schema.ts";

/** Terse constructors for hand-written built-in schemas. Each takes an optional description. */

export function str(description?: string, extra: Schema = {}): Schema {
  return withDescription({ type: "string", ...extra }, description);
}

export function int32(description?: string): Schema {
  return withDescription({ type: "integer", format: "int32" }, description);
}

export function int64(description?: string): Schema {
  return withDescription({ type: "integer", format: "int64" }, description);
}

export function num(description?: string): Schema {
  return withDescription({ type: "number", format: "double" }, description);
}

export function bool(description?: string): Schema {
  return withDescription({ type: "boolean" }, description);
}

/** An RFC 3339 timestamp (`metav1.Time`). */
export function time(description?: string): Schema {
  return withDescription({ type: "string", format: "date-time" }, description);
}

/** A resource quantity such as `500m` or `1Gi`: string or number on the wire. */
export function quantity(description?: string): Schema {
  return withDescription({ "x-kubernetes-int-or-string": true }, description);
}

/** An IntOrString such as `25%` or `1`. */
export function intOrString(description?: string): Schema {
  return withDescription(
    { "x-kubernetes-int-or-string": true, format: "int-or-string" },
    description,
  );
}

/** An object with known properties. */
export function obj(
  properties: Record<string, Schema>,
  options: { description?: string; required?: string[] } = {},
): Schema {
  const schema: Schema = { type: "object", properties };
  if (options.required !== undefined) schema.required = options.required;
  return withDescription(schema, options.description);
}

/** A `map[string]T`. */
export function mapOf(values: Schema, description?: string): Schema {
  return withDescription({ type: "object", additionalProperties: values }, description);
}

/** A `map[string]string` such as labels. */
export function stringMap(description?: string): Schema {
  return mapOf({ type: "string" }, description);
}

/** An atomic list: replaced whole by patches and owned whole by one apply manager. */
export function atomicList(items: Schema, description?: string): Schema {
  return withDescription({ type: "array", items, "x-kubernetes-list-type": "atomic" }, description);
}

/** A list of scalars merged as a set (finalizers): strategic patch `merge`, SSA `set`. */
export function setList(items: Schema, description?: string): Schema {
  return withDescription(
    {
      type: "array",
      items,
      "x-kubernetes-list-type": "set",
      "x-kubernetes-patch-strategy": "merge",
    },
    description,
  );
}

/**
 * A list of objects merged by key (containers by `name`): strategic patch `merge` on
 * `mergeKey`, and an SSA list-map on `mapKeys` (which defaults to the merge key).
 */
export function mapList(
  items: Schema,
  mergeKey: string,
  options: { description?: string; mapKeys?: string[]; patchStrategy?: string } = {},
): Schema {
  return withDescription(
    {
      type: "array",
      items,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": options.mapKeys ?? [mergeKey],
      "x-kubernetes-patch-strategy": options.patchStrategy ?? "merge",
      "x-kubernetes-patch-merge-key": mergeKey,
    },
    options.description,
  );
}

/** Any JSON, kept as sent (RawExtension, free-form fields). */
export function anyValue(description?: string): Schema {
  return withDescription({ "x-kubernetes-preserve-unknown-fields": true }, description);
}

function withDescription(schema: Schema, description: string | undefined): Schema {
  if (description !== undefined) schema.description = description;
  return schema;
}
