/**
 * Pure helpers over Kueue objects: condition lookup and update (as apimachinery's
 * `meta.SetStatusCondition`), workload states, and the queue name of a pod.
 */
import type { DeepReadonly } from "../../../util/index.ts";
import type { Condition, ObjectMeta } from "../../meta/types.ts";
import {
  admittedCondition,
  evictedCondition,
  finishedCondition,
  queueNameLabel,
  quotaReservedCondition,
} from "./names.ts";
import type { Workload } from "./types.ts";

/** The condition of `type`, if present. */
export function findWorkloadCondition(
  conditions: readonly DeepReadonly<Condition>[] | undefined,
  type: string,
): DeepReadonly<Condition> | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Whether the condition of `type` is present with status True. */
export function isConditionTrue(
  conditions: readonly DeepReadonly<Condition>[] | undefined,
  type: string,
): boolean {
  return findWorkloadCondition(conditions, type)?.status === "True";
}

/**
 * `meta.SetStatusCondition`: a new list with `next` in place of the condition of its type.
 * The transition time moves only when the status changes. Returns the same array (by
 * identity) when nothing changed, so callers can skip the write.
 */
export function setWorkloadCondition(
  conditions: readonly Condition[] | undefined,
  next: Omit<Condition, "lastTransitionTime">,
  now: Date,
): Condition[] {
  const list = conditions === undefined ? [] : [...conditions];
  const index = list.findIndex((c) => c.type === next.type);
  const existing = index === -1 ? undefined : list[index];
  if (existing === undefined) {
    list.push({ ...next, lastTransitionTime: kueueTime(now) });
    return list;
  }
  if (
    existing.status === next.status &&
    existing.reason === next.reason &&
    existing.message === next.message &&
    existing.observedGeneration === next.observedGeneration
  ) {
    return conditions as Condition[];
  }
  list[index] = {
    ...next,
    lastTransitionTime:
      existing.status === next.status ? existing.lastTransitionTime : kueueTime(now),
  };
  return list;
}

/** RFC 3339 with whole seconds, as metav1.Time marshals. */
export function kueueTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function isWorkloadFinished(workload: DeepReadonly<Workload>): boolean {
  return isConditionTrue(workload.status?.conditions, finishedCondition);
}

export function hasQuotaReservation(workload: DeepReadonly<Workload>): boolean {
  return isConditionTrue(workload.status?.conditions, quotaReservedCondition);
}

export function isWorkloadAdmitted(workload: DeepReadonly<Workload>): boolean {
  return isConditionTrue(workload.status?.conditions, admittedCondition);
}

export function isWorkloadEvicted(workload: DeepReadonly<Workload>): boolean {
  return isConditionTrue(workload.status?.conditions, evictedCondition);
}

/** The LocalQueue a pod asks for: its label, else the deprecated annotation of the same key. */
export function queueNameOf(meta: DeepReadonly<ObjectMeta>): string {
  return meta.labels?.[queueNameLabel] ?? meta.annotations?.[queueNameLabel] ?? "";
}
