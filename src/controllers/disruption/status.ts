/**
 * The disruption controller's arithmetic, pure (upstream's getExpectedPodCount,
 * buildDisruptedPodMap, countHealthyPods, updatePdbStatus and failSafe in
 * pkg/controller/disruption/disruption.go).
 */
import {
  type Condition,
  disruptionAllowedCondition,
  insufficientPodsReason,
  isPodReady,
  type Pod,
  type PodDisruptionBudget,
  type PodDisruptionBudgetSpec,
  type PodDisruptionBudgetStatus,
  semanticEqual,
  sufficientPodsReason,
  syncFailedReason,
} from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";

/** How long an approved eviction keeps its pod out of `currentHealthy` (DeletionTimeout). */
export const deletionTimeoutMs = 2 * 60 * 1000;

/** What the controllers of the selected pods say: the sum of their scales, and naked pods. */
export interface ExpectedScale {
  readonly expected: number;
  /** Names of selected pods without a controller reference. */
  readonly unmanaged: readonly string[];
}

/** getExpectedPodCount's answer. */
export interface ExpectedCount {
  readonly expected: number;
  readonly desired: number;
  readonly unmanaged: readonly string[];
}

/**
 * `intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true)`: integers as they are,
 * `N%` as ceil(N × total / 100). Other strings throw as upstream's helper errors.
 */
export function scaledValue(value: number | string, total: number): number {
  if (typeof value === "number") return value;
  const match = /^(\d+)%$/.exec(value);
  if (match?.[1] === undefined) {
    throw new RangeError(`invalid value for IntOrString: invalid type: string is not a percentage`);
  }
  return Math.ceil((Number(match[1]) * total) / 100);
}

/**
 * expectedCount and desiredHealthy from the spec. `scale()` computes the controllers' scale (it
 * may throw); it is called only for maxUnavailable and percentage minAvailable. `podCount` is
 * what an integer minAvailable uses as expectedCount.
 */
export async function expectedPodCount(
  spec: DeepReadonly<PodDisruptionBudgetSpec>,
  podCount: number,
  scale: () => Promise<ExpectedScale> | ExpectedScale,
): Promise<ExpectedCount> {
  if (spec.maxUnavailable !== undefined) {
    const { expected, unmanaged } = await scale();
    const maxUnavailable = scaledValue(spec.maxUnavailable, expected);
    return { expected, desired: Math.max(0, expected - maxUnavailable), unmanaged };
  }
  if (spec.minAvailable !== undefined) {
    if (typeof spec.minAvailable === "number") {
      return { expected: podCount, desired: spec.minAvailable, unmanaged: [] };
    }
    const { expected, unmanaged } = await scale();
    return { expected, desired: scaledValue(spec.minAvailable, expected), unmanaged };
  }
  return { expected: 0, desired: 0, unmanaged: [] };
}

/** buildDisruptedPodMap's answer. */
export interface DisruptedPods {
  /** Entries still in force. */
  readonly disrupted: Record<string, string>;
  /** When the earliest kept entry expires (a recheck is due then). */
  readonly recheckAt: Date | undefined;
  /** Pods whose entry expired without the pod being deleted (a NotDeleted event each). */
  readonly expired: readonly DeepReadonly<Pod>[];
}

/**
 * Keeps the `disruptedPods` entries of selected pods that are not terminating yet and whose
 * two minutes have not passed; the rest are dropped (expired ones are reported).
 */
export function buildDisruptedPodMap(
  pods: readonly DeepReadonly<Pod>[],
  pdb: DeepReadonly<PodDisruptionBudget>,
  now: Date,
): DisruptedPods {
  const recorded = pdb.status?.disruptedPods;
  const disrupted: Record<string, string> = {};
  const expired: DeepReadonly<Pod>[] = [];
  let recheckAt: Date | undefined;
  if (recorded === undefined) return { disrupted, recheckAt, expired };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const name = pod.metadata.name ?? "";
    const time = recorded[name];
    if (time === undefined) continue;
    const expiry = new Date(Date.parse(time) + deletionTimeoutMs);
    if (expiry.getTime() < now.getTime()) {
      expired.push(pod);
      continue;
    }
    disrupted[name] = time;
    if (recheckAt === undefined || expiry.getTime() < recheckAt.getTime()) recheckAt = expiry;
  }
  return { disrupted, recheckAt, expired };
}

/** Ready, not terminating, and not in an unexpired `disruptedPods` entry. */
export function countHealthyPods(
  pods: readonly DeepReadonly<Pod>[],
  disrupted: Readonly<Record<string, string>>,
  now: Date,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const time = disrupted[pod.metadata.name ?? ""];
    if (time !== undefined && Date.parse(time) + deletionTimeoutMs > now.getTime()) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** The counters a sync computed. */
export interface ComputedCounts {
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  readonly disruptedPods: Readonly<Record<string, string>>;
}

/** A condition to set; `lastTransitionTime` defaults to now when it flips. */
export type ConditionInput = Omit<Condition, "lastTransitionTime"> & {
  lastTransitionTime?: string;
};

/** `apimeta.SetStatusCondition`: replaces in place, stamping the transition only on a flip. */
export function setStatusCondition(
  conditions: readonly DeepReadonly<Condition>[] | undefined,
  next: ConditionInput,
  now: Date,
): Condition[] {
  const list = (conditions ?? []).map((c) => structuredClone(c) as Condition);
  const index = list.findIndex((c) => c.type === next.type);
  const current = list[index];
  if (current === undefined) {
    list.push({ ...next, lastTransitionTime: next.lastTransitionTime ?? rfc3339(now) });
    return list;
  }
  const updated: Condition = { ...current };
  if (current.status !== next.status) {
    updated.status = next.status;
    updated.lastTransitionTime = next.lastTransitionTime ?? rfc3339(now);
  }
  updated.reason = next.reason;
  updated.message = next.message;
  if (next.observedGeneration === undefined) delete updated.observedGeneration;
  else updated.observedGeneration = next.observedGeneration;
  list[index] = updated;
  return list;
}

/** The DisruptionAllowed condition for `disruptionsAllowed` (UpdateDisruptionAllowedCondition). */
export function disruptionAllowedConditionFor(
  disruptionsAllowed: number,
  observedGeneration: number | undefined,
): ConditionInput {
  const condition: ConditionInput =
    disruptionsAllowed > 0
      ? {
          type: disruptionAllowedCondition,
          status: "True",
          reason: sufficientPodsReason,
          message: "",
        }
      : {
          type: disruptionAllowedCondition,
          status: "False",
          reason: insufficientPodsReason,
          message: "",
        };
  if (observedGeneration !== undefined) condition.observedGeneration = observedGeneration;
  return condition;
}

/** ConditionsAreUpToDate: the condition exists, generation is observed, and it matches. */
export function conditionsAreUpToDate(pdb: DeepReadonly<PodDisruptionBudget>): boolean {
  const condition = pdb.status?.conditions?.find((c) => c.type === disruptionAllowedCondition);
  if (condition === undefined) return false;
  if ((pdb.status?.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0) {
    return condition.status === "True" && condition.reason === sufficientPodsReason;
  }
  return condition.status === "False" && condition.reason === insufficientPodsReason;
}

/**
 * updatePdbStatus: the status to write, or `undefined` when nothing changed (the four counters,
 * disruptedPods, observedGeneration and the condition all current).
 */
export function nextPdbStatus(
  pdb: DeepReadonly<PodDisruptionBudget>,
  counts: ComputedCounts,
  now: Date,
): PodDisruptionBudgetStatus | undefined {
  let allowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedPods <= 0 || allowed <= 0) allowed = 0;
  const status = pdb.status;
  const generation = pdb.metadata.generation ?? 0;
  if (
    status !== undefined &&
    status.currentHealthy === counts.currentHealthy &&
    status.desiredHealthy === counts.desiredHealthy &&
    status.expectedPods === counts.expectedPods &&
    status.disruptionsAllowed === allowed &&
    semanticEqual(status.disruptedPods ?? {}, counts.disruptedPods) &&
    (status.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  ) {
    return undefined;
  }
  const next: PodDisruptionBudgetStatus = {
    observedGeneration: generation,
    disruptionsAllowed: allowed,
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
  };
  if (Object.keys(counts.disruptedPods).length > 0)
    next.disruptedPods = { ...counts.disruptedPods };
  next.conditions = setStatusCondition(
    status?.conditions,
    disruptionAllowedConditionFor(allowed, generation),
    now,
  );
  return next;
}

/**
 * failSafe: no disruptions allowed, `DisruptionAllowed=False/SyncFailed` with the error text;
 * the counters and observedGeneration stay as they were.
 */
export function failSafeStatus(
  pdb: DeepReadonly<PodDisruptionBudget>,
  message: string,
  now: Date,
): PodDisruptionBudgetStatus {
  const old = (structuredClone(pdb.status) ?? {}) as Partial<PodDisruptionBudgetStatus>;
  const next: PodDisruptionBudgetStatus = {
    ...old,
    disruptionsAllowed: 0,
    currentHealthy: old.currentHealthy ?? 0,
    desiredHealthy: old.desiredHealthy ?? 0,
    expectedPods: old.expectedPods ?? 0,
  };
  const condition: ConditionInput = {
    type: disruptionAllowedCondition,
    status: "False",
    reason: syncFailedReason,
    message,
  };
  if (old.observedGeneration !== undefined) condition.observedGeneration = old.observedGeneration;
  next.conditions = setStatusCondition(old.conditions, condition, now);
  return next;
}
