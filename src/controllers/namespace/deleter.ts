/**
 * Deleting everything in a namespace (upstream's namespaced_resources_deleter.go
 * `deleteAllContent`): every namespaced resource's objects are deleted with propagationPolicy
 * Background, with one deletecollection where the resource serves it and one delete per object
 * where it does not, then listed again to see what remains and why.
 */
import { ApiError, type KubeObject, type Namespace, type Pod } from "../../api/index.ts";
import { type Client, isNotFound, type ResourceRef } from "../../client/index.ts";
import { type DeepReadonly, errorMessage } from "../../util/index.ts";
import type { ResourceDiscovery } from "../framework/index.ts";
import type { ContentDeletionResult } from "./conditions.ts";

/** Upstream's `finalizerEstimateSeconds`: how long objects with finalizers are given. */
export const finalizerEstimateSeconds = 15;

/** What one pass did: the conditions' input and how long to wait before the next pass. */
export interface ContentDeletion extends ContentDeletionResult {
  /** 0 when nothing is known to be still going away. */
  readonly estimateSeconds: number;
}

function gvrString(resource: ResourceRef): string {
  return `${resource.group}/${resource.version}, Resource=${resource.resource}`;
}

function isMethodNotAllowed(error: unknown): boolean {
  return error instanceof ApiError && error.code === 405;
}

/**
 * `estimateGracefulTerminationForPods`: the longest grace period of the namespace's running
 * pods, or 0 once that long has passed since the namespace's deletion.
 */
function podEstimateSeconds(pods: readonly DeepReadonly<Pod>[], deletedAt: number, now: Date) {
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === "Succeeded" || phase === "Failed") continue;
    estimate = Math.max(estimate, pod.spec.terminationGracePeriodSeconds ?? 0);
  }
  return now.getTime() - deletedAt >= estimate * 1000 ? 0 : estimate;
}

/** What one deleter remembers across passes (upstream's `operationNotSupportedCache`). */
export interface DeleterState {
  /**
   * `group/version/resource` of resources that answered deletecollection with 405: later passes
   * delete their objects one by one straight away. Filled in by `deleteAllContent`.
   */
  readonly noDeleteCollection: Set<string>;
}

function resourceKey(resource: ResourceRef): string {
  return `${resource.group}/${resource.version}/${resource.resource}`;
}

/**
 * `deleteCollection`: one DELETE of the namespace's collection. False when the resource does
 * not serve it (405, remembered; or 404, as upstream, for a resource without that verb).
 */
async function deleteCollection(
  client: Client,
  resource: ResourceRef,
  namespace: string,
  state: DeleterState,
): Promise<boolean> {
  if (state.noDeleteCollection.has(resourceKey(resource))) return false;
  try {
    await client.deleteCollection(resource, namespace, { propagationPolicy: "Background" });
    return true;
  } catch (error: unknown) {
    if (isMethodNotAllowed(error)) {
      state.noDeleteCollection.add(resourceKey(resource));
      return false;
    }
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** `deleteEachItem`: list, then delete every object, ignoring ones already gone. */
async function deleteEachItem(client: Client, resource: ResourceRef, namespace: string) {
  const items = await client.list<KubeObject>(resource, namespace);
  for (const item of items.items) {
    try {
      await client.delete(resource, namespace, item.metadata.name ?? "", {
        propagationPolicy: "Background",
      });
    } catch (error: unknown) {
      if (!isNotFound(error) && !isMethodNotAllowed(error)) throw error;
    }
  }
}

interface ResourcePass {
  readonly estimateSeconds: number;
  readonly remaining: number;
  readonly finalizers: ReadonlyMap<string, number>;
  readonly error?: string;
}

/** `deleteAllContentForGroupVersionResource`. */
async function deleteResource(
  client: Client,
  resource: ResourceRef,
  namespace: string,
  deletedAt: number,
  now: Date,
  state: DeleterState,
): Promise<ResourcePass> {
  let estimate = 0;
  try {
    // `estimateGracefulTermination`: only pods take time to go.
    if (resource.group === "" && resource.resource === "pods") {
      const pods = await client.list<Pod>(resource, namespace);
      estimate = podEstimateSeconds(pods.items, deletedAt, now);
    }
    if (!(await deleteCollection(client, resource, namespace, state))) {
      await deleteEachItem(client, resource, namespace);
    }
    const left = await client.list<KubeObject>(resource, namespace);
    if (left.items.length === 0) return { estimateSeconds: 0, remaining: 0, finalizers: new Map() };
    const finalizers = new Map<string, number>();
    for (const item of left.items) {
      for (const f of item.metadata.finalizers ?? [])
        finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }
    const remaining = left.items.length;
    if (estimate !== 0) return { estimateSeconds: estimate, remaining, finalizers };
    if (finalizers.size > 0) {
      return { estimateSeconds: finalizerEstimateSeconds, remaining, finalizers };
    }
    return {
      estimateSeconds: estimate,
      remaining,
      finalizers,
      error: `unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(resource)}`,
    };
  } catch (error: unknown) {
    if (isNotFound(error) || isMethodNotAllowed(error)) {
      return { estimateSeconds: estimate, remaining: 0, finalizers: new Map() };
    }
    return {
      estimateSeconds: estimate,
      remaining: 0,
      finalizers: new Map(),
      error: errorMessage(error),
    };
  }
}

/** One pass over every namespaced resource of `namespace`, run concurrently. */
export async function deleteAllContent(
  client: Client,
  discovery: ResourceDiscovery,
  namespace: DeepReadonly<Namespace>,
  now: Date,
  state: DeleterState,
): Promise<ContentDeletion> {
  const name = namespace.metadata.name ?? "";
  const deletedAt = Date.parse(namespace.metadata.deletionTimestamp ?? "") || now.getTime();
  const found = await discovery.discover();
  const resources = found.resources.filter((r) => r.namespaced);
  const passes = await Promise.all(
    resources.map((r) => deleteResource(client, r, name, deletedAt, now, state)),
  );
  const remaining = new Map<string, number>();
  const finalizersRemaining = new Map<string, number>();
  const deleteErrors: string[] = [];
  let estimateSeconds = 0;
  passes.forEach((pass, i) => {
    const resource = resources[i];
    if (resource === undefined) return;
    estimateSeconds = Math.max(estimateSeconds, pass.estimateSeconds);
    if (pass.error !== undefined) deleteErrors.push(pass.error);
    if (pass.remaining > 0) {
      remaining.set(`${resource.resource}.${resource.group}`, pass.remaining);
      for (const [f, n] of pass.finalizers) {
        finalizersRemaining.set(f, (finalizersRemaining.get(f) ?? 0) + n);
      }
    }
  });
  return {
    discoveryErrors: found.errors,
    deleteErrors,
    remaining,
    finalizersRemaining,
    estimateSeconds,
  };
}
