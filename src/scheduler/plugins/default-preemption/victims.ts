/**
 * Choosing victims (upstream's `SelectVictimsOnNode`, `filterPodsWithPDBViolation`,
 * `pickOneNodeForPreemption`): on a copy of the node, take away every lower-priority pod, check the
 * preemptor fits, then give back as many pods as possible, most important first (budget-violating
 * ones before the others), so the victims are a minimal set.
 */
import {
  ApiError,
  type PodDisruptionBudget,
  selectorFromLabelSelector,
} from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  asStatus,
  type CycleState,
  type Handle,
  isSuccess,
  type NodeInfo,
  type PodInfo,
  type PodObject,
  podPriority,
  type Status,
  success,
  unresolvable,
} from "../../framework/index.ts";

export const reasonNoVictims = "No preemption victims found for incoming pod";

export interface Victims {
  /** Most important first. */
  readonly pods: readonly PodInfo[];
  /** How many victims' budgets would go below zero. */
  readonly numPdbViolations: number;
}

/** The start time in ms, `now` for a pod that has not started. */
export function podStartTime(pod: PodObject, now: number): number {
  const start = pod.status?.startTime;
  return start === undefined ? now : Date.parse(start);
}

/** Upstream's `MoreImportantPod`: higher priority, then the pod that started earlier. */
export function moreImportantPod(a: PodObject, b: PodObject, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/**
 * Splits `pods` (order kept) into those whose eviction would push a matching budget below zero
 * and the rest. Budgets are consumed in order, as upstream does.
 */
export function splitByPdbViolation(
  pods: readonly PodInfo[],
  pdbs: readonly DeepReadonly<PodDisruptionBudget>[],
): [PodInfo[], PodInfo[]] {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map((p) => {
    try {
      return p.spec.selector === undefined
        ? undefined
        : selectorFromLabelSelector(p.spec.selector as PodDisruptionBudget["spec"]["selector"]);
    } catch (error: unknown) {
      if (error instanceof ApiError) return undefined;
      throw error;
    }
  });
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const info of pods) {
    const pod = info.pod;
    let violated = false;
    const labels = pod.metadata.labels;
    if (labels !== undefined && Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        if ((pdb.metadata.namespace ?? "") !== (pod.metadata.namespace ?? "")) return;
        const selector = selectors[i];
        if (selector === undefined || selector.kind === "nothing") return;
        if (selector.requirements.length === 0 || !selector.test(labels)) return;
        if (pdb.status?.disruptedPods?.[pod.metadata.name ?? ""] !== undefined) return;
        allowed[i] = (allowed[i] ?? 0) - 1;
        if ((allowed[i] ?? 0) < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(info);
  }
  return [violating, nonViolating];
}

export interface SelectVictimsResult {
  readonly status: Status;
  readonly victims?: Victims;
}

/**
 * The minimal victims on `nodeInfo` (a mutable copy) for `pod`, or a status saying why preemption
 * cannot help there. `state` is a copy too: PreFilter extensions update it as pods move.
 */
export function selectVictimsOnNode(
  handle: Handle,
  state: CycleState,
  pod: PodObject,
  nodeInfo: NodeInfo,
  pdbs: readonly DeepReadonly<PodDisruptionBudget>[],
): SelectVictimsResult {
  const preemptorPriority = podPriority(pod);
  const potential = nodeInfo.pods.filter((p) => podPriority(p.pod) < preemptorPriority);
  if (potential.length === 0) return { status: unresolvable(reasonNoVictims) };

  const remove = (p: PodInfo): Status => {
    nodeInfo.removePod(p.uid);
    return handle.runPreFilterExtensionRemovePod(state, pod, p, nodeInfo);
  };
  const add = (p: PodInfo): Status => {
    nodeInfo.addPodInfo(p);
    return handle.runPreFilterExtensionAddPod(state, pod, p, nodeInfo);
  };
  for (const p of potential) {
    const s = remove(p);
    if (!isSuccess(s)) return { status: s };
  }
  const fits = handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
  if (!isSuccess(fits)) return { status: fits };

  const now = handle.clock.now().getTime();
  potential.sort((a, b) =>
    moreImportantPod(a.pod, b.pod, now) ? -1 : moreImportantPod(b.pod, a.pod, now) ? 1 : 0,
  );
  const [violating, nonViolating] = splitByPdbViolation(potential, pdbs);
  const victims: PodInfo[] = [];
  let numPdbViolations = 0;
  const reprieve = (p: PodInfo): Status | boolean => {
    const added = add(p);
    if (!isSuccess(added)) return added;
    if (isSuccess(handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo))) return true;
    const removed = remove(p);
    if (!isSuccess(removed)) return removed;
    victims.push(p);
    return false;
  };
  try {
    for (const p of violating) {
      const r = reprieve(p);
      if (typeof r !== "boolean") return { status: r };
      if (!r) numPdbViolations++;
    }
    for (const p of nonViolating) {
      const r = reprieve(p);
      if (typeof r !== "boolean") return { status: r };
    }
  } catch (error: unknown) {
    return { status: asStatus(error) };
  }
  if (violating.length > 0 && nonViolating.length > 0) {
    victims.sort((a, b) =>
      moreImportantPod(a.pod, b.pod, now) ? -1 : moreImportantPod(b.pod, a.pod, now) ? 1 : 0,
    );
  }
  return { status: success, victims: { pods: victims, numPdbViolations } };
}

/**
 * Upstream's `pickOneNodeForPreemption`: fewest budget violations, then the lowest highest-priority
 * victim, the smallest sum of priorities, the fewest victims, the latest start of the
 * highest-priority victims; then the first node.
 */
export function pickOneNodeForPreemption(
  candidates: ReadonlyMap<string, Victims>,
  now: number,
): string | undefined {
  let remaining = [...candidates.keys()];
  if (remaining.length === 0) return undefined;
  const victimsOf = (node: string): Victims => candidates.get(node) as Victims;
  const scoreFns: ((node: string) => number)[] = [
    (n) => -victimsOf(n).numPdbViolations,
    (n) => {
      const first = victimsOf(n).pods[0];
      return first === undefined ? 0 : -podPriority(first.pod);
    },
    (n) => {
      let sum = 0;
      // Shift by 2^31 so a few negative-priority pods do not beat fewer pods of the same priority.
      for (const p of victimsOf(n).pods) sum += podPriority(p.pod) + 2 ** 31;
      return -sum;
    },
    (n) => -victimsOf(n).pods.length,
    (n) => {
      const pods = victimsOf(n).pods;
      const highest = pods[0] === undefined ? 0 : podPriority(pods[0].pod);
      let earliest = Number.POSITIVE_INFINITY;
      for (const p of pods) {
        if (podPriority(p.pod) !== highest) continue;
        earliest = Math.min(earliest, podStartTime(p.pod, now));
      }
      return Number.isFinite(earliest) ? earliest : Number.MIN_SAFE_INTEGER;
    },
  ];
  for (const fn of scoreFns) {
    let best = Number.NEGATIVE_INFINITY;
    let selected: string[] = [];
    for (const node of remaining) {
      const score = fn(node);
      if (score > best) {
        best = score;
        selected = [node];
      } else if (score === best) {
        selected.push(node);
      }
    }
    if (selected.length === 1) return selected[0];
    remaining = selected;
  }
  return remaining[0];
}
