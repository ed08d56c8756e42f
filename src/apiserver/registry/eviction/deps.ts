/** Builds the eviction decision's reads over the registry's stores and storage. */
import type {
  KubeObject,
  Pod,
  PodDisruptionBudget,
  PodGroup,
  Workload,
} from "../../../api/index.ts";
import type { Storage } from "../../../storage/index.ts";
import type { Clock } from "../../../util/index.ts";
import { fromStored } from "../generic/object-meta.ts";
import type { Store } from "../generic/store.ts";
import { prefixOf } from "../generic/strategy.ts";
import type { ResourceRegistry } from "../resource-registry.ts";
import type { EvictionDeps } from "./eviction.ts";
import type { GroupSnapshot } from "./groups.ts";

export interface EvictionDepsInput {
  readonly registry: ResourceRegistry;
  readonly storage: Storage;
  /** The storage root, ending in `/`. */
  readonly root: string;
  readonly clock: Clock;
  readonly pods: Store;
}

/**
 * Lists a namespace of `store`'s resource from storage (a consistent read, as upstream's
 * loopback LIST); an unserved resource lists nothing.
 */
async function listFrom<T extends KubeObject>(
  input: EvictionDepsInput,
  store: Store | undefined,
  namespace: string,
): Promise<T[]> {
  if (store === undefined) return [];
  const prefix = prefixOf(input.root, store.entry.definition, namespace);
  const { items } = await input.storage.list(prefix);
  return items.map((item) => fromStored(item.value, item.revision) as T);
}

export function newEvictionDeps(input: EvictionDepsInput): EvictionDeps {
  const budgets = input.registry.lookup("policy", "v1", "poddisruptionbudgets");
  if (budgets === undefined) {
    throw new RangeError("Cannot serve evictions: policy/v1 poddisruptionbudgets is not served");
  }
  const workloads = input.registry.lookup("scheduling.k8s.io", "v1alpha1", "workloads");
  const podGroups = input.registry.lookup("scheduling.k8s.io", "v1alpha1", "podgroups");
  return {
    pods: input.pods,
    budgets,
    clock: input.clock,
    listBudgets: (namespace) => listFrom<PodDisruptionBudget>(input, budgets, namespace),
    async groupSnapshot(namespace): Promise<GroupSnapshot> {
      const [pods, workloadList, groupList] = await Promise.all([
        listFrom<Pod>(input, input.pods, namespace),
        listFrom<Workload>(input, workloads, namespace),
        listFrom<PodGroup>(input, podGroups, namespace),
      ]);
      const workloadByName = new Map(workloadList.map((w) => [w.metadata.name ?? "", w]));
      const groupByName = new Map(groupList.map((g) => [g.metadata.name ?? "", g]));
      return {
        pods,
        source: {
          workload: (name) => workloadByName.get(name),
          podGroup: (name) => groupByName.get(name),
          podGroupsOf: (workload, template) =>
            groupList.filter(
              (g) =>
                g.spec.workloadRef.name === workload && g.spec.podGroupTemplateName === template,
            ),
        },
      };
    },
  };
}
