import { isPlainObject } from "../../util/index.ts";

/**
 * apimachinery's `Semantic.DeepEqual` over decoded JSON: like a structural comparison, except
 * that a missing value equals an empty list, an empty map or an empty string (Go decodes all of
 * them to the same zero value). Numbers and booleans are compared exactly, since optional ones
 * are pointers upstream.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      if (!semanticEqual(a[k], b[k])) return false;
    }
    return true;
  }
  return false;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}
