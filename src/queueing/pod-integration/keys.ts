/**
 * How pod and Workload events become reconcile keys (Kueue's podEventHandler and
 * workloadHandler), and the one entry point the component's workers call for a key. A single
 * pod is keyed `<namespace>/<name>`; every pod of a group is keyed `group/<namespace>/<group>`.
 */
import {
  isGroupWorkloadAnnotation,
  isWorkloadAdmitted,
  isWorkloadEvicted,
  type KueueWorkload,
  managedFinalizer,
  type Pod,
  podGroupNameLabel,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { UidExpectations } from "./expectations.ts";
import { type GroupReconcilerDeps, groupKey, reconcileGroup } from "./group-reconciler.ts";
import { reconcilePod } from "./pod-reconciler.ts";
import type { Lane } from "./reconcile-queue.ts";

/** The key a pod's events map to. */
export function podEventKey(pod: DeepReadonly<Pod>): string {
  const namespace = pod.metadata.namespace ?? "";
  const group = pod.metadata.labels?.[podGroupNameLabel];
  return group === undefined || group === ""
    ? `${namespace}/${pod.metadata.name ?? ""}`
    : groupKey(namespace, group);
}

/** The keys a Workload's events map to: its group, or the pod that controls it. */
export function workloadEventKeys(workload: DeepReadonly<KueueWorkload>): string[] {
  const namespace = workload.metadata.namespace ?? "";
  if (workload.metadata.annotations?.[isGroupWorkloadAnnotation] === "true") {
    return [groupKey(namespace, workload.metadata.name ?? "")];
  }
  const owner = workload.metadata.ownerReferences?.find(
    (o) => o.controller === true && o.kind === "Pod",
  );
  return owner === undefined ? [] : [`${namespace}/${owner.name}`];
}

/**
 * The lane a Workload event's keys go in: `front` when the Workload's pods have to change now
 * (admitted: the gates come off; evicted or being deleted: the pods stop), so that they do not
 * wait behind the creations of newer pods; `back` otherwise.
 */
export function workloadEventLane(workload: DeepReadonly<KueueWorkload>): Lane {
  return isWorkloadAdmitted(workload) ||
    isWorkloadEvicted(workload) ||
    workload.metadata.deletionTimestamp !== undefined
    ? "front"
    : "back";
}

/**
 * Marks a group pod's finalization or deletion as observed: `pod` was deleted, or it no longer
 * carries the managed finalizer.
 */
export function observePod(
  expectations: UidExpectations,
  pod: DeepReadonly<Pod>,
  deleted: boolean,
): void {
  const group = pod.metadata.labels?.[podGroupNameLabel];
  if (group === undefined || group === "") return;
  if (deleted || !(pod.metadata.finalizers ?? []).includes(managedFinalizer)) {
    expectations.observed(groupKey(pod.metadata.namespace ?? "", group), pod.metadata.uid ?? "");
  }
}

/** Reconciles whatever `key` names. Throws to be retried. */
export async function reconcileKey(deps: GroupReconcilerDeps, key: string): Promise<void> {
  if (key.startsWith("group/")) {
    const rest = key.slice("group/".length);
    const slash = rest.indexOf("/");
    await reconcileGroup(deps, rest.slice(0, slash), rest.slice(slash + 1));
    return;
  }
  const slash = key.indexOf("/");
  await reconcilePod(deps, key.slice(0, slash), key.slice(slash + 1));
}
