/**
 * The taints the node lifecycle controller owns (upstream's nodelifecycle taint templates,
 * `nodeConditionToTaintKeyStatusMap`, `SwapNodeControllerTaint`). Pure.
 */
import type { Node, Taint } from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";

export const notReadyKey = "node.kubernetes.io/not-ready";
export const unreachableKey = "node.kubernetes.io/unreachable";
export const unschedulableKey = "node.kubernetes.io/unschedulable";

/** `NotReadyTaintTemplate` and `UnreachableTaintTemplate`: the NoExecute taints. */
export const notReadyNoExecute: Taint = { key: notReadyKey, effect: "NoExecute" };
export const unreachableNoExecute: Taint = { key: unreachableKey, effect: "NoExecute" };

/** Node condition → status → the NoSchedule taint it implies. */
const conditionTaints: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: notReadyKey, Unknown: unreachableKey },
  MemoryPressure: { True: "node.kubernetes.io/memory-pressure" },
  DiskPressure: { True: "node.kubernetes.io/disk-pressure" },
  NetworkUnavailable: { True: "node.kubernetes.io/network-unavailable" },
  PIDPressure: { True: "node.kubernetes.io/pid-pressure" },
};

const conditionTaintKeys = new Set(
  Object.values(conditionTaints).flatMap((byStatus) => Object.values(byStatus)),
);

/** Same key and effect (`Taint.MatchTaint`). */
export function sameTaint(a: DeepReadonly<Taint>, b: DeepReadonly<Taint>): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function hasTaint(node: DeepReadonly<Node>, taint: DeepReadonly<Taint>): boolean {
  return (node.spec?.taints ?? []).some((t) => sameTaint(t, taint));
}

/**
 * `doNoScheduleTaintingPass`: the NoSchedule taints the node's conditions (and
 * `spec.unschedulable`) call for, against those of that kind it has.
 */
export function noScheduleTaintChanges(node: DeepReadonly<Node>): {
  add: Taint[];
  remove: Taint[];
} {
  const wanted: Taint[] = [];
  for (const condition of node.status?.conditions ?? []) {
    const key = conditionTaints[condition.type]?.[condition.status];
    if (key !== undefined) wanted.push({ key, effect: "NoSchedule" });
  }
  if (node.spec?.unschedulable === true)
    wanted.push({ key: unschedulableKey, effect: "NoSchedule" });
  const current = (node.spec?.taints ?? []).filter(
    (t) =>
      t.effect === "NoSchedule" && (t.key === unschedulableKey || conditionTaintKeys.has(t.key)),
  );
  return {
    add: wanted.filter((w) => !current.some((c) => sameTaint(c, w))),
    remove: current
      .filter((c) => !wanted.some((w) => sameTaint(c, w)))
      .map((t) => structuredClone(t) as Taint),
  };
}

/**
 * `SwapNodeControllerTaint` on a taint list: removes `remove`, adds (or replaces) `add` with
 * `timeAdded` now. Returns `undefined` when nothing changes.
 */
export function swapTaints(
  taints: readonly DeepReadonly<Taint>[],
  add: readonly Taint[],
  remove: readonly Taint[],
  now: Date,
): Taint[] | undefined {
  let changed = false;
  let next = taints.map((t) => structuredClone(t) as Taint);
  for (const taint of remove) {
    const kept = next.filter((t) => !sameTaint(t, taint));
    if (kept.length !== next.length) changed = true;
    next = kept;
  }
  for (const taint of add) {
    if (next.some((t) => sameTaint(t, taint))) continue;
    next.push({ ...taint, timeAdded: rfc3339(now) });
    changed = true;
  }
  return changed ? next : undefined;
}
