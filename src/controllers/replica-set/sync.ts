/** One reconcile of a ReplicaSet (upstream's `syncReplicaSet` and `manageReplicas`). */
import {
  ApiError,
  type KubeObject,
  type LabelSelectorExpr,
  matchesLabels,
  type Pod,
} from "../../api/index.ts";
import { isNamespaceTerminating, isNotFound, keyOf, podsResource } from "../../client/index.ts";
import { type DeepReadonly, errorMessage } from "../../util/index.ts";
import {
  claimObjects,
  controllerRefOf,
  done,
  isPodActive,
  msUntilAvailable,
  newControllerRef,
  podFromTemplate,
  podsToDelete,
  type ReconcileResult,
  recheckNotDeleting,
  referenceTo,
  requeueAfter,
  splitKey,
  terminal,
  updateStatusIfChanged,
} from "../framework/index.ts";
import type { ReplicaSetContext } from "./controller.ts";
import type { ReplicaSetView } from "./kinds.ts";
import { slowStartBatch, slowStartInitialBatchSize } from "./slow-start.ts";
import { computeReplicaSetStatus } from "./status.ts";

/** Converges the ReplicaSet (or ReplicationController) stored under `key`. */
export async function reconcileReplicaSet(
  context: ReplicaSetContext,
  key: string,
): Promise<ReconcileResult> {
  const { kind, client } = context;
  const { namespace, name } = splitKey(key);
  const object = context.controllers.lister.get(namespace, name);
  if (object === undefined) {
    context.expectations.delete(key);
    return done;
  }
  const view = kind.view(object);
  const needsSync = context.expectations.satisfied(key);
  let selector: LabelSelectorExpr;
  try {
    selector = view.selector();
  } catch (error: unknown) {
    throw terminal(error);
  }
  const active = context.pods.lister.list(namespace).filter(isPodActive);
  const owned = await claimObjects<Pod>(client, {
    controller: object,
    identity: kind.identity,
    resource: podsResource,
    candidates: active,
    matches: (pod) => matchesLabels(selector, pod.metadata.labels ?? {}),
    canAdopt: () => recheckNotDeleting(client, kind.resource, object),
  });

  let manageError: Error | undefined;
  if (needsSync && object.metadata.deletionTimestamp === undefined) {
    try {
      await manageReplicas(context, key, view, owned);
    } catch (error: unknown) {
      manageError = error instanceof Error ? error : new Error(String(error));
    }
  }
  const now = context.clock.now();
  const status = computeReplicaSetStatus(
    {
      replicas: view.replicas,
      minReadySeconds: view.minReadySeconds,
      generation: object.metadata.generation ?? 0,
      templateLabels: view.template?.metadata?.labels ?? {},
      status: view.status,
    },
    owned,
    manageError,
    now,
  );
  await updateStatusIfChanged(client, kind.resource, object, status);
  if (manageError !== undefined) throw manageError;

  // Pods that are ready but not yet available become available on a timer, not an event.
  if (
    view.minReadySeconds > 0 &&
    (status.readyReplicas ?? 0) === view.replicas &&
    (status.availableReplicas ?? 0) !== view.replicas
  ) {
    const waits = owned
      .map((pod) => msUntilAvailable(pod, view.minReadySeconds, now))
      .filter((ms): ms is number => ms !== undefined && ms > 0);
    return requeueAfter(waits.length > 0 ? Math.min(...waits) : view.minReadySeconds * 1000);
  }
  return done;
}

/** Creates or deletes pods so that `owned` reaches the desired count (at most a burst). */
async function manageReplicas(
  context: ReplicaSetContext,
  key: string,
  view: ReplicaSetView,
  owned: readonly DeepReadonly<Pod>[],
): Promise<void> {
  const { client, events, expectations, kind } = context;
  const object = view.object;
  const namespace = object.metadata.namespace ?? "";
  const name = object.metadata.name ?? "";
  const involved = referenceTo(object, kind.resource);
  const diff = owned.length - view.replicas;
  if (diff < 0) {
    const count = Math.min(-diff, context.burstReplicas);
    expectations.expectCreations(key, count);
    const ref = newControllerRef(object, kind.identity);
    const result = await slowStartBatch(count, slowStartInitialBatchSize, async () => {
      const template = view.template;
      if (template === undefined || Object.keys(template.metadata?.labels ?? {}).length === 0) {
        throw new Error("unable to create pods, no labels");
      }
      const pod = podFromTemplate(template, namespace, name, ref);
      try {
        const created = await client.create<Pod>(podsResource, pod);
        events.event(
          involved,
          "Normal",
          "SuccessfulCreate",
          `Created pod: ${created.metadata.name ?? ""}`,
        );
      } catch (error: unknown) {
        // Creates fail for good in a terminating namespace: nothing to report.
        if (isNamespaceTerminating(error)) return;
        events.event(involved, "Warning", "FailedCreate", `Error creating: ${errorMessage(error)}`);
        throw error;
      }
    });
    // Creations never attempted or failed will not be observed.
    for (let i = result.successes; i < count; i++) expectations.creationObserved(key);
    if (result.failure !== undefined) throw result.failure.error;
    return;
  }
  if (diff > 0) {
    const count = Math.min(diff, context.burstReplicas);
    const victims = podsToDelete(owned, relatedPods(context, object), count, context.clock.now());
    expectations.expectDeletions(key, victims.map(keyOf));
    const results = await Promise.allSettled(
      victims.map(async (pod) => {
        const podName = pod.metadata.name ?? "";
        try {
          await client.delete(podsResource, namespace, podName);
          events.event(involved, "Normal", "SuccessfulDelete", `Deleted pod: ${podName}`);
        } catch (error: unknown) {
          expectations.deletionObserved(key, keyOf(pod));
          if (isNotFound(error)) return;
          events.event(
            involved,
            "Warning",
            "FailedDelete",
            `Error deleting: ${errorMessage(error)}`,
          );
          throw error;
        }
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }
}

/**
 * `getIndirectlyRelatedPods`: the pods of every ReplicaSet sharing this one's controller (the
 * Deployment's other revisions), used to rank pods doubled up on a node.
 */
function relatedPods(
  context: ReplicaSetContext,
  object: DeepReadonly<KubeObject>,
): DeepReadonly<Pod>[] {
  const ref = controllerRefOf(object);
  if (ref === undefined) return [];
  const namespace = object.metadata.namespace ?? "";
  const seen = new Map<string, DeepReadonly<Pod>>();
  for (const sibling of context.controllers.lister.list(namespace)) {
    if (controllerRefOf(sibling)?.uid !== ref.uid) continue;
    let selector: LabelSelectorExpr;
    try {
      selector = context.kind.view(sibling).selector();
    } catch (error: unknown) {
      // A sibling with an invalid selector has no pods to count.
      if (error instanceof ApiError) continue;
      throw error;
    }
    for (const pod of context.pods.lister.list(namespace, selector)) {
      seen.set(pod.metadata.uid ?? keyOf(pod), pod);
    }
  }
  return [...seen.values()];
}
