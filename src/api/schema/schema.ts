/**
 * The structural OpenAPI v3 schema (the `JSONSchemaProps` of a CRD's `openAPIV3Schema`), used for
 * built-in kinds and custom resources alike. One schema drives strict decoding (unknown fields),
 * pruning, strategic-merge and server-side-apply list semantics, OpenAPI publishing and
 * `kubectl explain`.
 */
export interface Schema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  description?: string;
  /** A reference into the definitions table: `#/components/schemas/<name>`. */
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  multipleOf?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  /** Strategic merge patch: `merge`, `retainKeys`, or `merge,retainKeys`. */
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-patch-merge-key"?: string;
  /** Only on top-level kind schemas: which group/version/kinds this schema describes. */
  "x-kubernetes-group-version-kind"?: { group: string; version: string; kind: string }[];
}

/** Named schemas, as published under `components.schemas`. */
export type Definitions = Readonly<Record<string, Schema>>;

const refPrefix = "#/components/schemas/";

/** A `$ref` to a named definition. */
export function ref(name: string, description?: string): Schema {
  const schema: Schema = { $ref: `${refPrefix}${name}` };
  if (description !== undefined) schema.description = description;
  return schema;
}

/** The definition name a `$ref` points at, or `undefined` for an inline schema. */
export function refName(schema: Schema): string | undefined {
  return schema.$ref?.startsWith(refPrefix) === true
    ? schema.$ref.slice(refPrefix.length)
    : undefined;
}

/**
 * Follows `$ref`s to the schema they name, keeping a description set at the reference. Throws
 * `RangeError` for a dangling reference: that is a bug in a built-in schema table, never user
 * input. The answer is remembered per reference and definitions table (decoding walks the same
 * references for every object), so a schema must not be changed in place once it is in use: a
 * changed kind (a CRD update) brings new schema objects.
 */
export function resolve(schema: Schema, definitions: Definitions): Schema {
  if (schema.$ref === undefined) return schema;
  const known = resolvedRefs.get(schema);
  if (known !== undefined && known.definitions === definitions) return known.resolved;
  const resolved = follow(schema, definitions);
  resolvedRefs.set(schema, { definitions, resolved });
  return resolved;
}

const resolvedRefs = new WeakMap<
  Schema,
  { readonly definitions: Definitions; readonly resolved: Schema }
>();

function follow(schema: Schema, definitions: Definitions): Schema {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const name = refName(current);
    if (name === undefined) return current;
    const target = definitions[name];
    if (target === undefined) throw new RangeError(`Cannot resolve schema reference "${name}"`);
    current =
      current.description !== undefined && target.description === undefined
        ? { ...target, description: current.description }
        : target;
  }
  throw new RangeError("Cannot resolve schema reference: too deeply nested");
}

/** A schema together with the definitions its `$ref`s resolve against. */
export interface SchemaRoot {
  readonly schema: Schema;
  readonly definitions: Definitions;
}
