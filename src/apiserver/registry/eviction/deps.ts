/**
 * Builds the eviction decision's reads over the registry's stores and the API server's watch
 * cache. Every read first waits until the cache holds all that storage has acknowledged, so it
 * is as consistent as a storage read (upstream LISTs budgets through a loopback client, served
 * from its watch cache with a consistent read since 1.31).
 */
import {
  type KubeObject,
  type Pod,
  type PodDisruptionBudget,
  type PodGroup,
  type Workload,
  workloadRefKey,
} from "../../../api/index.ts";
import type { Clock } from "../../../util/index.ts";
import type { CachedObject, CacheIndexFunc, WatchCache } from "../../watch-cache/index.ts";
import type { Store } from "../generic/store.ts";
import { keyOf, segmentOf } from "../generic/strategy.ts";
import type { ResourceRegistry } from "../resource-registry.ts";
import type { EvictionDeps } from "./eviction.ts";
import type { GroupSnapshot } from "./groups.ts";
import { type EvictionMetrics, noEvictionMetrics } from "./metrics.ts";

/** Index of the pod cache: `namespace␀workloadRefKey` → the pods of that group reference. */
export const podsByWorkloadRefIndex = "eviction.workloadRef";
/** Index of the pod cache: namespace → its pods that have a workloadRef. */
export const groupedPodsIndex = "eviction.grouped";

function workloadRefOf(object: CachedObject): Pod["spec"]["workloadRef"] {
  const spec = object.object["spec"];
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return undefined;
  return (spec as unknown as Pod["spec"]).workloadRef;
}

/** The pod cache's indexes the eviction decision reads (WatchCacheOptions.indexes["pods"]). */
export const evictionPodIndexes: Readonly<Record<string, CacheIndexFunc>> = Object.freeze({
  [podsByWorkloadRefIndex]: (object: CachedObject): readonly string[] => {
    const ref = workloadRefOf(object);
    return ref === undefined ? [] : [`${object.namespace}\u0000${workloadRefKey(ref)}`];
  },
  [groupedPodsIndex]: (object: CachedObject): readonly string[] =>
    workloadRefOf(object) === undefined ? [] : [object.namespace],
});

/**
 * Index of the budget cache: `namespace␀key=value` for a budget whose selector requires that
 * label (its first matchLabels entry), `namespace␀` for every other budget. A budget that selects
 * a pod is in the pod's namespace bucket or in the bucket of one of the pod's labels, so an
 * eviction reads those few budgets instead of every budget of the namespace.
 */
export const budgetsByLabelIndex = "eviction.selectorLabel";

/** The budget cache's indexes the eviction decision reads (`poddisruptionbudgets.policy`). */
export const evictionBudgetIndexes: Readonly<Record<string, CacheIndexFunc>> = Object.freeze({
  [budgetsByLabelIndex]: (object: CachedObject): readonly string[] => {
    const spec = object.object["spec"] as { selector?: { matchLabels?: unknown } } | undefined;
    const matchLabels = spec?.selector?.matchLabels;
    if (typeof matchLabels === "object" && matchLabels !== null) {
      for (const [key, value] of Object.entries(matchLabels)) {
        if (typeof value === "string") return [`${object.namespace}\u0000${key}=${value}`];
      }
    }
    return [`${object.namespace}\u0000`];
  },
});

export interface EvictionDepsInput {
  readonly registry: ResourceRegistry;
  /**
   * The API server's watch cache, made with `evictionPodIndexes` on `pods` and
   * `evictionBudgetIndexes` on `poddisruptionbudgets.policy`.
   */
  readonly cache: WatchCache;
  /** The storage root, ending in `/`. */
  readonly root: string;
  readonly clock: Clock;
  readonly pods: Store;
  /** @default noEvictionMetrics */
  readonly metrics?: EvictionMetrics;
}

export function newEvictionDeps(input: EvictionDepsInput): EvictionDeps {
  const budgets = input.registry.lookup("policy", "v1", "poddisruptionbudgets");
  if (budgets === undefined) {
    throw new RangeError("Cannot serve evictions: policy/v1 poddisruptionbudgets is not served");
  }
  const workloads = input.registry.lookup("scheduling.k8s.io", "v1alpha1", "workloads");
  const podGroups = input.registry.lookup("scheduling.k8s.io", "v1alpha1", "podgroups");
  const { cache, root } = input;
  const podCache = cache.resource(segmentOf(input.pods.entry.definition));

  /** One object of `store`'s resource from the cache; an unserved resource has none. */
  const getFrom = <T extends KubeObject>(
    store: Store | undefined,
    namespace: string,
    name: string,
  ): T | undefined => {
    if (store === undefined) return undefined;
    const definition = store.entry.definition;
    const key = keyOf(root, definition, namespace, name);
    return cache.resource(segmentOf(definition)).get(key)?.object as T | undefined;
  };
  const listFrom = <T extends KubeObject>(store: Store | undefined, namespace: string): T[] => {
    if (store === undefined) return [];
    const resource = cache.resource(segmentOf(store.entry.definition));
    return [...resource.list(namespace)].map((c) => c.object as unknown as T);
  };

  return {
    pods: input.pods,
    budgets,
    clock: input.clock,
    metrics: input.metrics ?? noEvictionMetrics,
    async listBudgets(namespace, pod) {
      await cache.waitUntilFresh();
      const budgetCache = cache.resource(segmentOf(budgets.entry.definition));
      const found = budgetCache.byIndex(budgetsByLabelIndex, `${namespace}\u0000`);
      for (const [key, value] of Object.entries(pod.metadata.labels ?? {})) {
        found.push(
          ...budgetCache.byIndex(budgetsByLabelIndex, `${namespace}\u0000${key}=${value}`),
        );
      }
      return found.map((c) => c.object as unknown as PodDisruptionBudget);
    },
    async groupSnapshot(namespace): Promise<GroupSnapshot> {
      await cache.waitUntilFresh();
      return {
        mates(pod) {
          const ref = pod.spec?.workloadRef;
          if (ref === undefined) return [];
          return podCache
            .byIndex(podsByWorkloadRefIndex, `${namespace}\u0000${workloadRefKey(ref)}`)
            .map((c) => c.object as unknown as Pod);
        },
        someGrouped(selected) {
          return podCache
            .byIndex(groupedPodsIndex, namespace)
            .some((c) => selected(c.object as unknown as Pod));
        },
        source: {
          workload: (name) => getFrom<Workload>(workloads, namespace, name),
          podGroup: (name) => getFrom<PodGroup>(podGroups, namespace, name),
          podGroupsOf: (workload, template) =>
            listFrom<PodGroup>(podGroups, namespace).filter(
              (g) =>
                g.spec.workloadRef.name === workload && g.spec.podGroupTemplateName === template,
            ),
        },
      };
    },
  };
}
