/**
 * The garbage collector's writes: owner references and finalizers rewritten against the live
 * object (never a recreated one), and deletions guarded by the object's uid.
 */
import { type KubeObject, type OwnerReference, semanticEqual } from "../../api/index.ts";
import { type Client, isConflict, isNotFound } from "../../client/index.ts";
import type { Logger } from "../../util/index.ts";
import type { GraphNode } from "./graph.ts";

const maxWriteAttempts = 5;

/**
 * Reads `node` fresh and writes `change(live)` as a JSON merge patch of metadata guarded by the
 * live resourceVersion, retrying on conflicts (upstream's `deleteOwnerRefJSONMergePatch`
 * approach, which works for custom resources too). Nothing happens when the object is gone,
 * was recreated (another uid), or `change` returns undefined.
 */
async function rewrite(
  client: Client,
  node: GraphNode,
  change: (live: KubeObject) => Record<string, unknown> | undefined,
): Promise<void> {
  const { resource, namespace, name, uid } = node.identity;
  const ns = resource.namespaced ? namespace : undefined;
  for (let attempt = 1; ; attempt++) {
    let live: KubeObject;
    try {
      live = await client.get(resource, ns, name);
    } catch (error: unknown) {
      if (isNotFound(error)) return;
      throw error;
    }
    if (live.metadata.uid !== uid) return;
    const metadata = change(live);
    if (metadata === undefined) return;
    try {
      await client.patch(resource, ns, name, "merge", {
        metadata: { ...metadata, resourceVersion: live.metadata.resourceVersion },
      });
      return;
    } catch (error: unknown) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt >= maxWriteAttempts) throw error;
    }
  }
}

/** Rewrites the object's owner references with `edit` (removing or unblocking them). */
export function setOwnerReferences(
  client: Client,
  node: GraphNode,
  edit: (refs: readonly OwnerReference[]) => OwnerReference[],
): Promise<void> {
  return rewrite(client, node, (live) => {
    const refs = live.metadata.ownerReferences ?? [];
    const next = edit(refs);
    if (semanticEqual(next, refs)) return undefined;
    return { ownerReferences: next.length === 0 ? null : next };
  });
}

/** Removes one finalizer (`orphan`, `foregroundDeletion`) from the object. */
export function removeFinalizer(client: Client, node: GraphNode, finalizer: string): Promise<void> {
  return rewrite(client, node, (live) => {
    const finalizers = live.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return undefined;
    const next = finalizers.filter((f) => f !== finalizer);
    return { finalizers: next.length === 0 ? null : next };
  });
}

/** Deletes the object with `policy`, only if it still has the node's uid. */
export async function deleteObject(
  client: Client,
  logger: Logger,
  node: GraphNode,
  policy: "Orphan" | "Foreground" | "Background",
): Promise<void> {
  const { resource, namespace, name, uid } = node.identity;
  logger.v(2).info("Deleting object", {
    resource: resource.resource,
    object: namespace === "" ? name : `${namespace}/${name}`,
    propagationPolicy: policy,
  });
  try {
    await client.delete(resource, resource.namespaced ? namespace : undefined, name, {
      propagationPolicy: policy,
      preconditions: { uid },
    });
  } catch (error: unknown) {
    // Gone already, or replaced by a new object of the same name: nothing to collect.
    if (isNotFound(error) || isConflict(error)) return;
    throw error;
  }
}
