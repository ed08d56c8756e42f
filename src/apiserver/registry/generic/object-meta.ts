import type { KubeObject, ObjectMeta } from "../../../api/index.ts";
import { deepCopy, type JsonObject } from "../../../util/index.ts";

/** Everything but metadata and status: what a `generation` bump looks at. */
export function specOf(obj: KubeObject): string {
  const { metadata: _metadata, status: _status, apiVersion: _a, kind: _k, ...rest } = obj;
  return JSON.stringify(rest);
}

/** The object with volatile bookkeeping removed, for no-op detection. */
export function comparable(obj: KubeObject): string {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = obj.metadata;
  return JSON.stringify({ ...obj, metadata });
}

/** A deep copy the caller may change. */
export function clone<T>(value: T): T {
  return deepCopy(value);
}

/** The object as stored: no resourceVersion (storage tracks it), everything else as is. */
export function toStored(obj: KubeObject): JsonObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata } as unknown as JsonObject;
}

/** A stored value as an API object carrying its resourceVersion. */
export function fromStored(value: JsonObject, revision: number): KubeObject {
  const obj = clone(value) as unknown as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(revision) };
  return obj;
}

/**
 * The object a write just stored, as `fromStored` would read it back, without copying it again:
 * `obj` itself (which storage copied on write, so the two share nothing) with
 * `metadata.resourceVersion` set to `revision` and placed last, where `fromStored` puts it.
 * Only for an object the caller owns and will not change afterwards.
 */
export function asWritten(obj: KubeObject, revision: number): KubeObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata: { ...metadata, resourceVersion: String(revision) } };
}

/** Whether the object waits for finalizers (metadata, or a kind's own such as namespaces'). */
export function hasFinalizers(meta: ObjectMeta): boolean {
  return (meta.finalizers?.length ?? 0) > 0;
}

const generateNameAlphabet = "bcdfghjklmnpqrstvwxz2456789";

/** `generateName` + 5 characters from upstream's alphabet. */
export function generatedName(base: string, randomInt: (n: number) => number): string {
  let suffix = "";
  for (let i = 0; i < 5; i++)
    suffix += generateNameAlphabet[randomInt(generateNameAlphabet.length)];
  // Upstream trims the base so the result stays within 63 characters.
  return `${base.slice(0, 58)}${suffix}`;
}
