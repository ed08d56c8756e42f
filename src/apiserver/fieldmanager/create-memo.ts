import { deepFreeze, type JsonObject } from "../../util/index.ts";
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
 * structure with every value outside a list reduced to its JSON type. Such a value is a leaf whose
 * content never names a field (fields are named by keys); inside a list a value can (a list-map
 * key such as a container's name, a set item such as a finalizer), so lists are kept whole.
 * Replicas of one template, events about different objects, and the like share a key. Objects
 * here are JSON values, as everything the registry writes is: keys holding `undefined` are left
 * out, as `JSON.stringify` leaves them out.
 */
export function createShapeKey(object: JsonObject, subresource: string): string {
  return `${subresource}\n${shapeOf(object)}`;
}

function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === "object" && value !== null) {
    let out = "{";
    for (const key in value) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      // Length-prefixed, so that no key needs escaping to stay unambiguous.
      out += `${key.length}:${key}${shapeOf(member)},`;
    }
    return `${out}}`;
  }
  switch (typeof value) {
    case "string":
      return "s";
    case "number":
      return "n";
    case "boolean":
      return "b";
    default:
      return value === null ? "z" : "?";
  }
}
