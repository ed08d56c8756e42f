/**
 * The informer indexes the pod reconcilers look things up by, so that a reconcile costs the same
 * with ten pods or ten thousand (Kueue reads through controller-runtime's cache the same way,
 * with field indexes on the owner): a pod's Workload by the pod's UID, the Workloads a pod name
 * controlled (to let them go once the pod is gone), and a group's pods by group name. The
 * informers keep the indexes current from their events; nothing scans a namespace.
 */
import {
  type KueueWorkload,
  type OwnerReference,
  type Pod,
  podGroupNameLabel,
} from "../../api/index.ts";
import type { Indexer, Indexers } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

type P = DeepReadonly<Pod>;
type W = DeepReadonly<KueueWorkload>;

/** Workloads by the UID of the Pod that controls them. */
export const workloadByPodUidIndex = "kueue.x-k8s.io/controller-pod-uid";
/** Workloads by `namespace/name` of the Pod that controls them. */
export const workloadByPodNameIndex = "kueue.x-k8s.io/controller-pod-name";
/** Pods by `namespace/group` of their `kueue.x-k8s.io/pod-group-name` label. */
export const podByGroupIndex = "kueue.x-k8s.io/pod-group";

function controllerPod(workload: W): DeepReadonly<OwnerReference> | undefined {
  return workload.metadata.ownerReferences?.find((o) => o.controller === true && o.kind === "Pod");
}

/** The index functions to add to the Workload informer. */
export const workloadIndexers: Indexers<KueueWorkload> = {
  [workloadByPodUidIndex]: (w) => {
    const owner = controllerPod(w);
    return owner === undefined || owner.uid === "" ? [] : [owner.uid];
  },
  [workloadByPodNameIndex]: (w) => {
    const owner = controllerPod(w);
    return owner === undefined ? [] : [`${w.metadata.namespace ?? ""}/${owner.name}`];
  },
};

/** The index functions to add to the Pod informer. */
export const podIndexers: Indexers<Pod> = {
  [podByGroupIndex]: (p) => {
    const group = p.metadata.labels?.[podGroupNameLabel];
    return group === undefined || group === "" ? [] : [`${p.metadata.namespace ?? ""}/${group}`];
  },
};

/** Lookups by the indexes above. Results come in no particular order. */
export interface PodIndexes {
  /** The Workload controlled by the pod with UID `uid`, if cached. */
  workloadOfPod(uid: string): W | undefined;
  /** The Workloads controlled by a pod named `name` in `namespace`, whatever its UID. */
  workloadsControlledBy(namespace: string, name: string): W[];
  /** The pods labelled with group `group` in `namespace`. */
  podsOfGroup(namespace: string, group: string): P[];
}

/**
 * Lookups over the informers' indexers, which must carry `workloadIndexers` and `podIndexers`
 * (`SharedInformer.addIndexers`, before the informers start).
 */
export function newPodIndexes(pods: Indexer<Pod>, workloads: Indexer<KueueWorkload>): PodIndexes {
  return {
    workloadOfPod: (uid) =>
      uid === "" ? undefined : workloads.byIndex(workloadByPodUidIndex, uid)[0],
    workloadsControlledBy: (namespace, name) =>
      workloads.byIndex(workloadByPodNameIndex, `${namespace}/${name}`),
    podsOfGroup: (namespace, group) => pods.byIndex(podByGroupIndex, `${namespace}/${group}`),
  };
}

/**
 * The same lookups over fixed lists, computed once with the same index functions (for tests
 * and one-shot callers that have no informer).
 */
export function podIndexesOf(pods: readonly P[], workloads: readonly W[]): PodIndexes {
  const build = <T extends Pod | KueueWorkload>(
    items: readonly DeepReadonly<T>[],
    indexers: Indexers<T>,
  ): ((index: string, value: string) => DeepReadonly<T>[]) => {
    const byValue = new Map<string, DeepReadonly<T>[]>();
    for (const [name, fn] of Object.entries(indexers)) {
      for (const item of items) {
        for (const value of fn(item)) {
          const key = `${name}\u0000${value}`;
          byValue.set(key, [...(byValue.get(key) ?? []), item]);
        }
      }
    }
    return (index, value) => [...(byValue.get(`${index}\u0000${value}`) ?? [])];
  };
  const podsBy = build<Pod>(pods, podIndexers);
  const workloadsBy = build<KueueWorkload>(workloads, workloadIndexers);
  return {
    workloadOfPod: (uid) => (uid === "" ? undefined : workloadsBy(workloadByPodUidIndex, uid)[0]),
    workloadsControlledBy: (namespace, name) =>
      workloadsBy(workloadByPodNameIndex, `${namespace}/${name}`),
    podsOfGroup: (namespace, group) => podsBy(podByGroupIndex, `${namespace}/${group}`),
  };
}
