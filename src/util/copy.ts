/**
 * A deep copy of a JSON-shaped value (what API objects are): plain objects, arrays and
 * primitives, copied by walking them. Several times faster than `structuredClone`, which
 * serialises to a buffer and back; anything that is not a plain object or an array (a typed
 * array, a Date, a Map) is handed to `structuredClone`, so the copy is always deep.
 */
export function deepCopy<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i]);
    return out;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    out[key] = copyValue((value as Record<string, unknown>)[key]);
  }
  return out;
}
