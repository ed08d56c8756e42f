/**
 * Freezes a JSON value and everything inside it, so that a value shared by many readers (an
 * informer's cached object, a remembered FieldsV1) cannot be changed by accident. Returns the same
 * value. A frozen object is taken as frozen all the way down and not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) freezeTree(value);
  return value;
}

function freezeTree(value: object): void {
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === "object" && item !== null && !Object.isFrozen(item)) freezeTree(item);
    }
    return;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null && !Object.isFrozen(child)) freezeTree(child);
  }
}
