import {
  badRequest,
  type Definitions,
  type KindDefinition,
  refName,
  resolve,
  type Schema,
} from "../../api/index.ts";
import { isPlainObject } from "../../util/index.ts";
import { parseGoTime } from "./go-time.ts";

/** Upstream's message when a quantity is neither a string nor a number. */
const quantityFormatMessage =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const timeName = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
const microTimeName = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
const timeNames = new Set([timeName, microTimeName]);
const quantityName = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/**
 * Where the walk is, in the terms of Go's `json.UnmarshalTypeError`: the Go struct holding the
 * current field (`PodSpec`) and the JSON field names from the root, without list indices or map
 * keys (`spec.containers`). The path is kept as a chain and joined only for an error.
 */
interface Context {
  readonly struct: string;
  readonly parent: Context | undefined;
  /** The field name this context adds to its parent's path; empty at the root. */
  readonly field: string;
}

/** `spec.containers`: the joined field path of a context. */
function fieldsOf(at: Context): string {
  const names: string[] = [];
  for (let c: Context | undefined = at; c !== undefined; c = c.parent) {
    if (c.field !== "") names.push(c.field);
  }
  return names.reverse().join(".");
}

/** A value whose JSON type the schema rules out, as Go's decoder words it. */
class TypeMismatch {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/**
 * Decodes a built-in object the way the API server's typed decoder does: a value of the wrong JSON
 * type is a 400 (`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string
 * into Go struct field PodSpec.spec.containers of type []v1.Container`), and `null` becomes what
 * Go leaves behind (absent, or the zero value inside lists and maps). Fields the schema does not
 * declare are left for pruning. Mutates `obj` in place.
 */
export function decodeTyped(
  definition: Pick<KindDefinition, "version" | "kind" | "schema">,
  obj: Record<string, unknown>,
  scope: "object" | "metadata" = "object",
): void {
  const { definitions } = definition.schema;
  const kindSchema = resolve(definition.schema.schema, definitions);
  // A custom resource's body is free-form to the decoder (its schema validation reports type
  // errors as 422), but its metadata is an ObjectMeta like any other.
  const metadata = kindSchema.properties?.["metadata"];
  const schema: Schema =
    scope === "object"
      ? kindSchema
      : { type: "object", properties: metadata === undefined ? {} : { metadata } };
  const root: Context = { struct: definition.kind, parent: undefined, field: "" };
  const mismatch = walkObject(obj, schema, definitions, root);
  if (mismatch !== undefined) {
    throw badRequest(
      `${definition.kind} in version ${JSON.stringify(definition.version)} cannot be handled as a ${definition.kind}: ${mismatch.message}`,
    );
  }
}

/**
 * Checks one value against a schema; for a named schema (such as `DeleteOptions`) whose Go
 * struct is `struct`. Returns upstream's decoder message for the first mismatch, if any.
 */
export function typeMismatchOf(
  value: Record<string, unknown>,
  schema: Schema,
  definitions: Definitions,
  struct: string,
): string | undefined {
  const root: Context = { struct, parent: undefined, field: "" };
  return walkObject(value, resolve(schema, definitions), definitions, root)?.message;
}

/** Go's name for a JSON value's kind in `cannot unmarshal <kind>`. */
function jsonKind(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "array";
  return "object";
}

function unmarshal(kind: string, goType: string, at: Context): TypeMismatch {
  const fields = fieldsOf(at);
  if (fields === "") {
    return new TypeMismatch(`json: cannot unmarshal ${kind} into Go value of type ${goType}`);
  }
  return new TypeMismatch(
    `json: cannot unmarshal ${kind} into Go struct field ${at.struct}.${fields} of type ${goType}`,
  );
}

/** Go's type name for a schema: `string`, `int32`, `[]v1.Container`, `map[string]string`. */
function goTypeOf(schema: Schema, definitions: Definitions, fieldName: string): string {
  const name = refName(schema);
  if (name !== undefined) {
    if (timeNames.has(name)) return "string";
    const parts = name.split(".");
    return parts.slice(-2).join(".");
  }
  const resolved = resolve(schema, definitions);
  if (resolved["x-kubernetes-int-or-string"] === true) return "intstr.IntOrString";
  switch (resolved.type) {
    case "string":
      return resolved.format === "byte" ? "[]uint8" : "string";
    case "integer":
      return resolved.format === "int32" ? "int32" : "int64";
    case "number":
      return "float64";
    case "boolean":
      return "bool";
    case "array":
      return `[]${resolved.items === undefined ? "interface {}" : goTypeOf(resolved.items, definitions, fieldName)}`;
    case "object": {
      const additional = resolved.additionalProperties;
      if (resolved.properties === undefined && typeof additional === "object") {
        return `map[string]${goTypeOf(additional, definitions, fieldName)}`;
      }
      return structNameOf(schema, fieldName);
    }
    default:
      return "interface {}";
  }
}

/** The Go struct a schema decodes into: its definition name, or a name made from the field. */
function structNameOf(schema: Schema, fieldName: string): string {
  const name = refName(schema);
  if (name !== undefined) return name.slice(name.lastIndexOf(".") + 1);
  return fieldName === "" ? "object" : `${fieldName[0]?.toUpperCase() ?? ""}${fieldName.slice(1)}`;
}

/** Go's zero value for a schema, which is what `null` becomes inside a list or a map. */
function zeroOf(schema: Schema, definitions: Definitions): unknown {
  const resolved = resolve(schema, definitions);
  if (resolved["x-kubernetes-int-or-string"] === true) return undefined;
  if (timeNames.has(refName(schema) ?? "")) return null;
  switch (resolved.type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "object":
      return resolved.properties !== undefined ? {} : undefined;
    default:
      return undefined;
  }
}

/** A schema without a type takes any JSON; a typed one that preserves unknown fields still has its type. */
/**
 * A timestamp string as Go decodes and re-encodes it: `metav1.Time` in UTC whole seconds,
 * `metav1.MicroTime` with microseconds (any fraction is accepted, a little more lenient than
 * upstream's fixed six digits). Returns the canonical text, a mismatch, or undefined for a
 * value that is not a timestamp string.
 */
function decodeTime(value: unknown, schema: Schema): string | TypeMismatch | undefined {
  const name = refName(schema);
  if (typeof value !== "string" || (name !== timeName && name !== microTimeName)) return undefined;
  const parsed = parseGoTime(value, name === timeName ? 0 : 6);
  return "error" in parsed ? new TypeMismatch(parsed.error) : parsed.text;
}

/** Decodes `container[key]` against `schema`, rewriting timestamps to their canonical form. */
function walkEntry(
  container: Record<string, unknown> | unknown[],
  key: string | number,
  schema: Schema,
  definitions: Definitions,
  at: Context,
): TypeMismatch | undefined {
  const slots = container as Record<string | number, unknown>;
  const time = decodeTime(slots[key], schema);
  if (time instanceof TypeMismatch) return time;
  if (time !== undefined) {
    slots[key] = time;
    return undefined;
  }
  return walkValue(slots[key], schema, definitions, at);
}

function isFree(schema: Schema): boolean {
  return schema.type === undefined && schema.properties === undefined && schema.items === undefined;
}

function walkObject(
  value: Record<string, unknown>,
  resolved: Schema,
  definitions: Definitions,
  at: Context,
): TypeMismatch | undefined {
  const properties = resolved.properties;
  const additional = resolved.additionalProperties;
  for (const key of Object.keys(value)) {
    const declared = properties?.[key];
    if (declared !== undefined) {
      const field: Context = { struct: at.struct, parent: at, field: key };
      const child = value[key];
      if (child === null) {
        // Go leaves a nil pointer, slice or map, or an untouched zero value: the field is absent.
        // Timestamps keep their null, as metav1.Time marshals its zero value.
        if (!timeNames.has(refName(declared) ?? "")) delete value[key];
        continue;
      }
      const mismatch = walkEntry(value, key, declared, definitions, field);
      if (mismatch !== undefined) return mismatch;
      continue;
    }
    if (properties !== undefined || typeof additional !== "object") continue;
    const child = value[key];
    if (child === null) {
      const zero = zeroOf(additional, definitions);
      if (zero === undefined) delete value[key];
      else value[key] = zero;
      continue;
    }
    const mismatch = walkEntry(value, key, additional, definitions, at);
    if (mismatch !== undefined) return mismatch;
  }
  return undefined;
}

/** The JSON name of the field the walk is at (`containers` in `spec.containers`). */
function lastField(at: Context): string {
  return at.field;
}

/** The mismatch for `value` where `schema` wants another JSON type. */
function mismatchOf(
  value: unknown,
  schema: Schema,
  definitions: Definitions,
  at: Context,
): TypeMismatch {
  return unmarshal(jsonKind(value), goTypeOf(schema, definitions, lastField(at)), at);
}

function walkValue(
  value: unknown,
  schema: Schema,
  definitions: Definitions,
  at: Context,
): TypeMismatch | undefined {
  const name = refName(schema);
  const resolved = resolve(schema, definitions);
  if (name === quantityName) {
    return typeof value === "string" || typeof value === "number"
      ? undefined
      : new TypeMismatch(quantityFormatMessage);
  }
  if (resolved["x-kubernetes-int-or-string"] === true) {
    if (typeof value === "string") return undefined;
    if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= 2 ** 31 - 1) {
      return undefined;
    }
    const kind = typeof value === "number" ? `number ${value}` : jsonKind(value);
    return unmarshal(kind, "int32", at);
  }
  if (isFree(resolved)) return undefined;
  switch (resolved.type) {
    case "string":
      return typeof value === "string" ? undefined : mismatchOf(value, schema, definitions, at);
    case "boolean":
      return typeof value === "boolean" ? undefined : mismatchOf(value, schema, definitions, at);
    case "number":
      return typeof value === "number" ? undefined : mismatchOf(value, schema, definitions, at);
    case "integer": {
      if (typeof value !== "number") return mismatchOf(value, schema, definitions, at);
      const limit = resolved.format === "int32" ? 2 ** 31 : 2 ** 63;
      if (!Number.isInteger(value) || value >= limit || value < -limit) {
        return unmarshal(`number ${value}`, goTypeOf(schema, definitions, lastField(at)), at);
      }
      return undefined;
    }
    case "array": {
      if (!Array.isArray(value)) return mismatchOf(value, schema, definitions, at);
      const items = resolved.items;
      if (items === undefined) return undefined;
      for (let i = 0; i < value.length; i++) {
        if (value[i] === null) {
          value[i] = zeroOf(items, definitions) ?? null;
          continue;
        }
        const mismatch = walkEntry(value as unknown[], i, items, definitions, at);
        if (mismatch !== undefined) return mismatch;
      }
      return undefined;
    }
    case "object": {
      if (!isPlainObject(value)) return mismatchOf(value, schema, definitions, at);
      const struct =
        resolved.properties === undefined ? at.struct : structNameOf(schema, lastField(at));
      return walkObject(value, resolved, definitions, {
        struct,
        parent: at.parent,
        field: at.field,
      });
    }
    default:
      return undefined;
  }
}
