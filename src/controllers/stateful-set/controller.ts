/**
 * The StatefulSet controller: pods `<set>-<ordinal>` with stable identities, created in order
 * and removed in reverse (OrderedReady) or all at once (Parallel), rolled to new templates from
 * the highest ordinal down (RollingUpdate with a partition) or when deleted (OnDelete).
 * Upstream's pkg/controller/statefulset.
 */
import {
  ApiError,
  type ControllerRevision,
  isPodReady,
  type LabelSelector,
  matchesLabels,
  type OwnerReference,
  type Pod,
  type StatefulSet,
  selectorFromLabelSelector,
  semanticEqual,
} from "../../api/index.ts";
import {
  controllerRevisionsResource,
  keyOf,
  podsResource,
  statefulSetsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  controllerRefOf,
  defineController,
  type InformerEvent,
  referenceTo,
  watch,
} from "../framework/index.ts";
import { reconcileStatefulSet, type StatefulSetContext, statefulSetIdentity } from "./sync.ts";

export type StatefulSetControllerDeps = ControllerDeps;

export interface StatefulSetControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-statefulset-syncs). @default 5 */
  readonly workers?: number;
  /** Most pod writes of one Parallel phase in flight at once (upstream's MaxBatchSize). @default 500 */
  readonly maxBatch?: number;
}

export function newStatefulSetController(
  deps: StatefulSetControllerDeps,
  options: StatefulSetControllerOptions = {},
): Controller {
  const sets = deps.informers.forResource<StatefulSet>(statefulSetsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const context: StatefulSetContext = {
    client: deps.client,
    clock: deps.clock,
    events: deps.events,
    sets,
    pods,
    revisions: deps.informers.forResource<ControllerRevision>(controllerRevisionsResource),
    maxBatch: options.maxBatch ?? 500,
  };

  /** The key of the set `ref` names, if it is one and still the same object. */
  const ownerOf = (namespace: string, ref: DeepReadonly<OwnerReference>) => {
    if (ref.kind !== statefulSetIdentity.kind) return undefined;
    const set = sets.lister.get(namespace, ref.name);
    if (set === undefined || set.metadata.uid !== ref.uid) return undefined;
    return set;
  };

  /** Sets whose selector matches an orphan pod (`getPodStatefulSets`). */
  const selecting = (pod: DeepReadonly<Pod>): string[] =>
    sets.lister.list(pod.metadata.namespace ?? "").flatMap((set) => {
      try {
        const selector = selectorFromLabelSelector(set.spec.selector as LabelSelector | undefined);
        if (selector.kind === "requirements" && selector.requirements.length === 0) return [];
        return matchesLabels(selector, pod.metadata.labels ?? {}) ? [keyOf(set)] : [];
      } catch (error: unknown) {
        if (error instanceof ApiError) return [];
        throw error;
      }
    });

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? "";
    const ownerKey = (p: DeepReadonly<Pod>): string[] => {
      const ref = controllerRefOf(p);
      const set = ref === undefined ? undefined : ownerOf(namespace, ref);
      return set === undefined ? [] : [keyOf(set)];
    };
    switch (event.type) {
      case "delete":
        return ownerKey(pod);
      case "add":
        if (pod.metadata.deletionTimestamp !== undefined) return ownerKey(pod);
        return controllerRefOf(pod) === undefined ? selecting(pod) : ownerKey(pod);
      case "update": {
        const old = event.oldObject;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
        const ref = controllerRefOf(pod);
        const oldRef = controllerRefOf(old);
        const keys: string[] = [];
        const refChanged = !semanticEqual(ref ?? null, oldRef ?? null);
        if (refChanged && oldRef !== undefined) keys.push(...ownerKey(old));
        if (ref !== undefined) {
          const set = ownerOf(namespace, ref);
          if (set === undefined) return keys;
          const minReady = set.spec.minReadySeconds ?? 0;
          if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) {
            controller.enqueueAfter(keyOf(set), minReady * 1000 + 1000);
          }
          return [...keys, keyOf(set)];
        }
        const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
        if (labelsChanged || refChanged) keys.push(...selecting(pod));
        return keys;
      }
    }
  };

  const mapRevision = (event: InformerEvent<ControllerRevision>): readonly string[] => {
    if (event.type !== "delete") return [];
    const ref = controllerRefOf(event.object);
    const set = ref === undefined ? undefined : ownerOf(event.object.metadata.namespace ?? "", ref);
    return set === undefined ? [] : [keyOf(set)];
  };

  const controller: Controller = defineController<StatefulSet>({
    name: "statefulset",
    primary: sets,
    primaryToKeys: (event) => [keyOf(event.object)],
    // Revisions are read from the cache; a deleted one is recreated if the set still uses it.
    secondary: [watch(pods, mapPod), watch(context.revisions, mapRevision)],
    reconcile: (key) => reconcileStatefulSet(context, key),
    onTerminal: (key, error) => {
      const set = sets.indexer.get(key);
      if (set !== undefined) {
        deps.events.event(
          referenceTo(set, statefulSetsResource),
          "Warning",
          "FailedSync",
          error.message,
        );
      }
    },
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
  return controller;
}
