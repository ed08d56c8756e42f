/**
 * The LeaderWorkerSet controller (kubernetes-sigs/lws as a true gang-scheduling controller):
 * for each set, one Workload, one PodGroup per group and the group's pods, created directly
 * rather than through upstream's leader and worker StatefulSets; scaling by whole groups; the
 * restart policy that recreates a group when one of its pods fails; rolling template updates;
 * status and conditions as upstream reports them.
 */
import {
  type KubeObject,
  type LeaderWorkerSet,
  leaderWorkerSetKindName,
  type Pod,
  type PodGroup,
  semanticEqual,
  setNameLabel,
  type Workload,
} from "../../api/index.ts";
import { keyOf, podGroupsResource, podsResource, workloadsResource } from "../../client/index.ts";
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
import { podIdentity } from "./identity.ts";
import { PodLosses } from "./pod-losses.ts";
import {
  type LeaderWorkerSetContext,
  leaderWorkerSetsResource,
  reconcileLeaderWorkerSet,
} from "./sync.ts";

export type LeaderWorkerSetControllerDeps = ControllerDeps;

export interface LeaderWorkerSetControllerOptions {
  /** Concurrent reconciles. @default 5 (as gantry's other workload controllers) */
  readonly workers?: number;
}

export function newLeaderWorkerSetController(
  deps: LeaderWorkerSetControllerDeps,
  options: LeaderWorkerSetControllerOptions = {},
): Controller {
  const sets = deps.informers.forResource<LeaderWorkerSet>(leaderWorkerSetsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const workloads = deps.informers.forResource<Workload>(workloadsResource);
  const podGroups = deps.informers.forResource<PodGroup>(podGroupsResource);
  const context: LeaderWorkerSetContext = {
    client: deps.client,
    clock: deps.clock,
    events: deps.events,
    sets,
    pods,
    workloads,
    podGroups,
    creations: new Expectations(deps.clock),
    deletions: new Expectations(deps.clock),
    losses: new PodLosses(),
  };

  /** The set that controls `object` (by kind and uid), if it is in the cache. */
  const owner = (object: DeepReadonly<KubeObject>): DeepReadonly<LeaderWorkerSet> | undefined => {
    const ref = controllerRefOf(object);
    if (ref === undefined || ref.kind !== leaderWorkerSetKindName) return undefined;
    const set = sets.lister.get(object.metadata.namespace ?? "", ref.name);
    return set?.metadata.uid === ref.uid ? set : undefined;
  };

  /** The set a pod belongs to: its controller, or for an orphan the set its label names. */
  const setKeys = (pod: DeepReadonly<Pod>): string[] => {
    const set = owner(pod);
    if (set !== undefined) return [keyOf(set)];
    if (controllerRefOf(pod) !== undefined) return [];
    const name = pod.metadata.labels?.[setNameLabel];
    if (name === undefined) return [];
    const labelled = sets.lister.get(pod.metadata.namespace ?? "", name);
    return labelled === undefined ? [] : [keyOf(labelled)];
  };

  const observeDeletion = (pod: DeepReadonly<Pod>): void => {
    const set = owner(pod);
    if (set !== undefined) context.deletions.deletionObserved(keyOf(set), keyOf(pod));
  };

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    switch (event.type) {
      case "add": {
        if (pod.metadata.deletionTimestamp !== undefined) observeDeletion(pod);
        else {
          const set = owner(pod);
          if (set !== undefined) context.creations.creationObserved(keyOf(set));
        }
        return setKeys(pod);
      }
      case "update": {
        const old = event.oldObject;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
        if (
          pod.metadata.deletionTimestamp !== undefined &&
          old.metadata.deletionTimestamp === undefined
        ) {
          observeDeletion(pod);
        }
        const keys = setKeys(pod);
        const refChanged = !semanticEqual(
          controllerRefOf(pod) ?? null,
          controllerRefOf(old) ?? null,
        );
        const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
        if (refChanged || labelsChanged) {
          for (const key of setKeys(old)) if (!keys.includes(key)) keys.push(key);
        }
        return keys;
      }
      case "delete": {
        observeDeletion(pod);
        const ours = context.losses.gone(pod.metadata.uid ?? "");
        const set = owner(pod);
        if (!ours && set !== undefined && set.metadata.deletionTimestamp === undefined) {
          // Deleted by someone else and gone at once: no terminating state to see, so the
          // restart policy learns of it here.
          const identity = podIdentity(set.metadata.name ?? "", pod);
          if (identity !== undefined) {
            context.losses.lost(
              keyOf(set),
              set.metadata.uid ?? "",
              identity.group,
              pod.metadata.name ?? "",
            );
          }
        }
        return setKeys(pod);
      }
    }
  };

  /** Workloads and PodGroups name their set through their controller reference. */
  const mapOwned = (event: InformerEvent<KubeObject>): readonly string[] => {
    const ref = controllerRefOf(event.object);
    if (ref === undefined || ref.kind !== leaderWorkerSetKindName) return [];
    return [`${event.object.metadata.namespace ?? ""}/${ref.name}`];
  };

  return defineController<LeaderWorkerSet>({
    name: "leaderworkerset",
    primary: sets,
    secondary: [
      watch(pods, mapPod),
      watch(workloads, mapOwned as (event: InformerEvent<Workload>) => readonly string[]),
      watch(podGroups, mapOwned as (event: InformerEvent<PodGroup>) => readonly string[]),
    ],
    reconcile: (key) => reconcileLeaderWorkerSet(context, key),
    onTerminal: (key, error) => {
      const set = sets.indexer.get(key);
      if (set !== undefined) {
        deps.events.event(
          referenceTo(set, leaderWorkerSetsResource),
          "Warning",
          "FailedCreate",
          error.message,
        );
      }
    },
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
}
