/**
 * Whether two JSON-shaped values encode to the same JSON up to the order of object keys: what
 * `JSON.stringify` leaves out (properties holding `undefined`, functions or symbols) counts as
 * absent, and array slots holding them as `null`. Stops at the first difference, so telling two
 * different API objects apart costs far less than serialising both.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const x = asJson(a);
  const y = asJson(b);
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      if (!jsonEqual(x[i] ?? null, y[i] ?? null)) return false;
    }
    return true;
  }
  if (Array.isArray(y)) return false;
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(xo)) {
    const value = asJson(xo[key]);
    if (value === undefined) continue;
    count++;
    if (!Object.hasOwn(yo, key) || !jsonEqual(value, yo[key])) return false;
  }
  for (const key of Object.keys(yo)) {
    if (asJson(yo[key]) !== undefined) count--;
  }
  return count === 0;
}

/** A value as JSON sees it: `undefined` for what it leaves out, `null` for NaN and ±Infinity. */
function asJson(value: unknown): unknown {
  switch (typeof value) {
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "number":
      return Number.isFinite(value) ? value + 0 : null;
    case "object":
      return value !== null &&
        !Array.isArray(value) &&
        typeof (value as { toJSON?: unknown }).toJSON === "function"
        ? (value as { toJSON: () => unknown }).toJSON()
        : value;
    default:
      return value;
  }
}
