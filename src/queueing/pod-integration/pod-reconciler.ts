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
  finishedCondition,
  isWorkloadAdmitted,
  isWorkloadEvicted,
  isWorkloadFinished,
  type KueueWorkload,
  kueueTime,
  managedFinalizer,
  managedLabel,
  type Pod,
  podPriorityClassSource,
  podSetLabel,
  queueNameOf,
  type ResourceFlavor,
  resourceInUseFinalizer,
  setWorkloadCondition,
  type Toleration,
  type WorkloadPriorityClass,
  workloadPriorityClassLabel,
  workloadPriorityClassSource,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  isNotFound,
  type Lister,
  podsResource,
  referenceTo,
} from "../../client/index.ts";
import type { Clock, DeepReadonly } from "../../util/index.ts";
import type { QueueingConfig } from "../config.ts";
import { kueueWorkloadsResource } from "../resources.ts";
import { type WorkloadPriority, workloadForPod } from "./workload-for-pod.ts";

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
  /** Counts a pod whose admission gate was removed. */
  readonly onUngated?: () => void;
}

type P = DeepReadonly<Pod>;
type W = DeepReadonly<KueueWorkload>;

/** The Workload controlled by the pod with this UID, if cached. */
export function workloadOfPod(
  workloads: Lister<KueueWorkload>,
  namespace: string,
  uid: string,
): W | undefined {
  return workloads
    .list(namespace)
    .find((w) =>
      w.metadata.ownerReferences?.some(
        (o) => o.controller === true && o.kind === "Pod" && o.uid === uid,
      ),
    );
}

function isGated(pod: P): boolean {
  return (pod.spec.schedulingGates ?? []).some((g) => g.name === admissionGate);
}

function isTerminated(pod: P): boolean {
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

function priorityOf(deps: PodReconcilerDeps, pod: P): WorkloadPriority {
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

async function removeWorkloadFinalizer(deps: PodReconcilerDeps, workload: W): Promise<void> {
  if (!(workload.metadata.finalizers ?? []).includes(resourceInUseFinalizer)) return;
  const next = structuredClone(workload) as KueueWorkload;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter(
    (f) => f !== resourceInUseFinalizer,
  );
  await ignoreNotFound(deps.client.update<KueueWorkload>(kueueWorkloadsResource, next));
}

async function removePodFinalizer(deps: PodReconcilerDeps, pod: P): Promise<void> {
  if (!(pod.metadata.finalizers ?? []).includes(managedFinalizer)) return;
  const next = structuredClone(pod) as Pod;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== managedFinalizer);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  await ignoreNotFound(deps.client.update<Pod>(podsResource, next));
}

async function ignoreNotFound(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
}

/** Kueue's `stop`: the TerminationTarget condition, then DELETE, then event `Stopped`. */
export async function stopPod(
  deps: PodReconcilerDeps,
  pod: P,
  reason: string,
  message: string,
): Promise<void> {
  if (pod.metadata.deletionTimestamp !== undefined) return;
  const next = structuredClone(pod) as Pod;
  const now = kueueTime(deps.clock.now());
  const conditions = (next.status?.conditions ?? []).filter((c) => c.type !== "TerminationTarget");
  conditions.push({
    type: "TerminationTarget",
    status: "True",
    reason,
    message,
    lastTransitionTime: now,
  } as never);
  next.status = { ...next.status, conditions };
  await ignoreNotFound(deps.client.updateStatus<Pod>(podsResource, next));
  await ignoreNotFound(
    deps.client.delete(podsResource, pod.metadata.namespace ?? "", pod.metadata.name ?? ""),
  );
  deps.events.event(referenceTo(pod, podsResource), "Normal", "Stopped", message);
}

/** What admitting adds to a pod: the PodSet label, flavor node labels and tolerations. */
export function ungatedPod(pod: P, workload: W, flavors: Lister<ResourceFlavor>): Pod {
  const next = structuredClone(pod) as Pod;
  const assignment = workload.status?.admission?.podSetAssignments?.[0];
  const podSet = assignment?.name ?? "main";
  const nodeSelector: Record<string, string> = { ...next.spec.nodeSelector };
  const tolerations: Toleration[] = [...(next.spec.tolerations ?? [])];
  for (const flavorName of new Set(Object.values(assignment?.flavors ?? {}))) {
    const flavor = flavors.get(undefined, flavorName);
    Object.assign(nodeSelector, flavor?.spec?.nodeLabels ?? {});
    for (const t of flavor?.spec?.tolerations ?? []) {
      if (!tolerations.some((have) => JSON.stringify(have) === JSON.stringify(t)))
        tolerations.push(structuredClone(t) as Toleration);
    }
  }
  next.metadata.labels = { ...next.metadata.labels, [podSetLabel]: podSet };
  if (Object.keys(nodeSelector).length > 0) next.spec.nodeSelector = nodeSelector;
  if (tolerations.length > 0) next.spec.tolerations = tolerations;
  const gates = (next.spec.schedulingGates ?? []).filter((g) => g.name !== admissionGate);
  if (gates.length > 0) next.spec.schedulingGates = gates;
  else delete next.spec.schedulingGates;
  return next;
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
    for (const w of deps.workloads.list(namespace)) {
      const owner = w.metadata.ownerReferences?.find(
        (o) => o.controller === true && o.kind === "Pod",
      );
      if (owner?.name === name && deps.pods.get(namespace, name)?.metadata.uid !== owner.uid) {
        await removeWorkloadFinalizer(deps, w);
      }
    }
    return;
  }
  if (pod.metadata.labels?.[managedLabel] !== "true") return;
  const workload = workloadOfPod(deps.workloads, namespace, pod.metadata.uid ?? "");
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
      const next = structuredClone(workload) as KueueWorkload;
      next.status = {
        ...next.status,
        conditions: setWorkloadCondition(
          next.status?.conditions,
          { type: finishedCondition, status: "True", reason, message: pod.status?.message ?? "" },
          deps.clock.now(),
        ),
      };
      await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, next);
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
  if (isWorkloadEvicted(workload)) {
    const evicted = workload.status?.conditions?.find((c) => c.type === "Evicted");
    await stopPod(
      deps,
      pod,
      `WorkloadEvictedDueTo${evicted?.reason ?? ""}`,
      evicted?.message ?? "",
    );
    return;
  }
  if (isGated(pod)) {
    if (isWorkloadAdmitted(workload)) {
      await deps.client.update<Pod>(podsResource, ungatedPod(pod, workload, deps.flavors));
      deps.onUngated?.();
      deps.events.event(
        referenceTo(pod, podsResource),
        "Normal",
        "Started",
        `Admitted by clusterQueue ${workload.status?.admission?.clusterQueue ?? ""}`,
      );
    } else if (workload.spec.queueName !== queueNameOf(pod.metadata)) {
      const next = structuredClone(workload) as KueueWorkload;
      next.spec.queueName = queueNameOf(pod.metadata);
      await deps.client.update<KueueWorkload>(kueueWorkloadsResource, next);
    }
    return;
  }
  if (!isWorkloadAdmitted(workload)) {
    await stopPod(deps, pod, "NotAdmitted", "Not admitted by cluster queue");
  }
}
