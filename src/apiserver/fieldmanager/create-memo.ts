import { isPlainObject, type JsonObject } from "../../util/index.ts";
import type { FieldSet } from "./field-set.ts";

/** What a create's writer owns, with its FieldsV1 encoding, for one object shape. */
export interface CreatedFields {
  readonly set: FieldSet;
  readonly fieldsV1: Record<string, unknown>;
}

/**
 * The fields a create owns, remembered by the created object's shape: replicas of one template
 * (a Deployment's pods, a Job's, a benchmark's) own the same fields, so only the first of them
 * walks the schema. One per resolved schema; the oldest shape goes first beyond `capacity`.
 */
export class CreateMemo {
  readonly #entries = new Map<string, CreatedFields>();
  readonly #capacity: number;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  get(key: string): CreatedFields | undefined {
    return this.#entries.get(key);
  }

  /** Remembers `fields` (frozen, as they are shared by every object of the shape). */
  set(key: string, fields: CreatedFields): void {
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { set: fields.set, fieldsV1: deepFreeze(fields.fieldsV1) });
  }
}

/**
 * A key two created objects share only if a create owns the same fields in both: the object's
 * JSON with the string values directly in `metadata` (name, generateName, uid, timestamps…) and
 * the values of its labels and annotations blanked. Those are leaves whose value never names a
 * field; everything else stays, because inside a list a value can (a list-map key such as a
 * container's name, a set item such as a finalizer). Objects here are JSON values, as everything
 * the registry writes is, so `JSON.stringify` sees every key the schema walk sees.
 */
export function createShapeKey(object: JsonObject, subresource: string): string {
  const meta = object["metadata"];
  if (!isPlainObject(meta)) return `${subresource}\n${JSON.stringify(object)}`;
  const shaped: Record<string, unknown> = {};
  for (const k in meta) {
    const v = meta[k];
    shaped[k] =
      typeof v === "string"
        ? ""
        : (k === "labels" || k === "annotations") && isPlainObject(v)
          ? blankStrings(v)
          : v;
  }
  return `${subresource}\n${JSON.stringify({ ...object, metadata: shaped })}`;
}

function blankStrings(map: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in map) out[k] = typeof map[k] === "string" ? "" : map[k];
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
