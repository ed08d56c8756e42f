import type { Json, JsonObject } from "../../util/index.ts";
import { malformedPatch } from "./internal/errors.ts";
import {
  cloneJson,
  cloneObject,
  getKey,
  isJsonObject,
  setKey,
  withoutNulls,
} from "./internal/json-values.ts";

/**
 * RFC 7386 JSON merge patch, as the API server applies it (`evanphx/json-patch` `MergePatch`):
 * `null` deletes a key, objects merge recursively, everything else (arrays included)
 * replaces the target.
 *
 * A value that lands where there was nothing (or where the target is not an object) loses its
 * `null` members, at every depth; an array that replaces an object keeps them (library quirk).
 *
 * A patch that is not a JSON object (`null`, a scalar, an array) is 400 BadRequest
 * `Invalid JSON Patch`.
 *
 * Pure: `doc` and `patch` are not mutated; the result shares no structure with either.
 */
export function applyMergePatch(doc: JsonObject, patch: unknown): JsonObject {
  if (!isJsonObject(patch)) throw malformedPatch("Invalid JSON Patch");
  const result = cloneObject(doc);
  mergeInto(result, patch);
  return result;
}

/** Merges `patch` into the owned object `target`. */
function mergeInto(target: JsonObject, patch: JsonObject): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key] ?? null;
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = getKey(target, key);
    if (current === undefined || current === null) {
      setKey(target, key, withoutNulls(value));
      continue;
    }
    setKey(target, key, merged(current, value));
  }
}

function merged(current: Json, patch: Json): Json {
  if (!isJsonObject(current)) return withoutNulls(patch);
  if (!isJsonObject(patch)) return cloneJson(patch);
  mergeInto(current, patch);
  return current;
}
