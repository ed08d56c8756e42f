/**
 * One admission cycle (pkg/scheduler/scheduler.go) as a pure plan: from a snapshot of
 * ClusterQueues, LocalQueues, flavors and Workloads it decides which pending Workloads get quota
 * (`reserveQuota` then `admitWorkload`: no admission checks, so both at once), which admitted
 * Workloads are preempted for which pending one, which stay pending with which message, and the
 * ClusterQueue and LocalQueue statuses.
 *
 * Within a ClusterQueue Workloads are tried in queue order; StrictFIFO stops at the first that
 * does not fit, BestEffortFIFO goes on. Workloads that would borrow are tried after every
 * ClusterQueue's non-borrowing ones, as Kueue orders its nominated entries. A Workload that fits
 * only if others are evicted issues those preemptions (or waits on the ones already issued) and
 * holds its ClusterQueue until it is admitted, as Kueue's requeued head does; one that could
 * preempt but finds no candidate the policy allows keeps the capacity it needs from the rest of
 * the cohort this cycle unless `reclaimWithinCohort` is `Any`.
 */
import {
  type Admission,
  type ClusterQueue,
  type ClusterQueueStatus,
  type FlavorUsage,
  type KueueWorkload,
  type LabelSelector,
  type LocalQueue,
  type LocalQueueStatus,
  matchesLabels,
  type ResourceFlavor,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { formatAmount, frKey, type QuotaNode, QuotaTree, quotaNodeOf } from "../cache/quota.ts";
import { WorkloadInfoCache } from "../cache/workload-info.ts";
import { sortWorkloads } from "../queue-manager/ordering.ts";
import { assignFlavors } from "./flavor-assigner.ts";
import { getTargets, type PreemptionTarget, type ReservingWorkload } from "./preemption.ts";

type Wl = DeepReadonly<KueueWorkload>;

export interface CycleInput {
  readonly clusterQueues: readonly DeepReadonly<ClusterQueue>[];
  readonly localQueues: readonly DeepReadonly<LocalQueue>[];
  readonly flavors: ReadonlyMap<string, DeepReadonly<ResourceFlavor>>;
  readonly workloads: readonly Wl[];
  /** Labels of a namespace; `undefined` when it does not exist. */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  /** Memo of requests and usage across cycles. @default a fresh one */
  readonly info?: WorkloadInfoCache;
  /** Now in epoch milliseconds, for ordering preemption candidates. */
  readonly now: number;
}

/** Preemptions a pending Workload issues (or still waits on) this cycle. */
export interface PlannedPreemption {
  readonly preemptor: Wl;
  readonly clusterQueue: string;
  readonly targets: readonly PreemptionTarget[];
}

export interface PendingDecision {
  readonly workload: Wl;
  readonly reason: "Pending" | "Inadmissible";
  readonly message: string;
}

/** A ClusterQueue's `Active` condition. */
export interface ActiveState {
  readonly active: boolean;
  readonly reason: string;
  readonly message: string;
}

export interface CyclePlan {
  readonly admissions: readonly { readonly workload: Wl; readonly admission: Admission }[];
  /** Victims to evict; those already Evicted are only waited on. */
  readonly preemptions: readonly PlannedPreemption[];
  readonly pending: readonly PendingDecision[];
  readonly clusterQueues: ReadonlyMap<
    string,
    ClusterQueueStatus & { readonly activeState: ActiveState }
  >;
  /** By `namespace/name`. */
  readonly localQueues: ReadonlyMap<
    string,
    LocalQueueStatus & { readonly activeState: ActiveState }
  >;
  /** Pending Workloads per ClusterQueue that stayed in its queue this cycle, for metrics. */
  readonly pendingByClusterQueue: ReadonlyMap<string, number>;
  /**
   * Pending Workloads per ClusterQueue as Kueue's queue manager would hold them: `active` in the
   * heap (not tried yet, StrictFIFO heads, waiting on preemption), `inadmissible` parked after a
   * failed BestEffortFIFO attempt or a namespace mismatch.
   */
  readonly pendingStatus: ReadonlyMap<string, { active: number; inadmissible: number }>;
  /** Preemptions skipped this cycle per ClusterQueue (overlapping targets). */
  readonly preemptionSkips: ReadonlyMap<string, number>;
}

function activeStateOf(
  cq: DeepReadonly<ClusterQueue>,
  flavors: ReadonlyMap<string, unknown>,
): ActiveState {
  if ((cq.spec.stopPolicy ?? "None") !== "None") {
    return { active: false, reason: "Stopped", message: "Can't admit new workloads: is stopped." };
  }
  const missing = [
    ...new Set((cq.spec.resourceGroups ?? []).flatMap((g) => g.flavors.map((f) => f.name))),
  ].filter((name) => !flavors.has(name));
  if (missing.length > 0) {
    return {
      active: false,
      reason: "FlavorNotFound",
      message: `Can't admit new workloads: references missing ResourceFlavor(s): ${missing.join(",")}.`,
    };
  }
  return { active: true, reason: "Ready", message: "Can admit new workloads" };
}

const key = (w: { metadata: { namespace?: string; name?: string } }): string =>
  `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`;

function addUsage(node: QuotaNode, usage: ReadonlyMap<string, number>): void {
  for (const [k, v] of usage) node.usage.set(k, (node.usage.get(k) ?? 0) + v);
}

/** Every flavor of every group in spec order, each covered resource sorted by name. */
function flavorUsages(
  cq: DeepReadonly<ClusterQueue>,
  usage: ReadonlyMap<string, number>,
  node: QuotaNode,
): FlavorUsage[] {
  return (cq.spec.resourceGroups ?? []).flatMap((group) =>
    group.flavors.map((flavor) => ({
      name: flavor.name,
      resources: [...group.coveredResources].sort().map((resource) => {
        const k = frKey(flavor.name, resource);
        const total = usage.get(k) ?? 0;
        const borrowed =
          node.cohort === undefined ? 0 : Math.max(0, total - (node.nominal.get(k) ?? 0));
        return {
          name: resource,
          total: formatAmount(resource, total),
          borrowed: formatAmount(resource, borrowed),
        };
      }),
    })),
  );
}

export function planCycle(input: CycleInput): CyclePlan {
  const info = input.info ?? new WorkloadInfoCache();
  const now = input.now;
  const cqs = new Map(input.clusterQueues.map((cq) => [cq.metadata.name ?? "", cq]));
  const lqs = new Map(input.localQueues.map((lq) => [key(lq), lq]));
  const tree = new QuotaTree();
  for (const cq of input.clusterQueues) tree.add(quotaNodeOf(cq));
  const states = new Map(
    input.clusterQueues.map((cq) => [cq.metadata.name ?? "", activeStateOf(cq, input.flavors)]),
  );

  /** Workloads holding quota when the cycle starts, per ClusterQueue: the candidates. */
  const reserving = new Map<string, ReservingWorkload[]>();
  const queued = new Map<string, Wl[]>();
  const byLocalQueue = new Map<string, Wl[]>();
  const pending: PendingDecision[] = [];
  const push = <K, V>(map: Map<K, V[]>, k: K, v: V): void => {
    const list = map.get(k);
    if (list === undefined) map.set(k, [v]);
    else list.push(v);
  };
  for (const workload of input.workloads) {
    const ws = info.state(workload);
    if (ws.finished) continue;
    push(byLocalQueue, ws.localQueueKey, workload);
    if (ws.reserved) {
      const cqName = workload.status?.admission?.clusterQueue ?? "";
      const node = tree.nodes.get(cqName);
      const usage = info.usage(workload);
      if (node !== undefined) addUsage(node, usage);
      push(reserving, cqName, { workload, key: ws.key, clusterQueue: cqName, usage });
      continue;
    }
    if (workload.spec.active === false || workload.metadata.deletionTimestamp !== undefined)
      continue;
    const lqName = workload.spec.queueName ?? "";
    const lq = lqs.get(`${workload.metadata.namespace ?? ""}/${lqName}`);
    if (lq === undefined) {
      pending.push({
        workload,
        reason: "Inadmissible",
        message: `LocalQueue ${lqName} doesn't exist`,
      });
      continue;
    }
    if ((lq.spec.stopPolicy ?? "None") !== "None") {
      pending.push({
        workload,
        reason: "Inadmissible",
        message: `LocalQueue ${lqName} is inactive`,
      });
      continue;
    }
    const cqName = lq.spec.clusterQueue ?? "";
    const state = states.get(cqName);
    if (state === undefined) {
      pending.push({
        workload,
        reason: "Inadmissible",
        message: `ClusterQueue ${cqName} doesn't exist`,
      });
      continue;
    }
    if (!state.active) {
      pending.push({
        workload,
        reason: "Inadmissible",
        message: `ClusterQueue ${cqName} is inactive`,
      });
      continue;
    }
    push(queued, cqName, workload);
  }
  const queuedKeys = new Set<string>();
  for (const list of queued.values()) {
    sortWorkloads(list);
    for (const w of list) queuedKeys.add(info.state(w).key);
  }

  const admissions: { workload: Wl; admission: Admission }[] = [];
  const admittedNow = new Map<string, Admission>();
  const admittedCount = new Map<string, number>();
  const preemptions: PlannedPreemption[] = [];
  /** Keys of the Workloads targeted by a preemption this cycle. */
  const targeted = new Set<string>();
  const decided = new Set<string>();
  const blocked = new Set<string>();
  const messages = new Map<string, string>();
  const inadmissible = new Set<string>();
  const preemptionSkips = new Map<string, number>();
  const preemptors = new Set<string>();
  for (const allowBorrowing of [false, true]) {
    for (const [cqName, list] of queued) {
      const cq = cqs.get(cqName);
      const node = tree.nodes.get(cqName);
      if (cq === undefined || node === undefined || blocked.has(cqName)) continue;
      const strict = cq.spec.queueingStrategy === "StrictFIFO";
      const selector = selectorFromLabelSelector(
        cq.spec.namespaceSelector as LabelSelector | null | undefined,
      );
      for (const workload of list) {
        const k = info.state(workload).key;
        if (decided.has(k)) continue;
        const labels = input.namespaceLabels(workload.metadata.namespace ?? "") ?? {};
        if (!matchesLabels(selector, labels)) {
          messages.set(k, "Workload namespace doesn't match ClusterQueue selector");
          inadmissible.add(k);
          continue;
        }
        const result = assignFlavors(workload, cq, input.flavors, tree, node, info.requests);
        if (result.kind === "noFit") {
          messages.set(k, result.message);
          if (strict) {
            inadmissible.delete(k);
            blocked.add(cqName);
            break;
          }
          inadmissible.add(k);
          continue;
        }
        if (result.borrows && !allowBorrowing) {
          // Borrowing entries go after every ClusterQueue's non-borrowing ones.
          if (strict) break;
          continue;
        }
        if (result.kind === "fit") {
          addUsage(node, result.usage);
          decided.add(k);
          messages.delete(k);
          inadmissible.delete(k);
          const admission = { clusterQueue: cqName, podSetAssignments: result.podSetAssignments };
          admissions.push({ workload, admission });
          admittedNow.set(k, admission);
          admittedCount.set(cqName, (admittedCount.get(cqName) ?? 0) + 1);
          continue;
        }
        decided.add(k);
        const targets = getTargets({
          preemptor: workload,
          cq,
          tree,
          request: result.usage,
          needPreemption: result.needPreemption,
          reserving: (name) => reserving.get(name) ?? [],
          now,
        });
        if (targets.length === 0) {
          // Nothing the policy lets it evict: it waits for quota like a NoFit. A StrictFIFO head
          // keeps what it would need from the rest of the cohort unless it can always reclaim
          // it later; a BestEffortFIFO one is parked, and Kueue's next heads (this pass here)
          // may use that capacity.
          messages.set(k, result.message);
          if (!strict) {
            inadmissible.add(k);
            continue;
          }
          if ((cq.spec.preemption?.reclaimWithinCohort ?? "Never") !== "Any") {
            addUsage(node, toReserve(node, result.usage, result.borrows));
          }
          inadmissible.delete(k);
          blocked.add(cqName);
          break;
        }
        inadmissible.delete(k);
        blocked.add(cqName);
        if (targets.some((t) => targeted.has(t.victim.key))) {
          messages.set(k, "Workload has overlapping preemption targets with another workload");
          preemptionSkips.set(cqName, (preemptionSkips.get(cqName) ?? 0) + 1);
          break;
        }
        for (const t of targets) targeted.add(t.victim.key);
        addUsage(node, result.usage);
        preemptions.push({ preemptor: workload, clusterQueue: cqName, targets });
        preemptors.add(k);
        messages.set(
          k,
          `${result.message}. Pending the preemption of ${targets.length} workload(s)`,
        );
        break;
      }
    }
  }

  const pendingByClusterQueue = new Map<string, number>();
  const pendingStatus = new Map<string, { active: number; inadmissible: number }>();
  for (const [cqName, list] of queued) {
    const counts = { active: 0, inadmissible: 0 };
    pendingStatus.set(cqName, counts);
    let head = true;
    for (const workload of list) {
      const k = info.state(workload).key;
      if (admittedNow.has(k)) continue;
      if (inadmissible.has(k)) counts.inadmissible++;
      else counts.active++;
      const message = messages.get(k);
      // As Kueue writes the message of the heads it attempts: this ClusterQueue's first
      // waiting Workload, a preemptor, and every Workload the first time it is seen; the rest
      // keep the message they have until they come to the head.
      const write = head || preemptors.has(k) || !info.state(workload).seen;
      head = false;
      if (message !== undefined && write) pending.push({ workload, reason: "Pending", message });
    }
    pendingByClusterQueue.set(cqName, counts.active + counts.inadmissible);
  }

  const clusterQueues = new Map<string, ClusterQueueStatus & { activeState: ActiveState }>();
  for (const cq of input.clusterQueues) {
    const name = cq.metadata.name ?? "";
    const node = tree.nodes.get(name) ?? quotaNodeOf(cq);
    const reservedUsage = new Map<string, number>();
    const admittedUsage = new Map<string, number>();
    let reservedCount = admittedCount.get(name) ?? 0;
    let admitted = reservedCount;
    for (const entry of reserving.get(name) ?? []) {
      reservedCount++;
      addTo(reservedUsage, entry.usage);
      if (!info.state(entry.workload).admitted) continue;
      admitted++;
      addTo(admittedUsage, entry.usage);
    }
    for (const { workload, admission } of admissions) {
      if (admission.clusterQueue !== name) continue;
      const usage = info.usage({
        ...workload,
        status: { ...workload.status, admission },
      } as Wl);
      addTo(reservedUsage, usage);
      addTo(admittedUsage, usage);
    }
    clusterQueues.set(name, {
      activeState: states.get(name) ?? { active: false, reason: "Unknown", message: "" },
      pendingWorkloads: pendingByClusterQueue.get(name) ?? 0,
      reservingWorkloads: reservedCount,
      admittedWorkloads: admitted,
      flavorsReservation: flavorUsages(cq, reservedUsage, node),
      flavorsUsage: flavorUsages(cq, admittedUsage, node),
    });
  }

  const localQueues = new Map<string, LocalQueueStatus & { activeState: ActiveState }>();
  for (const lq of input.localQueues) {
    const lqKey = key(lq);
    const cqName = lq.spec.clusterQueue ?? "";
    let reservingHere = 0;
    let admittedHere = 0;
    let pendingHere = 0;
    for (const w of byLocalQueue.get(lqKey) ?? []) {
      const state = info.state(w);
      const k = state.key;
      if (state.reserved || admittedNow.has(k)) {
        reservingHere++;
        if (state.admitted || admittedNow.has(k)) admittedHere++;
      } else if (queuedKeys.has(k)) {
        pendingHere++;
      }
    }
    const cqState = states.get(cqName);
    localQueues.set(lqKey, {
      activeState:
        cqState === undefined
          ? {
              active: false,
              reason: "ClusterQueueDoesNotExist",
              message: "Can't submit new workloads to clusterQueue",
            }
          : cqState.active
            ? { active: true, reason: "Ready", message: "Can submit new workloads to localQueue" }
            : {
                active: false,
                reason: "ClusterQueueIsInactive",
                message: "Can't submit new workloads to clusterQueue",
              },
      pendingWorkloads: pendingHere,
      reservingWorkloads: reservingHere,
      admittedWorkloads: admittedHere,
    });
  }

  return {
    admissions,
    preemptions,
    pending,
    clusterQueues,
    localQueues,
    pendingByClusterQueue,
    pendingStatus,
    preemptionSkips,
  };
}

function addTo(into: Map<string, number>, usage: ReadonlyMap<string, number>): void {
  for (const [k, v] of usage) into.set(k, (into.get(k) ?? 0) + v);
}

/**
 * Kueue's `quotaResourcesToReserve` for a Workload that could preempt but found no target: up
 * to its nominal quota, or up to its borrowing limit when it would borrow.
 */
function toReserve(
  node: QuotaNode,
  usage: ReadonlyMap<string, number>,
  borrows: boolean,
): Map<string, number> {
  const reserved = new Map<string, number>();
  for (const [k, amount] of usage) {
    const nominal = node.nominal.get(k) ?? 0;
    const used = node.usage.get(k) ?? 0;
    if (borrows) {
      const limit = node.borrowingLimit.get(k);
      reserved.set(k, limit === undefined ? amount : Math.min(amount, nominal + limit - used));
    } else {
      reserved.set(k, Math.max(0, Math.min(amount, nominal - used)));
    }
  }
  return reserved;
}
