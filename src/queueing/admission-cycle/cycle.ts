/**
 * One admission cycle (pkg/scheduler/scheduler.go, without preemption), as a pure plan: from a
 * snapshot of ClusterQueues, LocalQueues, flavors and Workloads it decides which pending
 * Workloads get quota (`reserveQuota` then `admitWorkload`: no admission checks, so both at
 * once), which stay pending with which message, and the ClusterQueue and LocalQueue statuses.
 * Within a ClusterQueue Workloads are tried in queue order; StrictFIFO stops at the first that
 * does not fit, BestEffortFIFO goes on. Workloads that would borrow are admitted after every
 * ClusterQueue's non-borrowing ones, as Kueue orders its nominated entries.
 */
import {
  type Admission,
  type ClusterQueue,
  type ClusterQueueStatus,
  type FlavorUsage,
  hasQuotaReservation,
  isWorkloadAdmitted,
  isWorkloadFinished,
  type KueueWorkload,
  type LabelSelector,
  type LocalQueue,
  type LocalQueueStatus,
  matchesLabels,
  type ResourceFlavor,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  formatAmount,
  frKey,
  type QuotaNode,
  QuotaTree,
  quotaNodeOf,
  workloadUsage,
} from "../cache/quota.ts";
import { compareWorkloads } from "../queue-manager/ordering.ts";
import { assignFlavors, podSetRequests } from "./flavor-assigner.ts";

type Wl = DeepReadonly<KueueWorkload>;

export interface CycleInput {
  readonly clusterQueues: readonly DeepReadonly<ClusterQueue>[];
  readonly localQueues: readonly DeepReadonly<LocalQueue>[];
  readonly flavors: ReadonlyMap<string, DeepReadonly<ResourceFlavor>>;
  readonly workloads: readonly Wl[];
  /** Labels of a namespace; `undefined` when it does not exist. */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
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

function usageOf(workload: Wl): Map<string, number> {
  const perPod = new Map(workload.spec.podSets.map((p) => [p.name, podSetRequests(p)]));
  return workloadUsage(workload, (name) => perPod.get(name) ?? new Map());
}

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
  const cqs = new Map(input.clusterQueues.map((cq) => [cq.metadata.name ?? "", cq]));
  const lqs = new Map(input.localQueues.map((lq) => [key(lq), lq]));
  const tree = new QuotaTree();
  for (const cq of input.clusterQueues) tree.add(quotaNodeOf(cq));
  const states = new Map(
    input.clusterQueues.map((cq) => [cq.metadata.name ?? "", activeStateOf(cq, input.flavors)]),
  );

  const reserving = new Map<string, Wl[]>();
  const queued = new Map<string, Wl[]>();
  const pending: PendingDecision[] = [];
  for (const workload of input.workloads) {
    if (isWorkloadFinished(workload)) continue;
    if (hasQuotaReservation(workload)) {
      const cqName = workload.status?.admission?.clusterQueue ?? "";
      const node = tree.nodes.get(cqName);
      if (node !== undefined) addUsage(node, usageOf(workload));
      reserving.set(cqName, [...(reserving.get(cqName) ?? []), workload]);
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
    queued.set(cqName, [...(queued.get(cqName) ?? []), workload]);
  }

  const admissions: { workload: Wl; admission: Admission }[] = [];
  const decided = new Set<string>();
  const blocked = new Set<string>();
  const messages = new Map<string, string>();
  for (const allowBorrowing of [false, true]) {
    for (const [cqName, list] of queued) {
      const cq = cqs.get(cqName);
      const node = tree.nodes.get(cqName);
      if (cq === undefined || node === undefined || blocked.has(cqName)) continue;
      const strict = cq.spec.queueingStrategy === "StrictFIFO";
      const selector = selectorFromLabelSelector(
        cq.spec.namespaceSelector as LabelSelector | null | undefined,
      );
      for (const workload of [...list].sort(compareWorkloads)) {
        if (decided.has(key(workload))) continue;
        const labels = input.namespaceLabels(workload.metadata.namespace ?? "") ?? {};
        if (!matchesLabels(selector, labels)) {
          messages.set(key(workload), "Workload namespace doesn't match ClusterQueue selector");
          continue;
        }
        const result = assignFlavors(workload, cq, input.flavors, tree, node);
        if (result.kind === "fit" && (!result.borrows || allowBorrowing)) {
          addUsage(node, result.usage);
          decided.add(key(workload));
          messages.delete(key(workload));
          admissions.push({
            workload,
            admission: { clusterQueue: cqName, podSetAssignments: result.podSetAssignments },
          });
          reserving.set(cqName, [...(reserving.get(cqName) ?? []), workload]);
          continue;
        }
        if (result.kind === "noFit") messages.set(key(workload), result.message);
        if (strict) {
          if (result.kind === "noFit") blocked.add(cqName);
          break;
        }
      }
    }
  }

  const pendingByClusterQueue = new Map<string, number>();
  for (const [cqName, list] of queued) {
    for (const workload of list) {
      if (decided.has(key(workload))) continue;
      pendingByClusterQueue.set(cqName, (pendingByClusterQueue.get(cqName) ?? 0) + 1);
      const message = messages.get(key(workload));
      if (message !== undefined) pending.push({ workload, reason: "Pending", message });
    }
  }

  const admitted = new Set(admissions.map((a) => key(a.workload)));
  const clusterQueues = new Map<string, ClusterQueueStatus & { activeState: ActiveState }>();
  for (const cq of input.clusterQueues) {
    const name = cq.metadata.name ?? "";
    const node = tree.nodes.get(name) ?? quotaNodeOf(cq);
    const list = reserving.get(name) ?? [];
    const admittedUsage = new Map<string, number>();
    for (const workload of list) {
      if (!admitted.has(key(workload)) && !isWorkloadAdmitted(workload)) continue;
      const usage = admitted.has(key(workload))
        ? (admissions.find((a) => key(a.workload) === key(workload))?.admission ?? undefined)
        : undefined;
      const wl =
        usage === undefined
          ? workload
          : ({ ...workload, status: { ...workload.status, admission: usage } } as Wl);
      for (const [k, v] of usageOf(wl)) admittedUsage.set(k, (admittedUsage.get(k) ?? 0) + v);
    }
    const reservedCount = list.length;
    const admittedCount = list.filter((w) => admitted.has(key(w)) || isWorkloadAdmitted(w)).length;
    clusterQueues.set(name, {
      activeState: states.get(name) ?? { active: false, reason: "Unknown", message: "" },
      pendingWorkloads: pendingByClusterQueue.get(name) ?? 0,
      reservingWorkloads: reservedCount,
      admittedWorkloads: admittedCount,
      flavorsReservation: flavorUsages(cq, node.usage, node),
      flavorsUsage: flavorUsages(cq, admittedUsage, node),
    });
  }

  const localQueues = new Map<string, LocalQueueStatus & { activeState: ActiveState }>();
  for (const lq of input.localQueues) {
    const lqKey = key(lq);
    const cqName = lq.spec.clusterQueue ?? "";
    const mine = (w: Wl): boolean =>
      `${w.metadata.namespace ?? ""}/${w.spec.queueName ?? ""}` === lqKey;
    const all = input.workloads.filter((w) => mine(w) && !isWorkloadFinished(w));
    const reservingHere = all.filter((w) => hasQuotaReservation(w) || admitted.has(key(w)));
    const admittedHere = reservingHere.filter((w) => isWorkloadAdmitted(w) || admitted.has(key(w)));
    const pendingHere = (queued.get(cqName) ?? []).filter((w) => mine(w) && !decided.has(key(w)));
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
      pendingWorkloads: pendingHere.length,
      reservingWorkloads: reservingHere.length,
      admittedWorkloads: admittedHere.length,
    });
  }

  return { admissions, pending, clusterQueues, localQueues, pendingByClusterQueue };
}
