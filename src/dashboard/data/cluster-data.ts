/**
 * The dashboard's shared stores: one per resource, used by every view that shows it. A store's
 * list-watch runs while at least one view holds a lease on it and stops when the last lease is
 * released (browsers allow six connections per server, so idle watches are not kept open); the
 * store keeps its objects and resourceVersion, so the next lease resumes the watch from there.
 */
import type {
  ClusterQueue,
  KueueWorkload,
  LocalQueue,
  Node,
  Pod,
  PodDisruptionBudget,
  PodGroup,
  Workload,
} from "../../api/index.ts";
import type { ApiClient } from "./api-client.ts";
import { runListWatch } from "./list-watch.ts";
import { ResourceStore } from "./resource-store.ts";

/** The collections the dashboard reads, by the name views ask for. */
export const resourcePaths = {
  nodes: "/api/v1/nodes",
  pods: "/api/v1/pods",
  poddisruptionbudgets: "/apis/policy/v1/poddisruptionbudgets",
  workloads: "/apis/scheduling.k8s.io/v1alpha1/workloads",
  podgroups: "/apis/scheduling.k8s.io/v1alpha1/podgroups",
  clusterqueues: "/apis/kueue.x-k8s.io/v1beta1/clusterqueues",
  localqueues: "/apis/kueue.x-k8s.io/v1beta1/localqueues",
  kueueworkloads: "/apis/kueue.x-k8s.io/v1beta1/workloads",
} as const;

/** The object type each store holds. */
export interface ResourceTypes {
  nodes: Node;
  pods: Pod;
  poddisruptionbudgets: PodDisruptionBudget;
  workloads: Workload;
  podgroups: PodGroup;
  clusterqueues: ClusterQueue;
  localqueues: LocalQueue;
  kueueworkloads: KueueWorkload;
}

export type ResourceName = keyof typeof resourcePaths;

/** A view's hold on a store: the store, and the function that lets go of it (idempotent). */
export interface StoreLease<T extends ResourceName> {
  readonly store: ResourceStore<ResourceTypes[T]>;
  release(): void;
}

interface Entry {
  readonly store: ResourceStore<ResourceTypes[ResourceName]>;
  leases: number;
  stop: AbortController | undefined;
}

export interface ClusterData {
  readonly api: ApiClient;
  /** Takes a lease on `resource`'s store, starting its list-watch if it is the first. */
  use<T extends ResourceName>(resource: T): StoreLease<T>;
  /** Stops every list-watch (the page is going away). */
  close(): void;
}

export function newClusterData(api: ApiClient): ClusterData {
  const entries = new Map<ResourceName, Entry>();
  const entryOf = (resource: ResourceName): Entry => {
    let entry = entries.get(resource);
    if (entry === undefined) {
      entry = { store: new ResourceStore(resource), leases: 0, stop: undefined };
      entries.set(resource, entry);
    }
    return entry;
  };
  return {
    api,
    use<T extends ResourceName>(resource: T): StoreLease<T> {
      const entry = entryOf(resource);
      entry.leases++;
      if (entry.stop === undefined) {
        const stop = new AbortController();
        entry.stop = stop;
        void runListWatch(api, entry.store, { path: resourcePaths[resource] }, stop.signal);
      }
      let released = false;
      return {
        store: entry.store as unknown as ResourceStore<ResourceTypes[T]>,
        release: () => {
          if (released) return;
          released = true;
          entry.leases--;
          // A view switch releases the old view's leases before the new view takes its own:
          // look again once the switch is done, so a store both views use keeps its watch.
          queueMicrotask(() => {
            if (entry.leases > 0) return;
            entry.stop?.abort();
            entry.stop = undefined;
          });
        },
      };
    },
    close() {
      for (const entry of entries.values()) entry.stop?.abort();
    },
  };
}
