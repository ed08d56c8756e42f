/**
 * Typed reads from a decoded YAML tree that collect problems instead of throwing, so one pass
 * reports every mistake in a cluster config with its field path and a fix.
 */
import { isPlainObject, type JsonObject, parseDuration } from "../../util/index.ts";

/** Problems found so far, each `"<path>: <what is wrong>; <what to do>"`. */
export class Problems {
  readonly #items: string[] = [];

  add(path: string, message: string): void {
    this.#items.push(path === "" ? message : `${path}: ${message}`);
  }

  get list(): readonly string[] {
    return this.#items;
  }

  get empty(): boolean {
    return this.#items.length === 0;
  }
}

/** Appends `.name` to a path; `[i]` for an index, `[key]` for a key with dots or slashes. */
export function childPath(path: string, name: string | number): string {
  if (typeof name === "number" || /[./]/.test(name)) return `${path}[${name}]`;
  return path === "" ? name : `${path}.${name}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (isPlainObject(value)) return "a mapping";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The closest of `candidates` to `word` when it is a plausible typo (edit distance ≤ 2). */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Reports every key of `object` that is not in `allowed`, with a "did you mean" hint. */
export function checkKeys(
  object: JsonObject,
  allowed: readonly string[],
  path: string,
  problems: Problems,
): void {
  for (const key of Object.keys(object)) {
    if (allowed.includes(key)) continue;
    const hint = suggest(key, allowed);
    problems.add(
      childPath(path, key),
      hint === undefined
        ? `unknown field; the fields allowed here are ${allowed.join(", ")}`
        : `unknown field; did you mean "${hint}"?`,
    );
  }
}

/** A mapping at `path`, `undefined` when absent; a problem when it is something else. */
export function readObject(
  value: unknown,
  path: string,
  problems: Problems,
): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (isPlainObject(value)) return value as JsonObject;
  problems.add(path, `must be a mapping (key: value lines), got ${describe(value)}`);
  return undefined;
}

/** A list at `path`, `undefined` when absent. */
export function readList(
  value: unknown,
  path: string,
  problems: Problems,
): readonly unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value;
  problems.add(path, `must be a list (lines starting with "- "), got ${describe(value)}`);
  return undefined;
}

/** A string at `path`; numbers and booleans are not strings here. */
export function readString(value: unknown, path: string, problems: Problems): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  problems.add(path, `must be a string, got ${describe(value)}; quote it`);
  return undefined;
}

/** A whole number in `[min, max]` at `path`. */
export function readInteger(
  value: unknown,
  path: string,
  problems: Problems,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `between ${min} and ${max}`;
    problems.add(path, `must be a whole number ${range}, got ${describe(value)}`);
    return undefined;
  }
  return value;
}

/**
 * A map of strings at `path`. Numbers and booleans are accepted and printed (`"true"`), since
 * YAML turns an unquoted `true` or `4` into a non-string and the intent is plain.
 */
export function readStringMap(
  value: unknown,
  path: string,
  problems: Problems,
): Record<string, string> | undefined {
  const object = readObject(value, path, problems);
  if (object === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(object)) {
    if (typeof item === "string") out[key] = item;
    else if (typeof item === "number" || typeof item === "boolean") out[key] = String(item);
    else problems.add(childPath(path, key), `must be a string, got ${describe(item)}`);
  }
  return out;
}

/** A Go duration string (or 0) at `path`, in milliseconds. */
export function readDuration(value: unknown, path: string, problems: Problems): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "number" && value === 0 ? "0" : value;
  if (typeof text !== "string") {
    problems.add(path, `must be a duration such as "10s" or "1m30s", got ${JSON.stringify(value)}`);
    return undefined;
  }
  const ms = parseDuration(text);
  if (ms === undefined || ms < 0) {
    problems.add(
      path,
      `invalid duration ${JSON.stringify(text)}; write a non-negative Go duration such as "500ms", "10s" or "1m30s"`,
    );
    return undefined;
  }
  return ms;
}
