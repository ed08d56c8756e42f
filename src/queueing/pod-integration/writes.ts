/**
 * The writes Kueue's pod reconciler makes, shared by the single-pod and the group reconcilers:
 * finalizers off pods and Workloads, stopping a pod (TerminationTarget, then DELETE, event
 * `Stopped`), ungating, and the Workload status changes it owns (Finished, the reservation
 * cleared after an eviction, reclaimablePods, WaitingForReplacementPods). Each write is a
 * compare-and-swap against the cached object: a conflict throws and the key is retried.
 */
import {
  admissionGate,
  admittedCondition,
  type Condition,
  finishedCondition,
  type KueueWorkload,
  kueueTime,
  managedFinalizer,
  type Pod,
  podSetLabel,
  quotaReservedCondition,
  type ReclaimablePod,
  type ResourceFlavor,
  requeuedCondition,
  resourceInUseFinalizer,
  setWorkloadCondition,
  type Toleration,
  terminationTargetCondition,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  isNotFound,
  type Lister,
  podsResource,
  referenceTo,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy } from "../../util/index.ts";
import { kueueWorkloadsResource } from "../resources.ts";
import { mergePatchOf, statusOnly, withoutManagedFields } from "../write-body.ts";

type P = DeepReadonly<Pod>;
type W = DeepReadonly<KueueWorkload>;

/** What the writes need. */
export interface WriteDeps {
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
}

export async function ignoreNotFound(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
}

export async function removeWorkloadFinalizer(deps: WriteDeps, workload: W): Promise<void> {
  if (!(workload.metadata.finalizers ?? []).includes(resourceInUseFinalizer)) return;
  const next = deepCopy(workload) as KueueWorkload;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter(
    (f) => f !== resourceInUseFinalizer,
  );
  await ignoreNotFound(
    deps.client.update<KueueWorkload>(kueueWorkloadsResource, withoutManagedFields(next)),
  );
}

/** Removes `kueue.x-k8s.io/managed`; true when there was one to remove. */
export async function removePodFinalizer(deps: WriteDeps, pod: P): Promise<boolean> {
  if (!(pod.metadata.finalizers ?? []).includes(managedFinalizer)) return false;
  const next = deepCopy(pod) as Pod;
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== managedFinalizer);
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
  await ignoreNotFound(deps.client.update<Pod>(podsResource, withoutManagedFields(next)));
  return true;
}

/**
 * Kueue's `stop` for one pod: the `TerminationTarget` condition (reason `reason`, message
 * `message`), then DELETE, then event `Stopped`. A pod already being deleted is left alone; one
 * already marked with the same condition is only deleted. Returns whether the pod was stopped now.
 */
export async function stopPod(
  deps: WriteDeps,
  pod: P,
  reason: string,
  message: string,
): Promise<boolean> {
  if (pod.metadata.deletionTimestamp !== undefined) return false;
  const marked = pod.status?.conditions?.find((c) => c.type === terminationTargetCondition);
  // Marked already (an earlier DELETE failed): only the DELETE is left to do.
  if (marked?.status !== "True" || marked.reason !== reason || marked.message !== message) {
    await ignoreNotFound(
      deps.client.updateStatus<Pod>(
        podsResource,
        withoutManagedFields(terminationTarget(pod, reason, message, deps.clock.now())),
      ),
    );
  }
  await ignoreNotFound(
    deps.client.delete(podsResource, pod.metadata.namespace ?? "", pod.metadata.name ?? ""),
  );
  deps.events.event(referenceTo(pod, podsResource), "Normal", "Stopped", message);
  return true;
}

/** `pod` with the `TerminationTarget` condition (True, `reason`, `message`) set at `now`. */
function terminationTarget(pod: P, reason: string, message: string, now: Date): Pod {
  const next = deepCopy(pod) as Pod;
  const conditions = (next.status?.conditions ?? []).filter(
    (c) => c.type !== terminationTargetCondition,
  );
  conditions.push({
    type: terminationTargetCondition,
    status: "True",
    reason,
    message,
    lastTransitionTime: kueueTime(now),
  } as never);
  next.status = { ...next.status, conditions };
  return next;
}

/**
 * What admitting adds to a pod of PodSet `podSet` (the first assignment when undefined): the
 * `kueue.x-k8s.io/podset` label, the assigned flavors' node labels and tolerations; the
 * admission gate comes off. Other gates stay.
 */
export function ungatedPod(
  pod: P,
  workload: W,
  flavors: Lister<ResourceFlavor>,
  podSet?: string,
): Pod {
  // Built over the cached pod's own parts (serialized as they are, never mutated): a deep copy
  // of the whole pod, managedFields and status included, was most of this function's cost.
  const assignments = workload.status?.admission?.podSetAssignments ?? [];
  const assignment =
    podSet === undefined ? assignments[0] : assignments.find((a) => a.name === podSet);
  const nodeSelector: Record<string, string> = { ...pod.spec.nodeSelector };
  const tolerations = [...(pod.spec.tolerations ?? [])] as Toleration[];
  for (const flavorName of new Set(Object.values(assignment?.flavors ?? {}))) {
    const flavor = flavors.get(undefined, flavorName);
    Object.assign(nodeSelector, flavor?.spec?.nodeLabels ?? {});
    for (const t of flavor?.spec?.tolerations ?? []) {
      if (!tolerations.some((have) => JSON.stringify(have) === JSON.stringify(t)))
        tolerations.push(t as Toleration);
    }
  }
  const spec = { ...pod.spec } as Pod["spec"];
  if (Object.keys(nodeSelector).length > 0) spec.nodeSelector = nodeSelector;
  if (tolerations.length > 0) spec.tolerations = tolerations;
  const gates = (pod.spec.schedulingGates ?? []).filter((g) => g.name !== admissionGate);
  if (gates.length > 0) spec.schedulingGates = gates as NonNullable<Pod["spec"]["schedulingGates"]>;
  else delete spec.schedulingGates;
  return withoutManagedFields({
    ...(pod as Pod),
    metadata: {
      ...(pod.metadata as Pod["metadata"]),
      labels: { ...pod.metadata.labels, [podSetLabel]: assignment?.name ?? podSet ?? "main" },
    },
    spec,
  });
}

/**
 * Ungates `pod` as Kueue's `Run` does (`clientutil.Patch` with `strict`): a JSON merge patch from
 * the cached pod to `ungatedPod(…)`, carrying the cached `metadata.resourceVersion` so that it
 * conflicts (409) when the pod changed since.
 */
export async function ungatePod(
  deps: Pick<WriteDeps, "client">,
  pod: P,
  workload: W,
  flavors: Lister<ResourceFlavor>,
  podSet?: string,
): Promise<void> {
  const before = withoutManagedFields(pod);
  const patch = (mergePatchOf(before, ungatedPod(pod, workload, flavors, podSet)) ?? {}) as {
    metadata?: Record<string, unknown>;
  };
  patch.metadata = { ...patch.metadata, resourceVersion: pod.metadata.resourceVersion ?? "" };
  await deps.client.patch<Pod>(
    podsResource,
    pod.metadata.namespace ?? "",
    pod.metadata.name ?? "",
    "merge",
    patch,
  );
}

async function writeStatus(
  deps: WriteDeps,
  workload: W,
  edit: (next: KueueWorkload) => void,
): Promise<void> {
  const next = deepCopy(workload) as KueueWorkload;
  edit(next);
  if (JSON.stringify(next.status) === JSON.stringify(workload.status)) return;
  await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, statusOnly(next));
}

function withCondition(
  next: KueueWorkload,
  condition: Omit<Condition, "lastTransitionTime">,
  now: Date,
): void {
  next.status = {
    ...next.status,
    conditions: setWorkloadCondition(next.status?.conditions, condition, now),
  };
}

/** `Finished=True` with `reason` and `message`. */
export async function setWorkloadFinished(
  deps: WriteDeps,
  workload: W,
  reason: string,
  message: string,
): Promise<void> {
  await writeStatus(deps, workload, (next) =>
    withCondition(
      next,
      { type: finishedCondition, status: "True", reason, message },
      deps.clock.now(),
    ),
  );
}

/**
 * After an eviction, once no pod runs: the admission is cleared (`QuotaReserved=False/Pending`
 * with the eviction's message, `Admitted=False/NoReservation`) and `Requeued` records the
 * eviction, True only for Preempted and AdmissionCheck evictions (Kueue's jobframework step 6).
 */
export async function clearReservation(
  deps: WriteDeps,
  workload: W,
  evicted: DeepReadonly<Condition>,
): Promise<void> {
  const now = deps.clock.now();
  await writeStatus(deps, workload, (next) => {
    const requeued = evicted.reason === "Preempted" || evicted.reason === "AdmissionCheck";
    withCondition(
      next,
      {
        type: requeuedCondition,
        status: requeued ? "True" : "False",
        reason: evicted.reason,
        message: evicted.message,
      },
      now,
    );
    withCondition(
      next,
      {
        type: quotaReservedCondition,
        status: "False",
        reason: "Pending",
        message: evicted.message,
      },
      now,
    );
    if (next.status?.conditions?.some((c) => c.type === admittedCondition)) {
      withCondition(
        next,
        {
          type: admittedCondition,
          status: "False",
          reason: "NoReservation",
          message: "The workload has no reservation",
        },
        now,
      );
    }
    if (next.status !== undefined) delete next.status.admission;
  });
}

/** `status.reclaimablePods` (an empty list is written as absent). */
export async function setReclaimablePods(
  deps: WriteDeps,
  workload: W,
  pods: readonly ReclaimablePod[],
): Promise<void> {
  if (pods.length === 0 && workload.status?.reclaimablePods === undefined) return;
  await writeStatus(deps, workload, (next) => {
    next.status = { ...next.status };
    if (pods.length === 0) delete next.status.reclaimablePods;
    else next.status.reclaimablePods = pods.map((p) => ({ ...p }));
  });
}

/** Writes `condition` as is (the caller decides transitions, as Kueue's custom conditions). */
export async function setWorkloadConditionAs(
  deps: WriteDeps,
  workload: W,
  condition: Condition,
): Promise<void> {
  await writeStatus(deps, workload, (next) => {
    const list = [...(next.status?.conditions ?? [])];
    const index = list.findIndex((c) => c.type === condition.type);
    if (index === -1) list.push(condition);
    else list[index] = condition;
    next.status = { ...next.status, conditions: list };
  });
}
