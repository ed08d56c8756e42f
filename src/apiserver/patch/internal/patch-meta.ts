import { type Definitions, resolve, type Schema } from "../../../api/index.ts";
import { patchFailed } from "./errors.ts";

/**
 * What a strategic merge patch needs to know about one field, read from the schema's
 * `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key` (upstream reads the same
 * from Go struct tags). `schema` is `undefined` for fields the schema does not describe
 * (free-form or unknown): they merge like a JSON merge patch.
 */
export interface FieldPatchMeta {
  readonly schema: Schema | undefined;
  /** `merge`, `replace` or `""` (none). `retainKeys` is split off into `retainKeys`. */
  readonly strategy: string;
  readonly retainKeys: boolean;
  readonly mergeKey: string;
}

/** The resolved schema of property `key` of an object schema, if the schema declares it. */
export function propertySchema(
  parent: Schema | undefined,
  key: string,
  definitions: Definitions,
): Schema | undefined {
  if (parent === undefined) return undefined;
  const resolved = resolve(parent, definitions);
  const declared = resolved.properties?.[key];
  if (declared !== undefined) return resolve(declared, definitions);
  const additional = resolved.additionalProperties;
  if (additional !== undefined && typeof additional !== "boolean") {
    return resolve(additional, definitions);
  }
  return undefined;
}

/** The resolved item schema of a list schema. */
export function itemSchema(list: Schema | undefined, definitions: Definitions): Schema | undefined {
  if (list?.items === undefined) return undefined;
  return resolve(list.items, definitions);
}

/**
 * The patch metadata of a (resolved) field schema. A combination upstream rejects
 * (`merge,replace`, three strategies) fails as upstream does: `unexpected patch strategy: [...]`.
 */
export function fieldPatchMeta(schema: Schema | undefined): FieldPatchMeta {
  const raw = schema?.["x-kubernetes-patch-strategy"] ?? "";
  const strategies = raw === "" ? [] : raw.split(",");
  const mergeKey = schema?.["x-kubernetes-patch-merge-key"] ?? "";
  const [first = "", second = ""] = strategies;
  switch (strategies.length) {
    case 0:
      return { schema, strategy: "", retainKeys: false, mergeKey };
    case 1:
      return first === "retainKeys"
        ? { schema, strategy: "", retainKeys: true, mergeKey }
        : { schema, strategy: first, retainKeys: false, mergeKey };
    case 2:
      if (first === "retainKeys") return { schema, strategy: second, retainKeys: true, mergeKey };
      if (second === "retainKeys") return { schema, strategy: first, retainKeys: true, mergeKey };
      break;
    default:
      break;
  }
  throw patchFailed(`unexpected patch strategy: [${strategies.join(" ")}]`);
}

/**
 * How upstream names the Go kind of a list's elements in
 * `cannot merge lists without merge key for type <kind>`.
 */
export function elementKindName(items: Schema | undefined): string {
  if (items === undefined) return "interface";
  if (items.properties !== undefined) return "struct";
  if (items.additionalProperties !== undefined) return "map";
  return items.type === "object" ? "struct" : "interface";
}
