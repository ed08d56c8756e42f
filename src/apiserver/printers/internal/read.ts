// Defensive readers for plain JSON API objects: any field may be missing or of the wrong type.

/** A read-only JSON object. */
export type Obj = Readonly<Record<string, unknown>>;

const empty: Obj = Object.freeze({});

/** The value at `path`, or undefined when any step is missing or not an object. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    const record = current as Obj;
    if (!Object.hasOwn(record, key)) return undefined;
    current = record[key];
  }
  return current;
}

/** The object at `path`, or `{}`. */
export function obj(value: unknown, ...path: string[]): Obj {
  const v = at(value, ...path);
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : empty;
}

/** The string at `path`, or `""` (Go's zero value). */
export function str(value: unknown, ...path: string[]): string {
  const v = at(value, ...path);
  return typeof v === "string" ? v : "";
}

/** The string at `path`, or undefined when absent (a Go `*string`). */
export function optStr(value: unknown, ...path: string[]): string | undefined {
  const v = at(value, ...path);
  return typeof v === "string" ? v : undefined;
}

/** The number at `path`, or undefined when absent (a Go `*int32`). */
export function optNum(value: unknown, ...path: string[]): number | undefined {
  const v = at(value, ...path);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The number at `path`, or 0. */
export function num(value: unknown, ...path: string[]): number {
  return optNum(value, ...path) ?? 0;
}

/** True only when the value at `path` is `true`. */
export function bool(value: unknown, ...path: string[]): boolean {
  return at(value, ...path) === true;
}

/** The array at `path`, or `[]`. */
export function list(value: unknown, ...path: string[]): readonly unknown[] {
  const v = at(value, ...path);
  return Array.isArray(v) ? v : [];
}

/** The string map at `path` (labels, nodeSelector), non-string values dropped. */
export function stringMap(value: unknown, ...path: string[]): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj(value, ...path))) {
    if (typeof v === "string") out[k] = v;
  }
  return out;
}

/** Number of keys of the object at `path` (`len(configMap.data)`). */
export function size(value: unknown, ...path: string[]): number {
  return Object.keys(obj(value, ...path)).length;
}

/** `metadata.name`. */
export function nameOf(object: unknown): string {
  return str(object, "metadata", "name");
}

/** Whether `metadata.deletionTimestamp` is set. */
export function isDeleting(object: unknown): boolean {
  const ts = at(object, "metadata", "deletionTimestamp");
  return typeof ts === "string" && ts !== "";
}
