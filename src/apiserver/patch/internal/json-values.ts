import { isPlainObject, type Json, type JsonObject } from "../../../util/index.ts";

/** Narrows a JSON value to an object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return isPlainObject(value);
}

/** Whether `object` has `key` as its own property (never a prototype one). */
export function hasKey(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** The own property `key`, or `undefined` when absent. */
export function getKey(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * Sets an own property. `__proto__` arrives as an ordinary key from `JSON.parse`; plain
 * assignment would change the prototype instead of storing the value.
 */
export function setKey(object: JsonObject, key: string, value: Json): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    return;
  }
  object[key] = value;
}

/** A deep copy of a JSON value. */
export function cloneJson(value: Json): Json {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setKey(out, key, cloneJson(value[key] ?? null));
    return out;
  }
  return value;
}

/** A deep copy of a JSON object. */
export function cloneObject(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setKey(out, key, cloneJson(value[key] ?? null));
  return out;
}

/**
 * A deep copy without the keys whose value is `null`, at every object level (also inside
 * arrays; `null` array elements stay). This is what a merge patch does with a value that
 * lands where nothing was, and what decoding into a typed object does with explicit nulls.
 */
export function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      const child = value[key];
      if (child === null || child === undefined) continue;
      setKey(out, key, withoutNulls(child));
    }
    return out;
  }
  return value;
}

/** Structural equality of two JSON values (object key order is irrelevant). */
export function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i] ?? null));
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => hasKey(b, key) && jsonEqual(a[key] ?? null, b[key] ?? null));
  }
  return false;
}
