import { deepFreeze } from "../../util/index.ts";
import type { FieldSet } from "./field-set.ts";

/** What a create's writer owns, with its FieldsV1 encoding. */
export interface CreatedFields {
  readonly set: FieldSet;
  readonly fieldsV1: Record<string, unknown>;
}

/**
 * One top-level field's share of what a create owns: whether the field itself is owned, what is
 * owned below it, and its FieldsV1 entry (the value under `f:<field>`; undefined when nothing).
 */
export interface CreatedPart {
  readonly member: boolean;
  readonly below: FieldSet;
  readonly fieldsV1: Record<string, unknown> | undefined;
}

/**
 * What creates own, remembered top-level field by top-level field, by the field's shape:
 * replicas of one template (a Deployment's pods, a Job's, a benchmark's) own the same fields, so
 * only the first of them walks the schema; objects that differ in one field only (a Workload's
 * owner reference names its pod) still share the walks of the others. One per resolved schema;
 * the oldest shape goes first beyond `capacity` (a shape still in use comes back at its next
 * create: one walk per `capacity` one-off shapes, cheaper than reordering on every hit).
 */
export class CreateMemo {
  readonly #entries = new Map<string, CreatedPart>();
  readonly #capacity: number;

  constructor(capacity = 256) {
    this.#capacity = capacity;
  }

  get(key: string): CreatedPart | undefined {
    return this.#entries.get(key);
  }

  /** Remembers `part` (its FieldsV1 frozen, as it is shared by every object of the shape). */
  set(key: string, part: CreatedPart): CreatedPart {
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    const kept: CreatedPart =
      part.fieldsV1 === undefined ? part : { ...part, fieldsV1: deepFreeze(part.fieldsV1) };
    this.#entries.set(key, kept);
    return kept;
  }
}

/**
 * A key two created objects' top-level `field` values share only if a create owns the same fields
 * below both: the value's structure with every value outside a list reduced to its JSON type.
 * Such a value is a leaf whose content never names a field (fields are named by keys); inside a
 * list a value can (a list-map key such as a container's name, a set item such as a finalizer),
 * so lists are kept whole. Replicas of one template, events about different objects, and the
 * like share keys. Values here are JSON values, as everything the registry writes is: keys
 * holding `undefined` are left out, as `JSON.stringify` leaves them out.
 */
export function createPartKey(subresource: string, field: string, value: unknown): string {
  return `${subresource}\n${field}\n${shapeOf(value)}`;
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
