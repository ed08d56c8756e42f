import type { KubeObject } from "../../api/index.ts";
import { type Client, isNotFound, type ResourceRef } from "../../client/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";

/**
 * Updates `object` without `finalizer` (a compare-and-swap on its resourceVersion: a conflict
 * throws and the key is retried). An object already gone needs nothing more.
 */
export async function removeFinalizer(
  client: Client,
  resource: ResourceRef,
  object: DeepReadonly<KubeObject>,
  finalizer: string,
): Promise<void> {
  const next = deepCopy(object) as KubeObject;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  try {
    await client.update(resource, next);
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
}
