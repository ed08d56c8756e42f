/**
 * Freezes a decoded JSON value and everything inside it, so cached objects cannot be changed by
 * accident (the deep-copy-on-read rule, enforced at run time). Returns the same value.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
