/** A value whose every nested property is read-only: what caches and informers hand out. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyMap<infer K, infer V>
    ? ReadonlyMap<K, DeepReadonly<V>>
    : T extends readonly (infer E)[]
      ? readonly DeepReadonly<E>[]
      : T extends object
        ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
        : T;

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object, the shape every API object has on the wire. */
export type JsonObject = { [key: string]: Json };

/** Narrows `unknown` to a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Declares that a branch cannot be reached, for exhaustive switches. */
export function assertNever(value: never, what = "value"): never {
  throw new TypeError(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/** The message of a thrown value: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
