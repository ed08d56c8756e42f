/** One reconcile of a StatefulSet (upstream's `sync` and `UpdateStatefulSet`). */
import {
  ApiError,
  type ControllerRevision,
  type LabelSelector,
  type LabelSelectorExpr,
  matchesLabels,
  type Pod,
  type StatefulSet,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import {
  type Client,
  controllerRevisionsResource,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  podsResource,
  type SharedInformer,
  statefulSetsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage } from "../../util/index.ts";
import {
  claimObjects,
  done,
  type EventRecorder,
  msUntilAvailable,
  newControllerRef,
  type OwnerIdentity,
  type ReconcileResult,
  recheckNotDeleting,
  referenceTo,
  requeueAfter,
  splitKey,
  terminal,
  updateStatusIfChanged,
} from "../framework/index.ts";
import { identityMatches, isMemberOf, storageMatches, updateIdentity } from "./identity.ts";
import { planStatefulSet, type StatefulSetStep } from "./plan.ts";
import { statefulSetRevisions, truncateHistory } from "./revision.ts";
import { computeStatefulSetStatus } from "./status.ts";

export const statefulSetIdentity: OwnerIdentity = { apiVersion: "apps/v1", kind: "StatefulSet" };

/** What a sync needs: caches, client, bookkeeping. */
export interface StatefulSetContext {
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly sets: SharedInformer<StatefulSet>;
  readonly pods: SharedInformer<Pod>;
  readonly revisions: SharedInformer<ControllerRevision>;
  /** Most writes of one Parallel phase in flight at once (upstream's MaxBatchSize). */
  readonly maxBatch: number;
}

type StatefulSetObject = DeepReadonly<StatefulSet>;

/** Converges the StatefulSet stored under `key`. */
export async function reconcileStatefulSet(
  context: StatefulSetContext,
  key: string,
): Promise<ReconcileResult> {
  const { namespace, name } = splitKey(key);
  const set = context.sets.lister.get(namespace, name);
  if (set === undefined) return done;
  let selector: LabelSelectorExpr;
  try {
    selector = selectorFromLabelSelector(set.spec.selector as LabelSelector | undefined);
  } catch (error: unknown) {
    throw terminal(error);
  }
  const client = context.client;
  const pods = await claimObjects<Pod>(client, {
    controller: set,
    identity: statefulSetIdentity,
    resource: podsResource,
    candidates: context.pods.lister.list(namespace),
    matches: (pod) => matchesLabels(selector, pod.metadata.labels ?? {}) && isMemberOf(set, pod),
    canAdopt: () => recheckNotDeleting(client, statefulSetsResource, set),
  });
  const revisions = await statefulSetRevisions(
    client,
    set,
    await claimObjects<ControllerRevision>(client, {
      controller: set,
      identity: statefulSetIdentity,
      resource: controllerRevisionsResource,
      candidates: context.revisions.lister.list(namespace),
      matches: (revision) => matchesLabels(selector, revision.metadata.labels ?? {}),
      canAdopt: () => recheckNotDeleting(client, statefulSetsResource, set),
    }),
  );
  const { current, update } = revisions;
  const now = context.clock.now();
  const plan = planStatefulSet({
    set,
    pods,
    current,
    update,
    controllerRef: newControllerRef(set, statefulSetIdentity),
    now,
  });

  let updateDeletions = 0;
  let failure: unknown;
  try {
    for (const phase of plan.phases) {
      if (plan.monotonic) {
        for (const step of phase) {
          if (await execute(context, set, step)) updateDeletions++;
        }
      } else {
        updateDeletions += await executeInBatches(context, set, phase);
      }
    }
  } catch (error: unknown) {
    failure = error;
  }

  const counts = { ...plan.counts };
  counts.currentReplicas = Math.max(0, counts.currentReplicas - updateDeletions);
  const status = computeStatefulSetStatus({
    set,
    counts,
    currentRevision: current.name,
    updateRevision: update.name,
    collisionCount: revisions.collisionCount,
  });
  await updateStatusIfChanged(client, statefulSetsResource, set, status);
  if (failure !== undefined) throw failure;
  await truncateHistory(client, set, pods, revisions);

  const minReady = set.spec.minReadySeconds ?? 0;
  if (minReady > 0 && counts.readyReplicas !== counts.availableReplicas) {
    const waits = pods
      .map((pod) => msUntilAvailable(pod, minReady, now))
      .filter((ms): ms is number => ms !== undefined && ms > 0);
    return requeueAfter(waits.length > 0 ? Math.min(...waits) : minReady * 1000);
  }
  return done;
}

/** Runs a Parallel phase in slow-start batches (1, 2, 4, … up to `maxBatch`). */
async function executeInBatches(
  context: StatefulSetContext,
  set: StatefulSetObject,
  steps: readonly StatefulSetStep[],
): Promise<number> {
  let updates = 0;
  let next = 0;
  for (let batch = Math.min(1, steps.length); batch > 0; ) {
    const slice = steps.slice(next, next + batch);
    next += slice.length;
    const results = await Promise.allSettled(slice.map((step) => execute(context, set, step)));
    for (const result of results) {
      if (result.status === "rejected") throw result.reason;
      if (result.value) updates++;
    }
    batch = Math.min(2 * batch, steps.length - next, context.maxBatch);
  }
  return updates;
}

/**
 * Performs one step and records its event as upstream's `recordPodEvent` words it. Resolves
 * true for a deletion made by the rolling update (it lowers currentReplicas).
 */
async function execute(
  context: StatefulSetContext,
  set: StatefulSetObject,
  step: StatefulSetStep,
): Promise<boolean> {
  const involved = referenceTo(set, statefulSetsResource);
  const setName = set.metadata.name ?? "";
  const namespace = set.metadata.namespace ?? "";
  const record = (verb: "create" | "update" | "delete", podName: string, error?: unknown): void => {
    const title = verb[0]?.toUpperCase() + verb.slice(1);
    if (error === undefined) {
      context.events.event(
        involved,
        "Normal",
        `Successful${title}`,
        `${verb} Pod ${podName} in StatefulSet ${setName} successful`,
      );
    } else {
      context.events.event(
        involved,
        "Warning",
        `Failed${title}`,
        `${verb} Pod ${podName} in StatefulSet ${setName} failed error: ${errorMessage(error)}`,
      );
    }
  };
  switch (step.type) {
    case "create": {
      const podName = step.pod.metadata.name ?? "";
      try {
        await context.client.create<Pod>(podsResource, step.pod);
      } catch (error: unknown) {
        if (isNamespaceTerminating(error)) return false;
        // A pod of that name exists and the cache has not caught up: retry later, quietly.
        if (!(error instanceof ApiError && error.reason === "AlreadyExists")) {
          record("create", podName, error);
        }
        throw error;
      }
      record("create", podName);
      return false;
    }
    case "delete": {
      const podName = step.pod.metadata.name ?? "";
      try {
        await context.client.delete(podsResource, namespace, podName);
      } catch (error: unknown) {
        if (isNotFound(error)) return step.cause === "update";
        record("delete", podName, error);
        throw error;
      }
      record("delete", podName);
      return step.cause === "update";
    }
    case "updateIdentity": {
      const podName = step.pod.metadata.name ?? "";
      try {
        await updateIdentityOf(context, set, step.pod);
      } catch (error: unknown) {
        record("update", podName, error);
        throw error;
      }
      record("update", podName);
      return false;
    }
  }
}

/** `UpdateStatefulPod`: restores the identity, retrying once on a conflict with a fresh read. */
async function updateIdentityOf(
  context: StatefulSetContext,
  set: StatefulSetObject,
  cached: DeepReadonly<Pod>,
): Promise<void> {
  let pod = structuredClone(cached) as Pod;
  for (let attempt = 0; ; attempt++) {
    if (identityMatches(set, pod) && storageMatches(set, pod)) return;
    updateIdentity(set, pod);
    try {
      await context.client.update<Pod>(podsResource, pod);
      return;
    } catch (error: unknown) {
      if (!isConflict(error) || attempt > 0) throw error;
    }
    pod = await context.client.get<Pod>(
      podsResource,
      pod.metadata.namespace,
      pod.metadata.name ?? "",
    );
  }
}
