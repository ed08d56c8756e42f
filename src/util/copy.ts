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
  // `for…in` over a plain object is its own keys (nothing enumerable is inherited from
  // Object.prototype) and, unlike `Object.keys`, allocates no array: half the cost of a copy.
  const out: Record<string, unknown> = {};
  for (const key in value) {
    setOwn(out, key, copyValue((value as Record<string, unknown>)[key]));
  }
  return out;
}

/**
 * What `JSON.parse(JSON.stringify(value))` gives for a JSON-shaped value, without the text:
 * properties holding `undefined` (or a function) are left out and array slots holding them
 * become `null`; NaN and ±Infinity become `null` and -0 becomes 0; an object with `toJSON` (a
 * Date) is copied as what that returns. Several times faster than the round trip for API
 * objects, so storage hands its watchers their own copy this way.
 */
export function jsonCopy<T>(value: T): T {
  return jsonValue(value) as T;
}

/** The copy of `value`, or `undefined` for what JSON leaves out (undefined, functions, symbols). */
function jsonValue(value: unknown): unknown {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? value + 0 : null;
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "object":
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = jsonValue(value[i]) ?? null;
    return out;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return JSON.parse(JSON.stringify(value)) as unknown;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const child = jsonValue((value as Record<string, unknown>)[key]);
    if (child !== undefined) setOwn(out, key, child);
  }
  return out;
}

/** `out[key] = v` that makes `__proto__` an own property, as `JSON.parse` does. */
function setOwn(out: Record<string, unknown>, key: string, v: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else out[key] = v;
}
