import type { Schema, SchemaRoot } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { malformedPatch, patchFailed } from "./internal/errors.ts";
import { goKind, goString, goTypeName, goValue, jsonKindName } from "./internal/go-format.ts";
import {
  cloneObject,
  getKey,
  hasKey,
  isJsonObject,
  setKey,
  withoutNulls,
} from "./internal/json-values.ts";
import { type FieldPatchMeta, fieldPatchMeta, propertySchema } from "./internal/patch-meta.ts";
import {
  type MergeContext,
  mergeList,
  newList,
  orderBySetElementOrder,
  validateSetElementOrder,
} from "./strategic-list.ts";

/**
 * Kubernetes strategic merge patch, as the API server applies it
 * (apimachinery `strategicpatch.StrategicMergeMapPatch`), driven by the schema's
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` instead of Go struct tags.
 *
 * - Like a JSON merge patch: `null` deletes a key, objects merge recursively, scalars replace.
 * - Lists whose strategy is `merge` merge by merge key (containers by `name`) or, for lists of
 *   scalars, as a set (finalizers); all other lists are replaced. Order: `$setElementOrder`
 *   first, then the patch's order, then the live order (new items come before live-only ones
 *   when the live order cannot place them, as upstream).
 * - Objects whose strategy is `replace` are replaced.
 * - Directives: `$patch: replace | delete` in an object, `$patch: replace | delete` in a merge
 *   list item (by merge key), `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`,
 *   `$retainKeys` (keys not listed are cleared).
 * - Fields the schema does not declare (and whole subtrees under
 *   `x-kubernetes-preserve-unknown-fields`) merge like a JSON merge patch.
 *
 * Errors follow upstream's codes: a patch that is not an object, or a malformed
 * `$retainKeys` / `$setElementOrder` / `$deleteFromPrimitiveList` directive, is 400; a list
 * of lists is 422; everything else upstream reports as a plain error (an unknown `$patch`
 * value, `$patch: merge`, an item without its merge key, a `$setElementOrder` list that
 * contradicts the patch list) is 500 with upstream's message, e.g.
 * `unknown patch type: foo in map: map[$patch:foo name:nginx]`.
 *
 * A `null` patch changes nothing (as upstream's decoder). Pure: `doc` and `patch` are not
 * mutated; the result shares no structure with either.
 */
export function applyStrategicMergePatch(
  doc: JsonObject,
  patch: unknown,
  schema: SchemaRoot,
): JsonObject {
  if (patch === null || patch === undefined) return cloneObject(doc);
  if (!isJsonObject(patch)) {
    throw malformedPatch(
      `json: cannot unmarshal ${jsonKindName(patch as Json)} into Go value of type map[string]interface {}`,
    );
  }
  const context: MergeContext = {
    definitions: schema.definitions,
    mergeMap: (original, mapPatch, mapSchema) => mergeMap(context, original, mapPatch, mapSchema),
  };
  return mergeMap(context, cloneObject(doc), patch, schema.schema);
}

const deleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";
const setElementOrderPrefix = "$setElementOrder";

/** Merges `patch` into the owned object `original` (which it may modify) and returns it. */
function mergeMap(
  context: MergeContext,
  original: JsonObject,
  patch: JsonObject,
  schema: Schema | undefined,
): JsonObject {
  if (hasKey(patch, "$patch")) return mapDirective(patch);
  const rest: JsonObject = { ...patch };
  applyRetainKeys(original, rest);
  mergeOrderedLists(context, original, rest, schema);

  for (const key of Object.keys(rest)) {
    const value = rest[key] ?? null;
    let field = key;
    let isDeleteList = false;
    if (key.startsWith(deleteFromPrimitiveListPrefix)) {
      field = directiveTarget(key, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }
    if (value === null) {
      delete original[field];
      continue;
    }
    const current = getKey(original, field);
    if (current === undefined) {
      if (!isDeleteList)
        setKey(original, field, newValue(context, value, metaOf(context, schema, field)));
      continue;
    }
    if (goKind(current) !== goKind(value)) {
      setKey(original, field, withoutNulls(value));
      continue;
    }
    if (isJsonObject(current) && isJsonObject(value)) {
      const meta = metaOf(context, schema, field);
      setKey(
        original,
        field,
        meta.strategy === "replace"
          ? withoutNulls(value)
          : mergeMap(context, current, value, meta.schema),
      );
    } else if (Array.isArray(current) && Array.isArray(value)) {
      setKey(
        original,
        field,
        mergeList(context, current, value, metaOf(context, schema, field), isDeleteList),
      );
    } else {
      setKey(original, field, value);
    }
  }
  return original;
}

/** `$patch` in an object: `replace` keeps only the patch, `delete` empties the object. */
function mapDirective(patch: JsonObject): JsonObject {
  const directive = patch["$patch"];
  if (directive === "replace") {
    const { $patch: _, ...replacement } = patch;
    return withoutNulls(replacement) as JsonObject;
  }
  if (directive === "delete") return {};
  throw patchFailed(`unknown patch type: ${goString(directive)} in map: ${goValue(patch)}`);
}

/**
 * `$retainKeys`: every key the patch sets must be listed, and live keys not listed are
 * cleared (used for union types such as a Deployment's `strategy`).
 */
function applyRetainKeys(original: JsonObject, rest: JsonObject): void {
  if (!hasKey(rest, "$retainKeys")) return;
  const retained = rest["$retainKeys"];
  delete rest["$retainKeys"];
  if (!Array.isArray(retained)) throw malformedPatch("invalid patch format of retainKeys");
  const isRetained = (key: string): boolean => retained.some((item) => item === key);
  for (const key of Object.keys(rest)) {
    if (
      rest[key] === null ||
      key.startsWith(deleteFromPrimitiveListPrefix) ||
      key.startsWith(setElementOrderPrefix)
    ) {
      continue;
    }
    if (!isRetained(key)) throw malformedPatch("invalid patch format of retainKeys");
  }
  for (const key of Object.keys(original)) {
    if (!isRetained(key)) delete original[key];
  }
}

/**
 * Handles every `$setElementOrder/<list>` directive: merges the list it names (if the patch
 * has one), orders the result, and removes both from `rest` so they are not merged again.
 */
function mergeOrderedLists(
  context: MergeContext,
  original: JsonObject,
  rest: JsonObject,
  schema: Schema | undefined,
): void {
  for (const key of Object.keys(rest)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const order = rest[key] ?? null;
    delete rest[key];
    if (!Array.isArray(order)) throw expectedList(order);
    const field = directiveTarget(key, setElementOrderPrefix);
    const live = getKey(original, field);
    const patchList = getKey(rest, field);
    if (live !== undefined && !Array.isArray(live)) throw expectedList(live);
    if (patchList !== undefined && !Array.isArray(patchList)) throw expectedList(patchList);
    const meta = metaOf(context, schema, field);
    validateSetElementOrder(patchList ?? [], order, meta.mergeKey);

    let merged: Json[];
    if (live !== undefined && patchList !== undefined) {
      merged = mergeList(context, live, patchList, meta, false);
    } else if (live !== undefined) {
      merged = live;
    } else if (patchList !== undefined) {
      merged = newList(context, patchList, meta);
    } else {
      continue;
    }
    setKey(
      original,
      field,
      orderBySetElementOrder(merged, order, live ?? [], patchList ?? [], meta.mergeKey),
    );
    delete rest[field];
  }
}

/** The value stored for a field the live object lacks. */
function newValue(context: MergeContext, value: Json, meta: FieldPatchMeta): Json {
  if (isJsonObject(value)) {
    return meta.strategy === "replace"
      ? withoutNulls(value)
      : mergeMap(context, {}, value, meta.schema);
  }
  if (Array.isArray(value)) return newList(context, value, meta);
  return value;
}

function metaOf(context: MergeContext, schema: Schema | undefined, field: string): FieldPatchMeta {
  return fieldPatchMeta(propertySchema(schema, field, context.definitions));
}

/** `$setElementOrder/containers` → `containers`; a malformed directive key is 400. */
function directiveTarget(key: string, prefix: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw malformedPatch(
      prefix === setElementOrderPrefix
        ? "invalid patch format of setElementOrder list"
        : "invalid patch format of primitive list",
    );
  }
  return key.slice(slash + 1);
}

function expectedList(actual: Json) {
  return patchFailed(`expected a []interface {}, but received a ${goTypeName(actual)}`);
}
