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

/** Builds a cached object, setting `metadata.resourceVersion` to the revision. */
export function newCachedObject(key: string, value: JsonObject, revision: number): CachedObject {
  const object = withResourceVersion(value, revision);
  const metadata = (object["metadata"] ?? {}) as Record<string, unknown>;
  let text: string | undefined;
  return {
    key,
    object,
    revision,
    namespace: typeof metadata["namespace"] === "string" ? metadata["namespace"] : "",
    name: typeof metadata["name"] === "string" ? metadata["name"] : "",
    labels: (metadata["labels"] ?? {}) as Record<string, string>,
    json: () => {
      text ??= JSON.stringify(object);
      return text;
    },
  };
}

/** A shallow copy of `value` whose metadata carries `resourceVersion`. */
export function withResourceVersion(value: JsonObject, revision: number): JsonObject {
  const metadata = (value["metadata"] ?? {}) as JsonObject;
  return { ...value, metadata: { ...metadata, resourceVersion: String(revision) } };
}
