import { metadataEndOf, withResourceVersionJson } from "../../api/index.ts";
import type { JsonObject } from "../../util/index.ts";

/** One object as the cache holds it: immutable, with its revision and lazily serialized JSON. */
export interface CachedObject {
  readonly key: string;
  /** The object with `metadata.resourceVersion` set. Never mutated. */
  readonly object: JsonObject;
  readonly revision: number;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The object's JSON text, computed at most once. */
  json(): string;
}

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
  const object = withResourceVersion(value, revision);
  const metadata = (object["metadata"] ?? {}) as Record<string, unknown>;
  let text: string | undefined;
  // Storage's text is let go once the object's own JSON is made from it.
  let given = stored;
  return {
    key,
    object,
    revision,
    namespace: typeof metadata["namespace"] === "string" ? metadata["namespace"] : "",
    name: typeof metadata["name"] === "string" ? metadata["name"] : "",
    labels: (metadata["labels"] ?? {}) as Record<string, string>,
    json: () => {
      if (text === undefined) {
        text =
          (given === undefined ? undefined : storedWithResourceVersion(given, value, revision)) ??
          JSON.stringify(object);
        given = undefined;
      }
      return text;
    },
  };
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
