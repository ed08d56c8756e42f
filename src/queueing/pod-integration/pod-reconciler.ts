/**
 * The pod ↔ Workload reconciler for single pods (Kueue's generic job reconciler applied to a
 * plain pod). Level-triggered: `reconcilePod(key)` recomputes from the caches.
 * - A managed, gated pod without a Workload gets one (`pod-<name>-<hash>`).
 * - Once the Workload is Admitted, the gate comes off, the `kueue.x-k8s.io/podset` label goes
 *   on and the flavors' node labels and tolerations are merged into the pod (event `Started`).
 * - A finished pod finishes its Workload (`Finished`, reason Succeeded/Failed, the pod's status
 *   message), then its finalizer comes off. A deleted pod releases its Workload's finalizer.
 * - An ungated pod whose Workload is not admitted (or is deleted or evicted) is stopped: the
 *   `TerminationTarget` condition, then DELETE (event `Stopped`).
 */
import {
  admissionGate,
  evictedCondition,
  findWorkloadCondition,
  hasQuotaReservation,
  isWorkloadAdmitted,
  isWorkloadEvicted,
  isWorkloadFinished,
  type KueueWorkload,
  managedLabel,
  type Pod,
  podPriorityClassSource,
  queueNameOf,
  type ResourceFlavor,
  type WorkloadPriorityClass,
  workloadPriorityClassLabel,
  workloadPriorityClassSource,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  type Lister,
  podsResource,
  referenceTo,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy } from "../../util/index.ts";
import type { QueueingConfig } from "../config.ts";
import { kueueWorkloadsResource } from "../resources.ts";
import { withoutManagedFields } from "../write-body.ts";
import type { PodIndexes } from "./indexes.ts";
import { type WorkloadPriority, workloadForPod } from "./workload-for-pod.ts";
import {
  clearReservation,
  removePodFinalizer,
  removeWorkloadFinalizer,
  setWorkloadFinished,
  stopPod,
  ungatePod,
} from "./writes.ts";

export interface PodReconcilerDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly config: QueueingConfig;
  readonly pods: Lister<Pod>;
  readonly workloads: Lister<KueueWorkload>;
  readonly flavors: Lister<ResourceFlavor>;
  readonly workloadPriorityClasses: Lister<WorkloadPriorityClass>;
  readonly priorityClasses: Lister<{
    metadata: { name?: string };
    value: number;
    globalDefault?: boolean;
    [k: string]: unknown;
  }>;
  readonly events: EventRecorder;
  /** Workloads by controlling pod and pods by group, kept by the informers. */
  readonly indexes: PodIndexes;
  /** Counts a pod whose admission gate was removed. */
  readonly onUngated?: () => void;
}

type P = DeepReadonly<Pod>;

function isGated(pod: P): boolean {
  return (pod.spec.schedulingGates ?? []).some((g) => g.name === admissionGate);
}

function isTerminated(pod: P): boolean {
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

function isSuspended(pod: P): boolean {
  return isGated(pod) || isTerminated(pod);
}

export function priorityOf(deps: PodReconcilerDeps, pod: P): WorkloadPriority {
  const wpcName = pod.metadata.labels?.[workloadPriorityClassLabel];
  if (wpcName !== undefined) {
    const wpc = deps.workloadPriorityClasses.get(undefined, wpcName);
    if (wpc !== undefined) {
      return {
        priority: wpc.value,
        priorityClassName: wpcName,
        priorityClassSource: workloadPriorityClassSource,
      };
    }
  }
  const className = pod.spec.priorityClassName;
  if (className !== undefined && className !== "") {
    const pc = deps.priorityClasses.get(undefined, className);
    if (pc !== undefined) {
      return {
        priority: pc.value,
        priorityClassName: className,
        priorityClassSource: podPriorityClassSource,
      };
    }
  }
  const defaults = deps.priorityClasses.list().filter((pc) => pc.globalDefault === true);
  defaults.sort((a, b) => a.value - b.value);
  const lowest = defaults[0];
  if (lowest !== undefined) {
    return {
      priority: lowest.value,
      priorityClassName: lowest.metadata.name ?? "",
      priorityClassSource: podPriorityClassSource,
    };
  }
  return { priority: 0 };
}

/** Reconciles the single pod `namespace/name`. Throws to be retried (conflicts included). */
export async function reconcilePod(
  deps: PodReconcilerDeps,
  namespace: string,
  name: string,
): Promise<void> {
  const pod = deps.pods.get(namespace, name);
  if (pod === undefined) {
    // Gone: the Workloads it controlled let go of their finalizer and are collected with it.
    for (const w of deps.indexes.workloadsControlledBy(namespace, name)) {
      await removeWorkloadFinalizer(deps, w);
    }
    return;
  }
  if (pod.metadata.labels?.[managedLabel] !== "true") return;
  const workload = deps.indexes.workloadOfPod(pod.metadata.uid ?? "");
  if (pod.metadata.deletionTimestamp !== undefined) {
    if (workload !== undefined) await removeWorkloadFinalizer(deps, workload);
    await removePodFinalizer(deps, pod);
    return;
  }
  if (queueNameOf(pod.metadata) === "" && !deps.config.manageJobsWithoutQueueName) return;
  if (workload !== undefined && isWorkloadFinished(workload)) {
    await removePodFinalizer(deps, pod);
    await removeWorkloadFinalizer(deps, workload);
    return;
  }
  if (workload !== undefined && workload.metadata.deletionTimestamp !== undefined) {
    await stopPod(deps, pod, "WorkloadDeleted", "Workload is deleted");
    await removeWorkloadFinalizer(deps, workload);
    return;
  }
  if (isTerminated(pod)) {
    if (workload !== undefined) {
      const reason = pod.status?.phase === "Succeeded" ? "Succeeded" : "Failed";
      await setWorkloadFinished(deps, workload, reason, pod.status?.message ?? "");
      deps.events.event(
        referenceTo(pod, podsResource),
        "Normal",
        "FinishedWorkload",
        `Workload '${namespace}/${workload.metadata.name ?? ""}' is declared finished`,
      );
    }
    await removePodFinalizer(deps, pod);
    return;
  }
  if (workload === undefined) {
    const created = await deps.client.create<KueueWorkload>(
      kueueWorkloadsResource,
      workloadForPod(pod, priorityOf(deps, pod)),
    );
    deps.events.event(
      referenceTo(pod, podsResource),
      "Normal",
      "CreatedWorkload",
      `Created Workload: ${namespace}/${created.metadata.name ?? ""}`,
    );
    return;
  }
  const evicted = findWorkloadCondition(workload.status?.conditions, evictedCondition);
  if (evicted !== undefined && isWorkloadEvicted(workload)) {
    if (!isSuspended(pod)) {
      await stopPod(deps, pod, `WorkloadEvictedDueTo${evicted.reason}`, evicted.message);
    }
    // A single pod is never "active" for Kueue: its quota goes as soon as it is told to stop.
    if (hasQuotaReservation(workload)) await clearReservation(deps, workload, evicted);
    return;
  }
  if (isGated(pod)) {
    if (isWorkloadAdmitted(workload)) {
      await ungatePod(deps, pod, workload, deps.flavors);
      deps.onUngated?.();
      deps.events.event(
        referenceTo(pod, podsResource),
        "Normal",
        "Started",
        `Admitted by clusterQueue ${workload.status?.admission?.clusterQueue ?? ""}`,
      );
    } else if (workload.spec.queueName !== queueNameOf(pod.metadata)) {
      const next = deepCopy(workload) as KueueWorkload;
      next.spec.queueName = queueNameOf(pod.metadata);
      await deps.client.update<KueueWorkload>(kueueWorkloadsResource, withoutManagedFields(next));
    }
    return;
  }
  if (!isWorkloadAdmitted(workload)) {
    await stopPod(deps, pod, "NotAdmitted", "Not admitted by cluster queue");
  }
}
