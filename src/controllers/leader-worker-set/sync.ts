/**
 * One reconcile of a LeaderWorkerSet: default and validate it, make sure its Workload is in
 * place, claim its pods, carry out the plan (deletions, then PodGroups before their pods), and
 * write the status.
 */
import {
  type DefaultedLeaderWorkerSet,
  defaultLeaderWorkerSet,
  fieldErrorString,
  type LeaderWorkerSet,
  leaderNameAnnotation,
  leaderWorkerSetApiVersion,
  leaderWorkerSetKindName,
  type Pod,
  type PodGroup,
  setNameLabel,
  validateLeaderWorkerSet,
  type Workload,
  workerIndexLabel,
} from "../../api/index.ts";
import {
  type Client,
  isAlreadyExists,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  keyOf,
  podGroupsResource,
  podsResource,
  type ResourceRef,
  type SharedInformer,
  workloadsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage } from "../../util/index.ts";
import {
  claimObjects,
  done,
  type EventRecorder,
  type Expectations,
  isControlledBy,
  newControllerRef,
  type OwnerIdentity,
  type ReconcileResult,
  recheckNotDeleting,
  referenceTo,
  splitKey,
  terminal,
  updateStatusIfChanged,
} from "../framework/index.ts";
import { templateRevisionKey } from "./hash.ts";
import { groupPods } from "./identity.ts";
import { type GroupCreation, type LeaderWorkerSetPlan, planLeaderWorkerSet } from "./plan.ts";
import type { PodLosses } from "./pod-losses.ts";
import { desiredWorkload, workloadMatches } from "./scheduling.ts";
import { computeLeaderWorkerSetStatus } from "./status.ts";

export const leaderWorkerSetIdentity: OwnerIdentity = {
  apiVersion: leaderWorkerSetApiVersion,
  kind: leaderWorkerSetKindName,
};

/** The `leaderworkersets` resource, served from the CRD gantry installs at start-up. */
export const leaderWorkerSetsResource: ResourceRef = Object.freeze({
  group: "leaderworkerset.x-k8s.io",
  version: "v1",
  resource: "leaderworkersets",
  kind: "LeaderWorkerSet",
  namespaced: true,
});

/** What a reconcile needs: caches, client, bookkeeping. */
export interface LeaderWorkerSetContext {
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly sets: SharedInformer<LeaderWorkerSet>;
  readonly pods: SharedInformer<Pod>;
  readonly workloads: SharedInformer<Workload>;
  readonly podGroups: SharedInformer<PodGroup>;
  /** Pod creations asked for and not yet seen, by set key. */
  readonly creations: Expectations;
  /** Pod deletions asked for and not yet seen, by set key. */
  readonly deletions: Expectations;
  readonly losses: PodLosses;
}

type SetObject = DeepReadonly<LeaderWorkerSet>;

/** Converges the LeaderWorkerSet stored under `key`. */
export async function reconcileLeaderWorkerSet(
  context: LeaderWorkerSetContext,
  key: string,
): Promise<ReconcileResult> {
  const { namespace, name } = splitKey(key);
  const cached = context.sets.lister.get(namespace, name);
  if (cached === undefined) {
    context.creations.delete(key);
    context.deletions.delete(key);
    context.losses.forget(key);
    return done;
  }
  // Being deleted: the garbage collector removes what the set owns.
  if (cached.metadata.deletionTimestamp !== undefined) return done;
  const lws = defaultLeaderWorkerSet(cached);
  const invalid = validateLeaderWorkerSet(lws);
  if (invalid.length > 0) {
    throw terminal(
      new Error(`Cannot run LeaderWorkerSet "${key}": ${invalid.map(fieldErrorString).join(", ")}`),
    );
  }
  const client = context.client;
  const revision = templateRevisionKey(lws);
  const controllerRef = newControllerRef(cached, leaderWorkerSetIdentity);
  const pods = await claimObjects<Pod>(client, {
    controller: cached,
    identity: leaderWorkerSetIdentity,
    resource: podsResource,
    candidates: context.pods.lister.list(namespace),
    matches: (pod) => pod.metadata.labels?.[setNameLabel] === name,
    canAdopt: () => recheckNotDeleting(client, leaderWorkerSetsResource, cached),
  });

  let failure: unknown;
  try {
    if (context.creations.satisfied(key) && context.deletions.satisfied(key)) {
      const canCreate = await ensureWorkload(context, cached, lws);
      const uid = cached.metadata.uid ?? "";
      const plan = planLeaderWorkerSet({
        lws,
        revision,
        pods,
        podGroups: context.podGroups.lister
          .list(namespace)
          .filter((pg) => isControlledBy(pg, cached)),
        lostPods: context.losses.lostPods(key, uid),
        ownDeletions: context.losses.ownDeletions(),
        canCreate,
        controllerRef,
      });
      const { groups } = groupPods(name, lws.spec.leaderWorkerTemplate.size, pods);
      for (const group of [...context.losses.lostPods(key, uid).keys()]) {
        if ((groups.get(group)?.pods.size ?? 0) === 0) context.losses.settle(key, group);
      }
      await execute(context, key, cached, plan, revision);
    }
  } catch (error: unknown) {
    failure = error;
  }

  const { status, event } = computeLeaderWorkerSetStatus({
    lws,
    revision,
    pods,
    now: context.clock.now(),
  });
  await updateStatusIfChanged(client, leaderWorkerSetsResource, cached, status);
  if (event !== undefined) {
    context.events.event(
      referenceTo(cached, leaderWorkerSetsResource),
      "Normal",
      event.reason,
      event.message,
    );
  }
  if (failure !== undefined) throw failure;
  return done;
}

/**
 * Creates the set's Workload when it is missing, replaces one whose templates no longer match
 * (they are immutable), and says whether pods may be created now: only once a Workload of this
 * set is in place, so pods never precede it.
 */
async function ensureWorkload(
  context: LeaderWorkerSetContext,
  cached: SetObject,
  lws: DefaultedLeaderWorkerSet,
): Promise<boolean> {
  const desired = desiredWorkload(lws, newControllerRef(cached, leaderWorkerSetIdentity));
  const namespace = desired.metadata.namespace ?? "";
  const name = desired.metadata.name ?? "";
  const existing = context.workloads.lister.get(namespace, name);
  const involved = referenceTo(cached, leaderWorkerSetsResource);
  if (existing === undefined) {
    try {
      await context.client.create<Workload>(workloadsResource, desired);
      return true;
    } catch (error: unknown) {
      // Already there and the cache is behind: its add event brings the set back.
      if (isAlreadyExists(error) || isNamespaceTerminating(error)) return false;
      context.events.event(
        involved,
        "Warning",
        "FailedCreate",
        `Failed to create Workload ${namespace}/${name}: ${errorMessage(error)}`,
      );
      throw error;
    }
  }
  if (!isControlledBy(existing, cached)) {
    context.events.event(
      involved,
      "Warning",
      "FailedCreate",
      `Workload ${namespace}/${name} already exists but is not controlled by this LeaderWorkerSet`,
    );
    return false;
  }
  if (existing.metadata.deletionTimestamp !== undefined) return false;
  if (workloadMatches(existing, desired)) return true;
  try {
    await context.client.delete(workloadsResource, namespace, name, {
      preconditions: { uid: existing.metadata.uid ?? "" },
    });
  } catch (error: unknown) {
    if (!isNotFound(error) && !isConflict(error)) throw error;
  }
  return false;
}

/** Carries out `plan`: deletions first, then each group's PodGroup before its pods. */
async function execute(
  context: LeaderWorkerSetContext,
  key: string,
  lws: SetObject,
  plan: LeaderWorkerSetPlan,
  revision: string,
): Promise<void> {
  const involved = referenceTo(lws, leaderWorkerSetsResource);
  const namespace = lws.metadata.namespace ?? "";
  const errors: unknown[] = [];

  if (plan.deletions.length > 0) {
    context.deletions.expectDeletions(
      key,
      plan.deletions.map((d) => keyOf(d.pod)),
    );
    for (const { pod } of plan.deletions) context.losses.deleting(pod.metadata.uid ?? "");
    const results = await Promise.allSettled(
      plan.deletions.map(async ({ pod }) => {
        try {
          await context.client.delete(podsResource, namespace, pod.metadata.name ?? "", {
            preconditions: { uid: pod.metadata.uid ?? "" },
          });
        } catch (error: unknown) {
          context.deletions.deletionObserved(key, keyOf(pod));
          context.losses.gone(pod.metadata.uid ?? "");
          // Gone already, or replaced by a newer pod of the same name.
          if (isNotFound(error) || isConflict(error)) return;
          context.events.event(
            involved,
            "Warning",
            "FailedDelete",
            `Failed to delete pod ${pod.metadata.name ?? ""}: ${errorMessage(error)}`,
          );
          throw error;
        }
      }),
    );
    for (const result of results) if (result.status === "rejected") errors.push(result.reason);
  }
  for (const recreation of plan.recreations) {
    const message = recreation.triggerIsLeader
      ? `Leader pod ${recreation.trigger} failed, deleted it and its workers to recreate group ${recreation.group}`
      : `Worker pod ${recreation.trigger} failed, deleted leader pod ${recreation.leader} and its workers to recreate group ${recreation.group}`;
    context.events.event(involved, "Normal", "RecreateGroupOnPodRestart", message);
  }
  for (const group of plan.updates) {
    context.events.event(
      involved,
      "Normal",
      "GroupsUpdating",
      `Updating group ${group} to revision ${revision}`,
    );
  }
  for (const name of plan.podGroupDeletions) {
    try {
      await context.client.delete(podGroupsResource, namespace, name);
    } catch (error: unknown) {
      if (!isNotFound(error)) errors.push(error);
    }
  }

  const podCount = plan.creations.reduce((n, c) => n + c.pods.length, 0);
  if (podCount > 0) context.creations.expectCreations(key, podCount);
  for (const creation of plan.creations) {
    try {
      await createGroup(context, key, lws, creation);
    } catch (error: unknown) {
      if (isNamespaceTerminating(error)) break;
      errors.push(error);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * Creates one group's PodGroup (when missing) and then its pods, the leader before its workers.
 * Every expected creation is accounted for, done or not.
 */
async function createGroup(
  context: LeaderWorkerSetContext,
  key: string,
  lws: SetObject,
  creation: GroupCreation,
): Promise<void> {
  const involved = referenceTo(lws, leaderWorkerSetsResource);
  let pending = [...creation.pods];
  const skipRest = (): void => {
    for (let i = 0; i < pending.length; i++) context.creations.creationObserved(key);
    pending = [];
  };
  try {
    if (creation.podGroup !== undefined) {
      try {
        await context.client.create<PodGroup>(podGroupsResource, creation.podGroup);
      } catch (error: unknown) {
        if (!isAlreadyExists(error)) {
          context.events.event(
            involved,
            "Warning",
            "FailedCreate",
            `Failed to create PodGroup ${creation.podGroup.metadata.name ?? ""}: ${errorMessage(error)}`,
          );
          throw error;
        }
      }
    }
    const create = async (pod: Pod): Promise<void> => {
      try {
        await context.client.create<Pod>(podsResource, pod);
      } catch (error: unknown) {
        context.creations.creationObserved(key);
        // A pod of that name exists and the cache has not caught up: the next sync sees it.
        if (isAlreadyExists(error)) return;
        if (!isNamespaceTerminating(error)) {
          context.events.event(
            involved,
            "Warning",
            "FailedCreate",
            `Failed to create pod ${pod.metadata.name ?? ""}: ${errorMessage(error)}`,
          );
        }
        throw error;
      }
    };
    const [first, ...rest] = pending;
    if (first === undefined) return;
    const leaderFirst = first.metadata.labels?.[workerIndexLabel] === "0";
    if (leaderFirst) {
      pending = rest;
      await create(first);
    }
    const workers = pending;
    pending = [];
    const results = await Promise.allSettled(workers.map(create));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    if (workers.length > 0) {
      const leader = workers[0]?.metadata.annotations?.[leaderNameAnnotation];
      context.events.event(
        involved,
        "Normal",
        "GroupsProgressing",
        `Created worker pods for leader pod ${leader ?? ""}`,
      );
    }
  } finally {
    skipRest();
  }
}
