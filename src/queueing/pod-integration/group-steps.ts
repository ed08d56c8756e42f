/**
 * The steps of the group reconciler that write (group-reconciler.ts runs them in Kueue's order):
 * finalizing and deleting pods under expectations, owner references, the
 * WaitingForReplacementPods condition, and building the group's Workload.
 */
import {
  type Condition,
  evictedCondition,
  findWorkloadCondition,
  type KueueWorkload,
  maxPodSets,
  type Pod,
  podGroupSetsAnnotation,
  podGroupTotalCountAnnotation,
  queueNameOf,
  waitingForReplacementPodsCondition,
} from "../../api/index.ts";
import { podsResource, referenceTo } from "../../client/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import { kueueWorkloadsResource } from "../resources.ts";
import { withoutManagedFields } from "../write-body.ts";
import {
  constructGroupPodSets,
  isFastAdmission,
  isRunnableOrSucceeded,
  sortActivePods,
  tooManyRolesMessage,
} from "./group-pods.ts";
import type { GroupReconcilerDeps } from "./group-reconciler.ts";
import { parsePodGroupSets, podSetsOfDriver } from "./pod-group-sets.ts";
import { priorityOf } from "./pod-reconciler.ts";
import { workloadForGroup } from "./workload-for-pod.ts";
import { removePodFinalizer } from "./writes.ts";

type P = DeepReadonly<Pod>;
type W = DeepReadonly<KueueWorkload>;

export function composeError(deps: GroupReconcilerDeps, pod: P, message: string): void {
  deps.events.event(referenceTo(pod, podsResource), "Warning", "ErrWorkloadCompose", message);
}

export async function finalizePods(
  deps: GroupReconcilerDeps,
  key: string,
  pods: readonly P[],
): Promise<void> {
  deps.expectations.expect(
    key,
    pods.map((p) => p.metadata.uid ?? ""),
  );
  for (const pod of pods) {
    try {
      if (!(await removePodFinalizer(deps, pod)))
        deps.expectations.observed(key, pod.metadata.uid ?? "");
    } catch (error: unknown) {
      deps.expectations.observed(key, pod.metadata.uid ?? "");
      throw error;
    }
  }
}

export async function removeExcessPods(
  deps: GroupReconcilerDeps,
  key: string,
  pods: readonly P[],
  message: (pod: P) => string,
): Promise<void> {
  deps.expectations.expect(
    key,
    pods.map((p) => p.metadata.uid ?? ""),
  );
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? "";
    try {
      await removePodFinalizer(deps, pod);
      if (pod.metadata.deletionTimestamp === undefined) {
        await deps.client.delete(
          podsResource,
          pod.metadata.namespace ?? "",
          pod.metadata.name ?? "",
        );
        deps.events.event(
          referenceTo(pod, podsResource),
          "Normal",
          "ExcessPodDeleted",
          message(pod),
        );
        deps.onExcessDeleted?.();
      }
    } catch (error: unknown) {
      deps.expectations.observed(key, uid);
      throw error;
    }
  }
}

/** Adds a non-controller owner reference to the Workload for every pod that lacks one. */
export async function ensureOwnedByAll(
  deps: GroupReconcilerDeps,
  workload: W,
  pods: readonly P[],
): Promise<W> {
  const owners = workload.metadata.ownerReferences ?? [];
  const missing = pods.filter((p) => !owners.some((o) => o.uid === p.metadata.uid));
  if (missing.length === 0) return workload;
  const next = deepCopy(workload) as KueueWorkload;
  next.metadata.ownerReferences = [
    ...(next.metadata.ownerReferences ?? []),
    ...missing.map((p) => ({
      apiVersion: "v1",
      kind: "Pod",
      name: p.metadata.name ?? "",
      uid: p.metadata.uid ?? "",
    })),
  ];
  const written = await deps.client.update<KueueWorkload>(
    kueueWorkloadsResource,
    withoutManagedFields(next),
  );
  deps.events.event(
    referenceTo(written, kueueWorkloadsResource),
    "Normal",
    "OwnerReferencesAdded",
    `Added ${missing.length} owner reference(s)`,
  );
  return written;
}

/** Kueue's WaitingForReplacementPods condition, or undefined when nothing changes. */
export function waitingForReplacement(
  workload: W,
  absent: number,
  now: string,
): Condition | undefined {
  const existing = findWorkloadCondition(
    workload.status?.conditions,
    waitingForReplacementPodsCondition,
  );
  if (existing === undefined && absent === 0) return undefined;
  const next: Condition =
    existing === undefined
      ? {
          type: waitingForReplacementPodsCondition,
          status: "False",
          reason: "",
          message: "",
          lastTransitionTime: now,
        }
      : (deepCopy(existing) as Condition);
  let updated = existing === undefined;
  if (absent > 0) {
    const evicted = findWorkloadCondition(workload.status?.conditions, evictedCondition);
    if (evicted?.status === "True") {
      if (next.reason !== evicted.reason || next.message !== evicted.message) updated = true;
      next.reason = evicted.reason;
      next.message = evicted.message;
    } else if (next.status !== "True") {
      next.reason = "PodsFailed";
      next.message = "Some Failed pods need replacement";
      updated = true;
    }
    if (next.status !== "True") {
      next.status = "True";
      updated = true;
    }
  } else if (next.status !== "False") {
    next.status = "False";
    next.reason = "PodsReady";
    next.message = "No pods need replacement";
    updated = true;
  }
  if (!updated) return undefined;
  next.lastTransitionTime = now;
  if (workload.metadata.generation !== undefined)
    next.observedGeneration = workload.metadata.generation;
  return next;
}

/**
 * Builds and creates the group's Workload when the group allows it; otherwise explains why on
 * the reconciled pod (Warning `ErrWorkloadCompose`) and waits for the next pod event.
 */
export async function createGroupWorkload(
  deps: GroupReconcilerDeps,
  key: string,
  group: string,
  pods: readonly P[],
  pod: P,
  driver: P | undefined,
  total: number,
): Promise<void> {
  await finalizePods(
    deps,
    key,
    pods.filter((p) => !isRunnableOrSucceeded(p)),
  );
  const active = pods.filter(isRunnableOrSucceeded);
  const fast = isFastAdmission(pod);
  if (driver === undefined && !fast && active.length < total) {
    composeError(deps, pod, `'${group}' group has fewer runnable pods than expected`);
    return;
  }
  const queue = queueNameOf(pod.metadata);
  for (const other of pods) {
    if (other.status?.phase === "Failed") continue;
    const otherQueue = queueNameOf(other.metadata);
    if (otherQueue !== queue) {
      composeError(
        deps,
        pod,
        `pods '${pod.metadata.name ?? ""}' and '${other.metadata.name ?? ""}' has different queue names: ${queue}!=${otherQueue}`,
      );
      return;
    }
    if (driver !== undefined) continue;
    const text = other.metadata.annotations?.[podGroupTotalCountAnnotation] ?? "";
    if (text !== String(total)) {
      composeError(
        deps,
        pod,
        `pods '${pod.metadata.name ?? ""}' and '${other.metadata.name ?? ""}' has different '${podGroupTotalCountAnnotation}' values: ${total}!=${text}`,
      );
      return;
    }
  }
  let kept = active;
  if (driver === undefined && active.length > total) {
    const sorted = sortActivePods(active);
    kept = sorted.slice(0, total);
    await removeExcessPods(deps, key, sorted.slice(total), () => "Excess pod deleted");
  }
  const sets =
    driver === undefined
      ? undefined
      : parsePodGroupSets(driver.metadata.annotations?.[podGroupSetsAnnotation] ?? "");
  const podSets =
    driver === undefined
      ? constructGroupPodSets(kept, fast ? total : undefined)
      : sets?.kind === "ok"
        ? podSetsOfDriver(sets.sets, driver)
        : [];
  if (podSets.length > maxPodSets) {
    composeError(deps, pod, tooManyRolesMessage);
    return;
  }
  if (podSets.length === 0) return;
  const owners = driver === undefined ? kept : [driver];
  const workload = workloadForGroup(group, pod, podSets, owners, priorityOf(deps, pod));
  // AlreadyExists means the cache is behind: the error requeues the group until it catches up.
  await deps.client.create<KueueWorkload>(kueueWorkloadsResource, workload);
  deps.events.event(
    referenceTo(pod, podsResource),
    "Normal",
    "CreatedWorkload",
    `Created Workload: ${pod.metadata.namespace ?? ""}/${group}`,
  );
}
