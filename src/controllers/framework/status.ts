/** Status writes that happen only when something changed. */
import { type KubeObject, semanticEqual } from "../../api/index.ts";
import { type Client, isConflict, type ResourceRef } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * Writes `status` through the status subresource unless it equals the object's current status
 * (semantically: a missing list equals an empty one). `object` is the cached copy; its
 * resourceVersion makes the write a compare-and-swap. On a conflict the object is read fresh
 * and the write is tried once more (upstream's `updateReplicaSetStatus`); a second conflict is
 * thrown so the key is retried with backoff. Returns the stored object, or `object` when
 * nothing was written.
 */
export async function updateStatusIfChanged<T extends KubeObject>(
  client: Client,
  resource: ResourceRef,
  object: DeepReadonly<T>,
  status: unknown,
  options: { metadata?: (meta: T["metadata"]) => void } = {},
): Promise<DeepReadonly<T>> {
  const metaChanged = (candidate: DeepReadonly<T>): boolean => {
    if (options.metadata === undefined) return false;
    const meta = structuredClone(candidate.metadata) as T["metadata"];
    options.metadata(meta);
    return !semanticEqual(meta, candidate.metadata);
  };
  if (semanticEqual(object["status"] ?? {}, status ?? {}) && !metaChanged(object)) return object;
  const build = (base: DeepReadonly<T>): T => {
    const next = structuredClone(base) as T;
    (next as KubeObject)["status"] = structuredClone(status);
    options.metadata?.(next.metadata);
    return next;
  };
  try {
    return (await client.updateStatus<T>(resource, build(object))) as DeepReadonly<T>;
  } catch (error: unknown) {
    if (!isConflict(error)) throw error;
  }
  const fresh = await client.get<T>(
    resource,
    object.metadata.namespace,
    object.metadata.name ?? "",
  );
  if (fresh.metadata.uid !== object.metadata.uid) return object;
  return (await client.updateStatus<T>(
    resource,
    build(fresh as DeepReadonly<T>),
  )) as DeepReadonly<T>;
}
