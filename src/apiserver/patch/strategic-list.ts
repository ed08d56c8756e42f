import type { Definitions, Schema } from "../../api/index.ts";
import type { Json, JsonObject } from "../../util/index.ts";
import { patchDoesNotApply, patchFailed } from "./internal/errors.ts";
import { goEqual, goKind, goString, goTypeName, goValue } from "./internal/go-format.ts";
import { cloneJson, getKey, hasKey, isJsonObject, withoutNulls } from "./internal/json-values.ts";
import { elementKindName, type FieldPatchMeta, itemSchema } from "./internal/patch-meta.ts";

/**
 * List handling of strategic merge patch (apimachinery `strategicpatch`): merging lists by
 * merge key or as sets, the `$patch` directives inside lists, `$deleteFromPrimitiveList`, and
 * the element-order rules (`$setElementOrder`, then patch order, then live order).
 *
 * Lists passed as `original` are owned by the caller (already copied) and may be reused in
 * the result; `patch` lists are never mutated.
 */

/** What list merging needs from the map merger (passed in to avoid an import cycle). */
export interface MergeContext {
  readonly definitions: Definitions;
  /** Merges `patch` into the owned object `original` and returns the result. */
  mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject;
}

type ElementKind = "map" | "string" | "number" | "bool" | "nil";

/**
 * Merges a patch list into a live list of the same field: by merge key or as a set when the
 * field's strategy is `merge`, otherwise the patch list replaces the live one.
 */
export function mergeList(
  context: MergeContext,
  original: Json[],
  patch: readonly Json[],
  meta: FieldPatchMeta,
  isDeleteList: boolean,
): Json[] {
  if (meta.strategy !== "merge") return withoutNulls(patch as Json[]) as Json[];
  return mergeSlice(
    context,
    original,
    patch,
    itemSchema(meta.schema, context.definitions),
    meta.mergeKey,
    isDeleteList,
  );
}

/**
 * The value of a list field the live object does not have. Upstream stores the patch list as
 * sent; gantry also drops `$patch` marker items and applies nested directives in items of
 * merge lists, so no directive leaks into the stored object.
 */
export function newList(
  context: MergeContext,
  patch: readonly Json[],
  meta: FieldPatchMeta,
): Json[] {
  if (meta.strategy !== "merge") return withoutNulls(patch as Json[]) as Json[];
  const items = itemSchema(meta.schema, context.definitions);
  const result: Json[] = [];
  for (const item of patch) {
    if (!isJsonObject(item)) {
      result.push(cloneJson(item));
    } else if (!hasKey(item, "$patch")) {
      result.push(context.mergeMap({}, item, items));
    }
  }
  return result;
}

/**
 * Checks a `$setElementOrder` list against its patch list: the patch items (other than
 * `$patch: delete` ones) must appear in it, in the same relative order.
 */
export function validateSetElementOrder(
  patch: readonly Json[],
  order: readonly Json[],
  mergeKey: string,
): void {
  if (order.length === 0 || patch.length === 0) return;
  const [kept] = mergeKey === "" ? [patch] : splitDeletions(patch);
  let patchIndex = 0;
  let orderIndex = 0;
  while (patchIndex < kept.length && orderIndex < order.length) {
    const item = kept[patchIndex] ?? null;
    if (isJsonObject(item) && hasKey(item, "$patch")) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[orderIndex] ?? null, mergeKey)) patchIndex++;
    orderIndex++;
  }
  if (patchIndex < kept.length && orderIndex >= order.length) {
    throw patchFailed(
      `The order in patch list:\n${goValue(patch as Json[])}\n doesn't match $setElementOrder list:\n${goValue(order as Json[])}\n`,
    );
  }
}

/**
 * Orders a merged list by a `$setElementOrder` list: items it names come in its order, other
 * (live-only) items keep their live order and are interleaved where the live order puts them.
 */
export function orderBySetElementOrder(
  merged: readonly Json[],
  order: readonly Json[],
  original: readonly Json[],
  patch: readonly Json[],
  mergeKey: string,
): Json[] {
  const [patchItems, serverOnly] =
    mergeKey === "" ? partitionScalars(merged, order) : partitionMaps(merged, order, mergeKey);
  const kind = sliceElementKind(original, patch);
  return normalizeElementOrder(patchItems, serverOnly, order, original, mergeKey, kind);
}

function mergeSlice(
  context: MergeContext,
  original: Json[],
  patch: readonly Json[],
  items: Schema | undefined,
  mergeKey: string,
  isDeleteList: boolean,
): Json[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  if (kind !== "map") {
    if (isDeleteList) return original.filter((item) => !patch.some((gone) => goEqual(item, gone)));
    const merged = deduplicateScalars([...original, ...patch.map(cloneJson)]);
    const [patchItems, serverOnly] = partitionScalars(merged, patch);
    return normalizeElementOrder(patchItems, serverOnly, patch, original, "", kind);
  }
  if (mergeKey === "") {
    throw patchFailed(`cannot merge lists without merge key for type ${elementKindName(items)}`);
  }
  const special = applySpecialElements(original, patch as JsonObject[], mergeKey);
  const merged = mergeByKey(context, special.original, special.patch, mergeKey, items);
  const [patchItems, serverOnly] = partitionMaps(merged, special.patch, mergeKey);
  return normalizeElementOrder(
    patchItems,
    serverOnly,
    special.patch,
    special.original,
    mergeKey,
    kind,
  );
}

/** Handles `$patch: delete | replace` items; `merge` and unknown values fail as upstream. */
function applySpecialElements(
  original: Json[],
  patch: readonly JsonObject[],
  mergeKey: string,
): { original: Json[]; patch: JsonObject[] } {
  let remaining = original;
  const plain: JsonObject[] = [];
  let replace = false;
  for (const item of patch) {
    if (!hasKey(item, "$patch")) {
      plain.push(item);
      continue;
    }
    const directive = item["$patch"];
    if (directive === "delete") {
      if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
      const key = item[mergeKey];
      remaining = remaining.filter(
        (live) => !(isJsonObject(live) && hasKey(live, mergeKey) && goEqual(live[mergeKey], key)),
      );
    } else if (directive === "replace") {
      replace = true;
    } else if (directive === "merge") {
      throw patchFailed("merging lists cannot yet be specified in the patch");
    } else {
      throw patchFailed(`unknown patch type: ${goString(directive)} in map: ${goValue(item)}`);
    }
  }
  if (replace) return { original: plain.map((item) => withoutNulls(item)), patch: [] };
  return { original: remaining, patch: plain };
}

/** Merges each patch item into the live item with the same merge key, or appends it. */
function mergeByKey(
  context: MergeContext,
  original: readonly Json[],
  patch: readonly JsonObject[],
  mergeKey: string,
  items: Schema | undefined,
): Json[] {
  const result = [...original];
  for (const item of patch) {
    if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
    const index = indexByKey(result, mergeKey, item[mergeKey] ?? null);
    const live = index < 0 ? undefined : result[index];
    if (index >= 0 && isJsonObject(live)) {
      result[index] = context.mergeMap(live, item, items);
    } else {
      result.push(context.mergeMap({}, item, items));
    }
  }
  return result;
}

/** The type all elements share; lists of lists are 422, mixed types 500, as upstream. */
function sliceElementKind(...lists: readonly (readonly Json[])[]): ElementKind {
  let previous: ElementKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const kind = goKind(item);
      if (previous === undefined) {
        if (kind === "slice") throw patchDoesNotApply("lists of lists are not supported");
        previous = kind;
      } else if (previous !== kind) {
        throw patchFailed(`list element types are not identical: ${goValue(lists as Json[][])}`);
      }
    }
  }
  if (previous === undefined) throw patchFailed("no elements in any of the given slices");
  return previous;
}

/** Upstream's in-place de-duplication; it moves the last element into each hole. */
function deduplicateScalars(list: Json[]): Json[] {
  let last = list.length - 1;
  for (let i = 0; i < last; i++) {
    for (let j = i + 1; j <= last; j++) {
      if (goEqual(list[i], list[j])) {
        list[j] = list[last] ?? null;
        list.length = last;
        last--;
        j--;
      }
    }
  }
  return list;
}

function partitionScalars(list: readonly Json[], by: readonly Json[]): [Json[], Json[]] {
  const inPatch: Json[] = [];
  const serverOnly: Json[] = [];
  for (const item of list) {
    if (by.some((other) => goEqual(item, other))) inPatch.push(item);
    else serverOnly.push(item);
  }
  return [inPatch, serverOnly];
}

function partitionMaps(
  list: readonly Json[],
  by: readonly Json[],
  mergeKey: string,
): [Json[], Json[]] {
  const inPatch: Json[] = [];
  const serverOnly: Json[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw badArgType("map[string]interface {}", item);
    if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
    const key = item[mergeKey] ?? null;
    const found = by.some((other, index) => {
      if (!isJsonObject(other)) throw patchFailed(`value for key ${index} is not a map.`);
      return hasKey(other, mergeKey) && goEqual(other[mergeKey], key);
    });
    if (found) inPatch.push(item);
    else serverOnly.push(item);
  }
  return [inPatch, serverOnly];
}

/**
 * Sorts patch items by the patch order and live-only items by the live order, then merges
 * the two, preferring a patch item whenever the live order cannot tell.
 */
function normalizeElementOrder(
  patchItems: readonly Json[],
  serverOnly: readonly Json[],
  patchOrder: readonly Json[],
  serverOrder: readonly Json[],
  mergeKey: string,
  kind: ElementKind,
): Json[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const result: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) {
      result.push(right[j++] ?? null);
    } else if (j >= right.length) {
      result.push(left[i++] ?? null);
    } else {
      const li = indexIn(serverOrder, left[i] ?? null, mergeKey, kind);
      const ri = indexIn(serverOrder, right[j] ?? null, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) result.push(left[i++] ?? null);
      else result.push(right[j++] ?? null);
    }
  }
  return result;
}

/** Upstream's `normalizeSliceOrder`: `$patch: delete` items go last, the rest by `order`. */
function sortByOrder(
  items: readonly Json[],
  order: readonly Json[],
  mergeKey: string,
  kind: ElementKind,
): Json[] {
  let kept = [...items];
  let deletions: Json[] = [];
  if (kind === "map") {
    for (const item of [...items, ...order]) {
      if (!isJsonObject(item)) throw badArgType("map[string]interface {}", item);
      if (!hasKey(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
    [kept, deletions] = splitDeletions(kept);
  }
  const positions = kept.map((item) => indexIn(order, item, mergeKey, kind));
  const sorted = positions.every((position) => position >= 0)
    ? kept
        .map((item, index) => ({ item, position: positions[index] ?? 0 }))
        .sort((a, b) => a.position - b.position)
        .map(({ item }) => item)
    : insertionSort(kept, order, mergeKey, kind);
  return [...sorted, ...deletions];
}

/**
 * Go's `sort.SliceStable` for small inputs, with upstream's comparison, which treats an item
 * missing from `order` as smaller than anything. Only reached when such an item exists.
 */
function insertionSort(
  items: Json[],
  order: readonly Json[],
  mergeKey: string,
  kind: ElementKind,
): Json[] {
  const less = (a: Json, b: Json): boolean => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia < 0) return true;
    const ib = indexIn(order, b, mergeKey, kind);
    return ib < 0 || ia < ib;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j] ?? null, items[j - 1] ?? null); j--) {
      const swap = items[j] ?? null;
      items[j] = items[j - 1] ?? null;
      items[j - 1] = swap;
    }
  }
  return items;
}

function indexIn(list: readonly Json[], value: Json, mergeKey: string, kind: ElementKind): number {
  const keyOf = (item: Json): Json | undefined =>
    kind === "map" ? (isJsonObject(item) ? getKey(item, mergeKey) : undefined) : item;
  const wanted = keyOf(value);
  return list.findIndex((item) => goEqual(keyOf(item), wanted));
}

function indexByKey(list: readonly Json[], mergeKey: string, key: Json): number {
  return list.findIndex((item, index) => {
    if (!isJsonObject(item)) throw patchFailed(`value for key ${index} is not a map.`);
    return hasKey(item, mergeKey) && goEqual(item[mergeKey], key);
  });
}

function splitDeletions(list: readonly Json[]): [Json[], Json[]] {
  const kept: Json[] = [];
  const deletions: Json[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw badArgType("map[string]interface {}", item);
    if (item["$patch"] === "delete") deletions.push(item);
    else kept.push(item);
  }
  return [kept, deletions];
}

function mergeKeyValueEqual(left: Json, right: Json, mergeKey: string): boolean {
  if (mergeKey === "") return goEqual(left, right);
  if (!isJsonObject(left)) throw badArgType("map[string]interface {}", left);
  if (!isJsonObject(right)) throw badArgType("map[string]interface {}", right);
  if (!hasKey(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!hasKey(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

function noMergeKey(item: JsonObject, mergeKey: string) {
  return patchFailed(`map: ${goValue(item)} does not contain declared merge key: ${mergeKey}`);
}

function badArgType(expected: string, actual: Json) {
  return patchFailed(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}
