import type { KubeObject, ObjectMeta } from "../../../api/index.ts";
import { deepCopy, type JsonObject, jsonEqual } from "../../../util/index.ts";

/**
 * Whether everything but metadata and status differs, which is what bumps `generation`;
 * semantically, whatever the key order, as upstream compares specs.
 */
export function specChanged(next: KubeObject, current: KubeObject): boolean {
  const { metadata: _nm, status: _ns, apiVersion: _na, kind: _nk, ...nextSpec } = next;
  const { metadata: _cm, status: _cs, apiVersion: _ca, kind: _ck, ...currentSpec } = current;
  return !jsonEqual(nextSpec, currentSpec);
}

/**
 * Whether writing `next` over `current` would change nothing: the same JSON apart from the
 * bookkeeping (resourceVersion, managedFields), whatever the key order, as upstream compares the
 * canonical encodings before a write.
 */
export function unchanged(next: KubeObject, current: KubeObject): boolean {
  const { resourceVersion: _nrv, managedFields: _nmf, ...nextMeta } = next.metadata;
  const { resourceVersion: _crv, managedFields: _cmf, ...currentMeta } = current.metadata;
  return (
    jsonEqual(nextMeta, currentMeta) &&
    jsonEqual({ ...next, metadata: undefined }, { ...current, metadata: undefined })
  );
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
