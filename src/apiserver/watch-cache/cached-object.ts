import { metadataEndOf, withResourceVersionJson } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";

/**
 * Builds a cached object, setting `metadata.resourceVersion` to the revision. `stored` is the
 * value's JSON as storage holds it, when storage gave it: the object's JSON is then that text with
 * the resourceVersion added, rather than a second serialization.
 */
export function newCachedObject(
  key: string,
  value: JsonObject,
  revision: number,
  stored?: string,
): CachedObject {
  return new CachedObject(key, value, revision, stored);
}

/**
 * One object as the cache holds it: immutable, with its revision and lazily serialized JSON. A
 * class rather than an object literal with a closure, as there is one per stored object version.
 */
export class CachedObject {
  readonly key: string;
  /** The object with `metadata.resourceVersion` set. Never mutated. */
  readonly object: JsonObject;
  readonly revision: number;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Storage's value and its text, let go once the object's own JSON is made from them. */
  #value: JsonObject | undefined;
  #stored: string | undefined;
  #text: string | undefined;

  constructor(key: string, value: JsonObject, revision: number, stored: string | undefined) {
    this.key = key;
    this.object = withResourceVersion(value, revision);
    this.revision = revision;
    const metadata = (this.object["metadata"] ?? {}) as Record<string, unknown>;
    this.namespace = typeof metadata["namespace"] === "string" ? metadata["namespace"] : "";
    this.name = typeof metadata["name"] === "string" ? metadata["name"] : "";
    this.labels = (metadata["labels"] ?? {}) as Record<string, string>;
    this.#value = value;
    this.#stored = stored;
  }

  /** The object's JSON text, computed at most once. */
  json(): string {
    if (this.#text === undefined) {
      const stored = this.#stored;
      const value = this.#value;
      this.#text =
        (stored === undefined || value === undefined
          ? undefined
          : storedWithResourceVersion(stored, value, this.revision)) ?? JSON.stringify(this.object);
      this.#stored = undefined;
      this.#value = undefined;
    }
    return this.#text;
  }
}

/** A shallow copy of `value` whose metadata carries `resourceVersion`. */
export function withResourceVersion(value: JsonObject, revision: number): JsonObject {
  const metadata = (value["metadata"] ?? {}) as JsonObject;
  return { ...value, metadata: { ...metadata, resourceVersion: String(revision) } };
}

/**
 * `stored` (the text of `value`) with the resourceVersion added where `withResourceVersion` puts
 * it, last in metadata; `undefined` when it cannot be placed so (a value already carrying one, a
 * text not written by `JSON.stringify`).
 */
function storedWithResourceVersion(
  stored: string,
  value: JsonObject,
  revision: number,
): string | undefined {
  const metadata = value["metadata"];
  if (typeof metadata !== "object" || metadata === null || "resourceVersion" in metadata) {
    return undefined;
  }
  return withResourceVersionJson({ text: stored, metadataEnd: metadataEndOf(stored) }, revision);
}
