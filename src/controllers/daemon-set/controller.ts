/**
 * The DaemonSet controller: one pod per eligible node (nodeSelector, node affinity, tolerated
 * taints), pinned with a `metadata.name` node affinity for the scheduler to bind, replaced on
 * template changes with RollingUpdate (maxUnavailable / maxSurge) or OnDelete, and the status
 * `kubectl get ds` prints. Upstream's pkg/controller/daemon.
 */
import {
  ApiError,
  type ControllerRevision,
  type DaemonSet,
  isPodReady,
  type LabelSelector,
  matchesLabels,
  type Node,
  type OwnerReference,
  type Pod,
  selectorFromLabelSelector,
  semanticEqual,
} from "../../api/index.ts";
import {
  controllerRevisionsResource,
  daemonSetsResource,
  keyOf,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  controllerRefOf,
  defineController,
  Expectations,
  type InformerEvent,
  referenceTo,
  watch,
} from "../framework/index.ts";
import { FailedPodBackoff, type FailedPodBackoffOptions } from "./backoff.ts";
import { nodeShouldRunDaemonPod } from "./placement.ts";
import { type DaemonSetContext, daemonSetIdentity, reconcileDaemonSet } from "./sync.ts";

export type DaemonSetControllerDeps = ControllerDeps;

export interface DaemonSetControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-daemonset-syncs). @default 2 */
  readonly workers?: number;
  /** Most pods created or deleted per sync (upstream's BurstReplicas). @default 250 */
  readonly burstReplicas?: number;
  /** How often a failing daemon pod is replaced. @default 1 s doubling to 15 min */
  readonly failedPodBackoff?: FailedPodBackoffOptions;
}

export function newDaemonSetController(
  deps: DaemonSetControllerDeps,
  options: DaemonSetControllerOptions = {},
): Controller {
  const daemonSets = deps.informers.forResource<DaemonSet>(daemonSetsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const nodes = deps.informers.forResource<Node>(nodesResource);
  const revisions = deps.informers.forResource<ControllerRevision>(controllerRevisionsResource);
  const context: DaemonSetContext = {
    client: deps.client,
    clock: deps.clock,
    events: deps.events,
    daemonSets,
    pods,
    nodes,
    revisions,
    creations: new Expectations(deps.clock),
    deletions: new Expectations(deps.clock),
    backoff: new FailedPodBackoff(options.failedPodBackoff),
    burstReplicas: options.burstReplicas ?? 250,
  };

  const ownerOf = (namespace: string, ref: DeepReadonly<OwnerReference>) => {
    if (ref.kind !== daemonSetIdentity.kind) return undefined;
    const ds = daemonSets.lister.get(namespace, ref.name);
    return ds === undefined || ds.metadata.uid !== ref.uid ? undefined : ds;
  };

  /** `getDaemonSetsForPod`: the sets whose (non-empty, valid) selector matches an orphan. */
  const selecting = (pod: DeepReadonly<Pod | ControllerRevision>): string[] =>
    daemonSets.lister.list(pod.metadata.namespace ?? "").flatMap((ds) => {
      try {
        const selector = selectorFromLabelSelector(ds.spec.selector as LabelSelector | undefined);
        if (selector.kind === "requirements" && selector.requirements.length === 0) return [];
        return matchesLabels(selector, pod.metadata.labels ?? {}) ? [keyOf(ds)] : [];
      } catch (error: unknown) {
        if (error instanceof ApiError) return [];
        throw error;
      }
    });

  const deleted = (pod: DeepReadonly<Pod>): string[] => {
    const ref = controllerRefOf(pod);
    const ds = ref === undefined ? undefined : ownerOf(pod.metadata.namespace ?? "", ref);
    if (ds === undefined) return [];
    context.deletions.deletionObserved(keyOf(ds), keyOf(pod));
    return [keyOf(ds)];
  };

  /** `addHistory`, `updateHistory`, `deleteHistory`: the owner, or the sets selecting an orphan. */
  const mapRevision = (event: InformerEvent<ControllerRevision>): readonly string[] => {
    const revision = event.object;
    const ref = controllerRefOf(revision);
    if (ref !== undefined) {
      const ds = ownerOf(revision.metadata.namespace ?? "", ref);
      return ds === undefined ? [] : [keyOf(ds)];
    }
    return event.type === "delete" ? [] : selecting(revision);
  };

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? "";
    switch (event.type) {
      case "delete":
        return deleted(pod);
      case "add": {
        if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod);
        const ref = controllerRefOf(pod);
        if (ref === undefined) return selecting(pod);
        const ds = ownerOf(namespace, ref);
        if (ds === undefined) return [];
        context.creations.creationObserved(keyOf(ds));
        return [keyOf(ds)];
      }
      case "update": {
        const old = event.oldObject;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
        if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod);
        const keys: string[] = [];
        const ref = controllerRefOf(pod);
        const oldRef = controllerRefOf(old);
        const refChanged = !semanticEqual(ref ?? null, oldRef ?? null);
        if (refChanged && oldRef !== undefined) {
          const oldDs = ownerOf(namespace, oldRef);
          if (oldDs !== undefined) keys.push(keyOf(oldDs));
        }
        if (ref !== undefined) {
          const ds = ownerOf(namespace, ref);
          if (ds === undefined) return keys;
          const minReady = ds.spec.minReadySeconds ?? 0;
          if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) {
            controller.enqueueAfter(keyOf(ds), minReady * 1000 + 1000);
          }
          return [...keys, keyOf(ds)];
        }
        const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
        if (labelsChanged || refChanged) keys.push(...selecting(pod));
        return keys;
      }
    }
  };

  /** Node events wake the DaemonSets whose verdict on that node changed. */
  const mapNode = (event: InformerEvent<Node>): readonly string[] => {
    const all = daemonSets.lister.list();
    switch (event.type) {
      case "add":
        return all.filter((ds) => nodeShouldRunDaemonPod(event.object, ds).shouldRun).map(keyOf);
      case "delete":
        return all.map(keyOf);
      case "update": {
        const old = event.oldObject;
        const node = event.object;
        if (
          semanticEqual(old.metadata.labels ?? {}, node.metadata.labels ?? {}) &&
          semanticEqual(old.spec?.taints ?? [], node.spec?.taints ?? [])
        ) {
          return [];
        }
        return all
          .filter(
            (ds) =>
              !semanticEqual(nodeShouldRunDaemonPod(old, ds), nodeShouldRunDaemonPod(node, ds)),
          )
          .map(keyOf);
      }
    }
  };

  const controller: Controller = defineController<DaemonSet>({
    name: "daemonset",
    primary: daemonSets,
    primaryToKeys: (event) => {
      const key = keyOf(event.object);
      if (event.type === "delete") {
        context.creations.delete(key);
        context.deletions.delete(key);
      }
      return [key];
    },
    secondary: [watch(pods, mapPod), watch(nodes, mapNode), watch(revisions, mapRevision)],
    reconcile: (key) => reconcileDaemonSet(context, key),
    onTerminal: (key, error) => {
      const ds = daemonSets.indexer.get(key);
      if (ds !== undefined) {
        deps.events.event(
          referenceTo(ds, daemonSetsResource),
          "Warning",
          "FailedSync",
          error.message,
        );
      }
    },
    workers: options.workers ?? 2,
    clock: deps.clock,
    logger: deps.logger,
  });
  return controller;
}
