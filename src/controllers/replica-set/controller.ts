/**
 * The ReplicaSet controller (and, with `replicationControllerKind`, the ReplicationController
 * manager): keeps `spec.replicas` pods matching the selector, adopting orphans and releasing
 * pods that stopped matching, and reports status. Upstream's pkg/controller/replicaset.
 */
import {
  ApiError,
  isPodReady,
  type KubeObject,
  matchesLabels,
  type OwnerReference,
  type Pod,
  semanticEqual,
} from "../../api/index.ts";
import { type Client, keyOf, podsResource, type SharedInformer } from "../../client/index.ts";
import type { Clock, DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  controllerRefOf,
  controllerUidIndex,
  controllerUidIndexFunc,
  defineController,
  type EventRecorder,
  Expectations,
  ensureIndex,
  type InformerEvent,
  referenceTo,
  watch,
} from "../framework/index.ts";
import { type ReplicaSetKind, replicaSetKind } from "./kinds.ts";
import { reconcileReplicaSet } from "./sync.ts";

export type ReplicaSetControllerDeps = ControllerDeps;

export interface ReplicaSetControllerOptions {
  /** ReplicaSet or ReplicationController. @default replicaSetKind */
  readonly kind?: ReplicaSetKind;
  /** Concurrent reconciles (upstream's --concurrent-replicaset-syncs). @default 5 */
  readonly workers?: number;
  /** Most pods created or deleted in one reconcile (upstream's BurstReplicas). @default 500 */
  readonly burstReplicas?: number;
}

/** What the sync needs: the caches, the client and the bookkeeping of one controller. */
export interface ReplicaSetContext {
  readonly kind: ReplicaSetKind;
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly expectations: Expectations;
  readonly controllers: SharedInformer<KubeObject>;
  readonly pods: SharedInformer<Pod>;
  readonly burstReplicas: number;
}

export function newReplicaSetController(
  deps: ReplicaSetControllerDeps,
  options: ReplicaSetControllerOptions = {},
): Controller {
  const kind = options.kind ?? replicaSetKind;
  const controllers = deps.informers.forResource<KubeObject>(kind.resource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  ensureIndex(pods, controllerUidIndex, controllerUidIndexFunc);
  ensureIndex(controllers, controllerUidIndex, controllerUidIndexFunc);
  const context: ReplicaSetContext = {
    kind,
    client: deps.client,
    clock: deps.clock,
    events: deps.events,
    expectations: new Expectations(deps.clock),
    controllers,
    pods,
    burstReplicas: options.burstReplicas ?? 500,
  };

  /** The key of the controller `ref` names, if it is ours and still the same object. */
  const ownerKey = (namespace: string, ref: DeepReadonly<OwnerReference>): string | undefined => {
    if (ref.kind !== kind.identity.kind) return undefined;
    const owner = controllers.lister.get(namespace, ref.name);
    if (owner === undefined || owner.metadata.uid !== ref.uid) return undefined;
    return keyOf(owner);
  };

  /** Controllers whose (non-empty, valid) selector matches an orphan pod. */
  const selecting = (pod: DeepReadonly<Pod>): string[] =>
    controllers.lister.list(pod.metadata.namespace ?? "").flatMap((object) => {
      try {
        const selector = kind.view(object).selector();
        if (selector.kind === "requirements" && selector.requirements.length === 0) return [];
        return matchesLabels(selector, pod.metadata.labels ?? {}) ? [keyOf(object)] : [];
      } catch (error: unknown) {
        // An invalid selector selects nothing; its own reconcile reports it.
        if (error instanceof ApiError) return [];
        throw error;
      }
    });

  const deleted = (pod: DeepReadonly<Pod>): string[] => {
    const ref = controllerRefOf(pod);
    if (ref === undefined) return [];
    const key = ownerKey(pod.metadata.namespace ?? "", ref);
    if (key === undefined) return [];
    context.expectations.deletionObserved(key, keyOf(pod));
    return [key];
  };

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? "";
    switch (event.type) {
      case "delete":
        return deleted(pod);
      case "add": {
        // A pod seen first while being deleted is no creation (a controller restart).
        if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod);
        const ref = controllerRefOf(pod);
        if (ref === undefined) return selecting(pod);
        const key = ownerKey(namespace, ref);
        if (key === undefined) return [];
        context.expectations.creationObserved(key);
        return [key];
      }
      case "update": {
        const old = event.oldObject;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
        const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
        if (pod.metadata.deletionTimestamp !== undefined) {
          return labelsChanged ? [...deleted(pod), ...deleted(old)] : deleted(pod);
        }
        const keys: string[] = [];
        const ref = controllerRefOf(pod);
        const oldRef = controllerRefOf(old);
        const refChanged = !semanticEqual(ref ?? null, oldRef ?? null);
        if (refChanged && oldRef !== undefined) {
          const key = ownerKey(namespace, oldRef);
          if (key !== undefined) keys.push(key);
        }
        if (ref !== undefined) {
          const key = ownerKey(namespace, ref);
          if (key === undefined) return keys;
          keys.push(key);
          const owner = controllers.indexer.get(key);
          const minReady = owner === undefined ? 0 : kind.view(owner).minReadySeconds;
          if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) {
            controller.enqueueAfter(key, minReady * 1000 + 1);
          }
          return keys;
        }
        if (labelsChanged || refChanged) keys.push(...selecting(pod));
        return keys;
      }
    }
  };

  const controller: Controller = defineController<KubeObject>({
    name: kind.name,
    primary: controllers,
    secondary: [watch(pods, mapPod)],
    reconcile: (key) => reconcileReplicaSet(context, key),
    onTerminal: (key, error) => {
      const object = controllers.indexer.get(key);
      if (object !== undefined) {
        deps.events.event(
          referenceTo(object, kind.resource),
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
