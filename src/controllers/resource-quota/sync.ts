/**
 * What the resource quota controller writes: upstream's `syncResourceQuota` and
 * `quota.CalculateUsage` as a pure function of a quota and the objects of its namespace.
 */
import {
  addUsage,
  type KubeObject,
  maskUsage,
  type QuotaEvaluator,
  quotaEvaluatorsFor,
  quotaScopeSelectors,
  type ResourceQuota,
  type ResourceQuotaStatus,
  resourceListOf,
  type Usage,
  usageEquals,
  usageOf,
  usageStats,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * The objects an evaluator measures in the quota's namespace: a list, `"unknown"` when the
 * resource is not served (its usage is left out, as upstream leaves out resources it cannot
 * list), or `"pending"` while its cache fills (the quota is looked at again soon).
 */
export type ObjectSource = (
  evaluator: QuotaEvaluator,
  namespace: string,
) => readonly DeepReadonly<KubeObject>[] | "unknown" | "pending";

export type QuotaSync =
  | { readonly kind: "pending" }
  | { readonly kind: "status"; readonly status: ResourceQuotaStatus; readonly dirty: boolean };

/**
 * `status.hard` becomes `spec.hard`; `status.used` is recounted for every hard resource an
 * evaluator tracks (earlier observations of others are kept, then everything not in `hard` is
 * dropped). `dirty` says whether the stored status differs.
 */
export function computeQuotaStatus(
  quota: DeepReadonly<ResourceQuota>,
  objectsOf: ObjectSource,
  now: Date,
): QuotaSync {
  const hard = usageOf(quota.spec?.hard);
  const hardNames = [...hard.keys()];
  const evaluators = quotaEvaluatorsFor(hardNames);
  const matched = new Set<string>();
  for (const e of evaluators) for (const name of e.matchingResources(hardNames)) matched.add(name);
  const selectors = quotaScopeSelectors(quota);
  const namespace = quota.metadata.namespace ?? "";
  let counted: Usage = new Map();
  for (const e of evaluators) {
    const tracked = e.matchingResources(matched);
    if (tracked.length === 0) continue;
    const objects = objectsOf(e, namespace);
    if (objects === "pending") return { kind: "pending" };
    if (objects === "unknown") {
      for (const name of tracked) matched.delete(name);
      continue;
    }
    counted = addUsage(counted, usageStats(e, objects, selectors, tracked, now));
  }
  const used = usageOf(quota.status?.used);
  for (const [name, q] of maskUsage(counted, matched)) used.set(name, q);
  const nextUsed = maskUsage(used, hardNames);
  const status: ResourceQuotaStatus = {
    hard: resourceListOf(hard),
    used: resourceListOf(nextUsed),
  };
  const dirty =
    quota.status?.hard === undefined ||
    quota.status?.used === undefined ||
    !usageEquals(hard, usageOf(quota.status.hard)) ||
    !usageEquals(nextUsed, usageOf(quota.status.used));
  return { kind: "status", status, dirty };
}
