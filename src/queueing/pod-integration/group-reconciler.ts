/**
 * The reconciler of a pod group (Kueue's generic job reconciler with the pod integration's
 * composable job), keyed by namespace and group name. Level-triggered: every call recomputes
 * from the caches and makes at most the writes one step of Kueue's order needs:
 * 1. match the pods to the Workload named after the group: owner references for new members,
 *    excess pods (per role, youngest first) deleted, failed pods that replacements cover
 *    finalized; a Workload the pods outgrew is deleted and built again;
 * 2. WaitingForReplacementPods; 3. a Finished or deleted Workload lets its pods go;
 * 4. a finished group finishes its Workload; 5. no Workload: build it once the group is complete
 *    (or fast admission, or from the driver's `pod-group-sets`); 6. reclaimablePods;
 * 7. an evicted Workload stops every pod and, once none runs, gives its quota back;
 * 8. an admitted Workload ungates the gated pods of its roles; 9. running pods without an
 *    admitted Workload are stopped.
 */
import {
  evictedCondition,
  findWorkloadCondition,
  hasQuotaReservation,
  isWorkloadAdmitted,
  isWorkloadFinished,
  type KueueWorkload,
  managedLabel,
  type Pod,
  queueNameOf,
} from "../../api/index.ts";
import { podsResource, referenceTo } from "../../client/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import { kueueWorkloadsResource } from "../resources.ts";
import { withoutManagedFields } from "../write-body.ts";
import type { UidExpectations } from "./expectations.ts";
import {
  driverOf,
  groupFinished,
  isGatedPod,
  isSuspendedGroupPod,
  matchGroup,
  reclaimablePodsOf,
  roleOf,
  totalCountOf,
} from "./group-pods.ts";
import {
  createGroupWorkload,
  ensureOwnedByAll,
  finalizePods,
  removeExcessPods,
  waitingForReplacement,
} from "./group-steps.ts";
import type { PodReconcilerDeps } from "./pod-reconciler.ts";
import {
  clearReservation,
  ignoreNotFound,
  removePodFinalizer,
  removeWorkloadFinalizer,
  setReclaimablePods,
  setWorkloadConditionAs,
  setWorkloadFinished,
  stopPod,
  ungatePod,
} from "./writes.ts";

/** What the group reconciler needs beyond the single-pod reconciler's dependencies. */
export { waitingForReplacement } from "./group-steps.ts";

export interface GroupReconcilerDeps extends PodReconcilerDeps {
  readonly expectations: UidExpectations;
  /** Counts a pod deleted as excess (KEP-976's `pods_rejected_total`). */
  readonly onExcessDeleted?: () => void;
  /**
   * Runs before an admitted group's gated pods are ungated (gang scheduling of admitted
   * groups); and once its Workload has finished, to clean up.
   */
  readonly gang?: {
    beforeUngate(workload: DeepReadonly<KueueWorkload>, pods: readonly P[]): Promise<void>;
    finished(workload: DeepReadonly<KueueWorkload>): Promise<void>;
  };
}

type P = DeepReadonly<Pod>;

/** The key of a group in the pod workqueue: `group/<namespace>/<group name>`. */
export function groupKey(namespace: string, group: string): string {
  return `group/${namespace}/${group}`;
}

const created = (pod: P): number => Date.parse(pod.metadata.creationTimestamp ?? "") || 0;

/** Reconciles pod group `group` in `namespace`. Throws to be retried (conflicts included). */
export async function reconcileGroup(
  deps: GroupReconcilerDeps,
  namespace: string,
  group: string,
): Promise<void> {
  const key = groupKey(namespace, group);
  // Read the expectations before listing, so a pod that sneaks in meanwhile is not missed.
  const satisfied = deps.expectations.satisfied(key);
  const all = deps.indexes
    .podsOfGroup(namespace, group)
    .sort(
      (a, b) =>
        created(a) - created(b) || (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""),
    );
  let workload = deps.workloads.get(namespace, group);
  const pod = all[0];
  if (pod === undefined) {
    if (workload !== undefined) await removeWorkloadFinalizer(deps, workload);
    return;
  }
  if (pod.metadata.labels?.[managedLabel] !== "true") return;
  if (queueNameOf(pod.metadata) === "" && !deps.config.manageJobsWithoutQueueName) return;
  const driver = driverOf(all);
  const now = deps.clock.now();
  let pods: readonly P[] = all;
  let absent = 0;

  if (workload !== undefined && workload.metadata.deletionTimestamp === undefined) {
    const match = matchGroup(workload, all, now, driver !== undefined);
    if (!match.equivalent) {
      // The pods outgrew their Workload: running pods stop, it is deleted and built again.
      const total = totalCountOf(pod, driver);
      const done = typeof total === "number" && groupFinished(all, total, driver).finished;
      if (!all.some(isSuspendedGroupPod) && !done) {
        for (const p of all) {
          await stopPod(
            deps,
            p,
            "NoMatchingWorkload",
            "No matching Workload; restoring pod templates according to existent Workload",
          );
        }
      }
      await removeWorkloadFinalizer(deps, workload);
      await ignoreNotFound(deps.client.delete(kueueWorkloadsResource, namespace, group));
      deps.events.event(
        referenceTo(pod, podsResource),
        "Normal",
        "DeletedWorkload",
        `Deleted not matching Workload: ${namespace}/${group}`,
      );
      return;
    }
    if (!satisfied) return; // waiting to observe previous operations on pods
    pods = match.kept;
    absent = match.absent;
    workload = await ensureOwnedByAll(deps, workload, match.kept);
    await removeExcessPods(deps, key, match.excess, () => "Excess pod deleted");
    await removeExcessPods(
      deps,
      key,
      match.unknownRole,
      (p) => `Excess pod deleted: pod set "${roleOf(p)}" is not declared by the group's driver`,
    );
    await finalizePods(deps, key, match.replaced);
    const condition = waitingForReplacement(workload, absent, `${now.toISOString().slice(0, 19)}Z`);
    if (condition !== undefined) {
      await setWorkloadConditionAs(deps, workload, condition);
      return;
    }
  }

  if (workload !== undefined && isWorkloadFinished(workload)) {
    await finalizeAll(deps, all);
    await deps.gang?.finished(workload);
    await removeWorkloadFinalizer(deps, workload);
    return;
  }
  if (workload !== undefined && workload.metadata.deletionTimestamp !== undefined) {
    for (const p of all) await stopPod(deps, p, "WorkloadDeleted", "Workload is deleted");
    await finalizeAll(deps, all);
    await removeWorkloadFinalizer(deps, workload);
    return;
  }

  const total = totalCountOf(pod, driver);
  if (typeof total === "string") return; // the webhook rejects such pods; nothing to build
  const finished = groupFinished(pods, total, driver);
  if (finished.finished) {
    if (workload !== undefined) {
      await setWorkloadFinished(
        deps,
        workload,
        finished.success ? "Succeeded" : "Failed",
        finished.message,
      );
      deps.events.event(
        referenceTo(pod, podsResource),
        "Normal",
        "FinishedWorkload",
        `Workload '${namespace}/${group}' is declared finished`,
      );
    }
    await finalizeAll(deps, pods);
    return;
  }
  if (workload === undefined) {
    if (all.some((p) => p.status?.phase === "Running")) return;
    await createGroupWorkload(deps, key, group, all, pod, driver, total);
    return;
  }

  const reclaimable = reclaimablePodsOf(pods);
  if (JSON.stringify(reclaimable) !== JSON.stringify(workload.status?.reclaimablePods ?? [])) {
    await setReclaimablePods(deps, workload, reclaimable);
    return;
  }
  const active = pods.some((p) => p.status?.phase === "Running");
  const evicted = findWorkloadCondition(workload.status?.conditions, evictedCondition);
  if (evicted?.status === "True") {
    for (const p of pods) {
      if (!isSuspendedGroupPod(p))
        await stopPod(deps, p, `WorkloadEvictedDueTo${evicted.reason}`, evicted.message);
    }
    if (hasQuotaReservation(workload) && !active) await clearReservation(deps, workload, evicted);
    return;
  }
  if (pods.some(isSuspendedGroupPod)) {
    if (isWorkloadAdmitted(workload)) {
      const gated = pods.filter(isGatedPod);
      if (gated.length === 0) return;
      await deps.gang?.beforeUngate(workload, pods);
      const message = `Admitted by clusterQueue ${workload.status?.admission?.clusterQueue ?? ""}`;
      for (const p of gated) {
        const role = roleOf(p);
        if (!(workload.status?.admission?.podSetAssignments ?? []).some((a) => a.name === role))
          continue;
        await ungatePod(deps, p, workload, deps.flavors, role);
        deps.onUngated?.();
        deps.events.event(referenceTo(p, podsResource), "Normal", "Started", message);
      }
    } else if (workload.spec.queueName !== queueNameOf(pod.metadata)) {
      const next = deepCopy(workload) as KueueWorkload;
      next.spec.queueName = queueNameOf(pod.metadata);
      await deps.client.update<KueueWorkload>(kueueWorkloadsResource, withoutManagedFields(next));
    }
    return;
  }
  if (!isWorkloadAdmitted(workload)) {
    for (const p of pods) await stopPod(deps, p, "NotAdmitted", "Not admitted by cluster queue");
  }
}

/** Kueue's `Finalize` for a group: the managed finalizer off every pod. */
async function finalizeAll(deps: GroupReconcilerDeps, pods: readonly P[]): Promise<void> {
  for (const p of pods) await removePodFinalizer(deps, p);
}
