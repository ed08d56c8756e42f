/**
 * The Workload statuses the admission cycle writes, built from the cached Workload: the quota
 * reservation (Kueue's `SetQuotaReservation` with no admission checks: QuotaReserved and
 * Admitted at once, a past eviction reset), a preemption victim's Evicted and Preempted
 * conditions, and a waiting Workload's QuotaReserved=False message.
 */
import {
  admittedCondition,
  type Condition,
  evictedCondition,
  type KueueWorkload,
  preemptedCondition,
  quotaReservedCondition,
  requeuedCondition,
  setWorkloadCondition,
} from "../../api/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import type { PreemptionTarget } from "./preemption.ts";

type Wl = DeepReadonly<KueueWorkload>;

/** When the Workload joined its queue last: its last requeue, else its creation (ms). */
export function queuedAt(workload: Wl): number {
  const requeued = workload.status?.conditions?.find(
    (c) => c.type === requeuedCondition && c.status === "True",
  );
  return Date.parse(requeued?.lastTransitionTime ?? workload.metadata.creationTimestamp ?? "");
}

/** `SetQuotaReservation`: QuotaReserved and Admitted True, a past eviction reset. */
export function reservedStatus(
  workload: Wl,
  admission: NonNullable<KueueWorkload["status"]>["admission"],
  now: Date,
): KueueWorkload["status"] {
  let conditions = (workload.status?.conditions ?? []) as Condition[];
  conditions = setWorkloadCondition(
    conditions,
    {
      type: quotaReservedCondition,
      status: "True",
      reason: "QuotaReserved",
      message: `Quota reserved in ClusterQueue ${admission?.clusterQueue ?? ""}`,
    },
    now,
  );
  conditions = setWorkloadCondition(
    conditions,
    {
      type: admittedCondition,
      status: "True",
      reason: "Admitted",
      message: "The workload is admitted",
    },
    now,
  );
  for (const type of [evictedCondition, preemptedCondition]) {
    const previous = conditions.find((c) => c.type === type);
    if (previous === undefined || previous.status !== "True") continue;
    conditions = setWorkloadCondition(
      conditions,
      {
        type,
        status: "False",
        reason: "QuotaReserved",
        message: `Previously: ${previous.message}`,
      },
      now,
    );
  }
  const status = { ...deepCopy(workload.status), admission, conditions } as NonNullable<
    KueueWorkload["status"]
  >;
  delete status.resourceRequests;
  return status;
}

/** A victim's status once preempted: Evicted (reason Preempted) and Preempted True. */
export function preemptedStatus(
  victim: Wl,
  reason: PreemptionTarget["reason"],
  message: string,
  now: Date,
): KueueWorkload["status"] {
  let conditions = setWorkloadCondition(
    (victim.status?.conditions ?? []) as Condition[],
    { type: evictedCondition, status: "True", reason: "Preempted", message },
    now,
  );
  conditions = setWorkloadCondition(
    conditions,
    { type: preemptedCondition, status: "True", reason, message },
    now,
  );
  return { ...deepCopy(victim.status), conditions } as KueueWorkload["status"];
}

/**
 * The Workload with `QuotaReserved=False` (`reason`, `message`), or `undefined` when it says
 * that already.
 */
export function withPendingCondition(
  workload: Wl,
  reason: string,
  message: string,
  now: Date,
): KueueWorkload | undefined {
  const current = workload.status?.conditions?.find((c) => c.type === quotaReservedCondition);
  if (current?.status === "False" && current.reason === reason && current.message === message) {
    return undefined;
  }
  const next = deepCopy(workload) as KueueWorkload;
  next.status = {
    ...next.status,
    conditions: setWorkloadCondition(
      next.status?.conditions,
      { type: quotaReservedCondition, status: "False", reason, message },
      now,
    ),
  };
  return next;
}
