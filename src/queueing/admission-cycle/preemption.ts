/**
 * Kueue's classic preemption (pkg/scheduler/preemption, without fair sharing) for flat cohorts:
 * which admitted Workloads to evict so that a pending one fits.
 *
 * Candidates are the Workloads using a `flavor/resource` that needs preemption: in the
 * preemptor's ClusterQueue as `withinClusterQueue` allows (`LowerPriority`,
 * `LowerOrNewerEqualPriority`, `Never`), and in the other ClusterQueues of its cohort that borrow
 * that resource as `reclaimWithinCohort` allows (`Any`, `LowerPriority`, `Never`). They are
 * ordered already-evicted first, other ClusterQueues before the preemptor's own, lower priority
 * first, most recently reserved first, then by UID. The minimal set is searched as Kueue does:
 * remove candidates in order until the preemptor fits, then put back, newest removal first,
 * every one it still fits without. Pure: the tree's usage is restored before returning.
 */
import {
  type ClusterQueue,
  findWorkloadCondition,
  isWorkloadEvicted,
  jobUidLabel,
  type KueueWorkload,
  quotaReservedCondition,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { QuotaNode, QuotaTree } from "../cache/quota.ts";
import type { ReservingWorkload } from "../cache/workload-info.ts";
import { queueOrderTimestamp, workloadPriority } from "../queue-manager/ordering.ts";

type Wl = DeepReadonly<KueueWorkload>;

export type PreemptionReason =
  | "InClusterQueue"
  | "InCohortReclamation"
  | "InCohortReclaimWhileBorrowing";

/** Kueue's `HumanReadablePreemptionReasons`. */
export const humanPreemptionReasons: Readonly<Record<PreemptionReason, string>> = {
  InClusterQueue: "prioritization in the ClusterQueue",
  InCohortReclamation: "reclamation within the cohort",
  InCohortReclaimWhileBorrowing: "reclamation within the cohort while borrowing",
};

/** The Evicted and Preempted conditions' message on a victim of `preemptor`. */
export function preemptionMessage(preemptor: Wl, reason: PreemptionReason): string {
  const uid = preemptor.metadata.uid || "UNKNOWN";
  const jobUid = preemptor.metadata.labels?.[jobUidLabel] || "UNKNOWN";
  return `Preempted to accommodate a workload (UID: ${uid}, JobUID: ${jobUid}) due to ${humanPreemptionReasons[reason]}`;
}

export type { ReservingWorkload };

export interface PreemptionTarget {
  readonly victim: ReservingWorkload;
  readonly reason: PreemptionReason;
}

export interface PreemptionInput {
  readonly preemptor: Wl;
  readonly cq: DeepReadonly<ClusterQueue>;
  readonly tree: QuotaTree;
  /** What the preemptor would use per `flavor/resource` (its flavor assignment). */
  readonly request: ReadonlyMap<string, number>;
  /** The `flavor/resource` keys whose quota preemption must free. */
  readonly needPreemption: ReadonlySet<string>;
  /** The Workloads holding quota in a ClusterQueue. */
  reserving(clusterQueue: string): readonly ReservingWorkload[];
  /** Now, in epoch milliseconds (a reservation without a transition time counts as now). */
  readonly now: number;
}

function usesAny(entry: ReservingWorkload, keys: ReadonlySet<string>): boolean {
  for (const key of entry.usage.keys()) if (keys.has(key)) return true;
  return false;
}

/** Whether the ClusterQueue is in a cohort and uses more than its nominal quota of some key. */
function isBorrowing(node: QuotaNode, keys: ReadonlySet<string>): boolean {
  if (node.cohort === undefined) return false;
  for (const key of keys) {
    if ((node.usage.get(key) ?? 0) > (node.nominal.get(key) ?? 0)) return true;
  }
  return false;
}

function reservedAt(workload: Wl, now: number): number {
  const condition = findWorkloadCondition(workload.status?.conditions, quotaReservedCondition);
  if (condition?.status !== "True") return now;
  const at = Date.parse(condition.lastTransitionTime ?? "");
  return Number.isNaN(at) ? now : at;
}

/** What `candidatesOrdering` compares of a candidate, read once. */
interface CandidateKey {
  readonly candidate: ReservingWorkload;
  readonly evicted: boolean;
  readonly own: boolean;
  readonly priority: number;
  readonly reservedAt: number;
  readonly uid: string;
}

function candidateKey(
  candidate: ReservingWorkload,
  preemptorClusterQueue: string,
  now: number,
): CandidateKey {
  return {
    candidate,
    evicted: isWorkloadEvicted(candidate.workload),
    own: candidate.clusterQueue === preemptorClusterQueue,
    priority: workloadPriority(candidate.workload),
    reservedAt: reservedAt(candidate.workload, now),
    uid: candidate.workload.metadata.uid ?? "",
  };
}

function compareKeys(a: CandidateKey, b: CandidateKey): number {
  if (a.evicted !== b.evicted) return a.evicted ? -1 : 1;
  if (a.own !== b.own) return a.own ? 1 : -1;
  return (
    a.priority - b.priority ||
    b.reservedAt - a.reservedAt ||
    (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)
  );
}

/** Kueue's `candidatesOrdering`; negative when `a` is preempted before `b`. */
export function compareCandidates(
  a: ReservingWorkload,
  b: ReservingWorkload,
  preemptorClusterQueue: string,
  now: number,
): number {
  return compareKeys(
    candidateKey(a, preemptorClusterQueue, now),
    candidateKey(b, preemptorClusterQueue, now),
  );
}

/** `candidates` in `candidatesOrdering`, each candidate's keys read once. */
function sortCandidates(
  candidates: readonly ReservingWorkload[],
  preemptorClusterQueue: string,
  now: number,
): ReservingWorkload[] {
  return candidates
    .map((c) => candidateKey(c, preemptorClusterQueue, now))
    .sort(compareKeys)
    .map((k) => k.candidate);
}

/** Kueue's `findCandidates`: the Workloads the ClusterQueue's policy lets the preemptor evict. */
export function findCandidates(input: PreemptionInput): ReservingWorkload[] {
  const { preemptor, cq, tree, needPreemption } = input;
  const name = cq.metadata.name ?? "";
  const priority = workloadPriority(preemptor);
  const policy = cq.spec.preemption;
  const candidates: ReservingWorkload[] = [];
  const within = policy?.withinClusterQueue ?? "Never";
  if (within !== "Never") {
    const samePriority = within === "LowerOrNewerEqualPriority";
    const preemptorTime = queueOrderTimestamp(preemptor);
    for (const entry of input.reserving(name)) {
      if (entry.key === keyOf(preemptor)) continue;
      const p = workloadPriority(entry.workload);
      if (p > priority) continue;
      if (p === priority && !(samePriority && preemptorTime < queueOrderTimestamp(entry.workload)))
        continue;
      if (usesAny(entry, needPreemption)) candidates.push(entry);
    }
  }
  const node = tree.nodes.get(name);
  const reclaim = policy?.reclaimWithinCohort ?? "Never";
  if (node?.cohort !== undefined && reclaim !== "Never") {
    for (const member of tree.members(node.cohort)) {
      if (member === node || !isBorrowing(member, needPreemption)) continue;
      for (const entry of input.reserving(member.name)) {
        if (reclaim !== "Any" && workloadPriority(entry.workload) >= priority) continue;
        if (usesAny(entry, needPreemption)) candidates.push(entry);
      }
    }
  }
  return candidates;
}

function keyOf(w: Wl): string {
  return `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`;
}

function change(tree: QuotaTree, entry: ReservingWorkload, sign: 1 | -1): void {
  const node = tree.nodes.get(entry.clusterQueue);
  if (node === undefined) return;
  for (const [key, amount] of entry.usage) {
    node.usage.set(key, (node.usage.get(key) ?? 0) + sign * amount);
  }
}

/** Kueue's `workloadFits`: the request fits what is available, within nominal unless borrowing. */
function fits(input: PreemptionInput, node: QuotaNode, allowBorrowing: boolean): boolean {
  for (const [key, amount] of input.request) {
    if (
      !allowBorrowing &&
      node.cohort !== undefined &&
      (node.usage.get(key) ?? 0) + amount > (node.nominal.get(key) ?? 0)
    )
      return false;
    if (amount > input.tree.available(node, key)) return false;
  }
  return true;
}

/** Kueue's `minimalPreemptions`. */
function minimalPreemptions(
  input: PreemptionInput,
  node: QuotaNode,
  candidates: readonly ReservingWorkload[],
  allowBorrowingAtFirst: boolean,
  borrowBelowPriority: number | undefined,
): PreemptionTarget[] {
  let allowBorrowing = allowBorrowingAtFirst;
  const targets: PreemptionTarget[] = [];
  let fit = false;
  for (const candidate of candidates) {
    let reason: PreemptionReason = "InClusterQueue";
    if (candidate.clusterQueue !== node.name) {
      const owner = input.tree.nodes.get(candidate.clusterQueue);
      if (owner === undefined || !isBorrowing(owner, input.needPreemption)) continue;
      reason = "InCohortReclamation";
      if (borrowBelowPriority !== undefined) {
        if (workloadPriority(candidate.workload) >= borrowBelowPriority) allowBorrowing = false;
        else reason = "InCohortReclaimWhileBorrowing";
      }
    }
    change(input.tree, candidate, -1);
    targets.push({ victim: candidate, reason });
    if (fits(input, node, allowBorrowing)) {
      fit = true;
      break;
    }
  }
  if (!fit) {
    for (const t of targets) change(input.tree, t.victim, 1);
    return [];
  }
  // Put back, newest removal first, every target the preemptor fits without.
  for (let i = targets.length - 2; i >= 0; i--) {
    const target = targets[i] as PreemptionTarget;
    change(input.tree, target.victim, 1);
    if (fits(input, node, allowBorrowing)) targets.splice(i, 1);
    else change(input.tree, target.victim, -1);
  }
  for (const t of targets) change(input.tree, t.victim, 1);
  return targets;
}

/** Kueue's `GetTargets`: the Workloads to evict so that the preemptor fits, or none. */
export function getTargets(input: PreemptionInput): PreemptionTarget[] {
  const name = input.cq.metadata.name ?? "";
  const node = input.tree.nodes.get(name);
  if (node === undefined) return [];
  let candidates = findCandidates(input);
  if (candidates.length === 0) return [];
  candidates = sortCandidates(candidates, name, input.now);
  const sameQueue = candidates.filter((c) => c.clusterQueue === name);
  if (sameQueue.length === candidates.length) {
    // Only this ClusterQueue's workloads: preempting them may go with borrowing.
    return minimalPreemptions(input, node, candidates, true, undefined);
  }
  const borrowWithinCohort = input.cq.spec.preemption?.borrowWithinCohort;
  if (borrowWithinCohort !== undefined && (borrowWithinCohort.policy ?? "Never") !== "Never") {
    let threshold = workloadPriority(input.preemptor);
    const max = borrowWithinCohort.maxPriorityThreshold;
    if (max !== undefined && max < threshold) threshold = max + 1;
    if (!isUnderNominal(node, input.needPreemption)) {
      candidates = candidates.filter(
        (c) => c.clusterQueue === name || workloadPriority(c.workload) < threshold,
      );
    }
    return minimalPreemptions(input, node, candidates, true, threshold);
  }
  if (isUnderNominal(node, input.needPreemption)) {
    const targets = minimalPreemptions(input, node, candidates, false, undefined);
    if (targets.length > 0) return targets;
  }
  return minimalPreemptions(input, node, sameQueue, true, undefined);
}

/** Kueue's `queueUnderNominalInResourcesNeedingPreemption`. */
function isUnderNominal(node: QuotaNode, keys: ReadonlySet<string>): boolean {
  for (const key of keys) {
    if ((node.usage.get(key) ?? 0) >= (node.nominal.get(key) ?? 0)) return false;
  }
  return true;
}
