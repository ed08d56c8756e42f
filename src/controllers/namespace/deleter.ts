/**
 * Deleting everything in a namespace (upstream's namespaced_resources_deleter.go
 * `deleteAllContent`): every namespaced resource is listed and its objects deleted with
 * propagationPolicy Background, then listed again to see what remains and why.
 */
import { ApiError, type KubeObject, type Namespace, type Pod } from "../../api/index.ts";
import { type Client, isNotFound, type ResourceRef } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
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
): Promise<ResourcePass> {
  let estimate = 0;
  try {
    const first = await client.list<KubeObject>(resource, namespace);
    if (resource.group === "" && resource.resource === "pods") {
      estimate = podEstimateSeconds(first.items as unknown as Pod[], deletedAt, now);
    }
    for (const item of first.items) {
      try {
        await client.delete(resource, namespace, item.metadata.name ?? "", {
          propagationPolicy: "Background",
        });
      } catch (error: unknown) {
        if (!isNotFound(error) && !isMethodNotAllowed(error)) throw error;
      }
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
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** One pass over every namespaced resource of `namespace`, run concurrently. */
export async function deleteAllContent(
  client: Client,
  discovery: ResourceDiscovery,
  namespace: DeepReadonly<Namespace>,
  now: Date,
): Promise<ContentDeletion> {
  const name = namespace.metadata.name ?? "";
  const deletedAt = Date.parse(namespace.metadata.deletionTimestamp ?? "") || now.getTime();
  const found = await discovery.discover();
  const resources = found.resources.filter((r) => r.namespaced);
  const passes = await Promise.all(
    resources.map((r) => deleteResource(client, r, name, deletedAt, now)),
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
