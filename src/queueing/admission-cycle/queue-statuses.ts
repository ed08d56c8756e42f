/**
 * The ClusterQueue and LocalQueue statuses a cycle computes: the `Active` condition, pending,
 * reserving and admitted counts, and each flavor's reserved and admitted usage, from the index's
 * sums plus what the cycle admits.
 */
import type {
  Admission,
  ClusterQueue,
  ClusterQueueStatus,
  FlavorUsage,
  KueueWorkload,
  LocalQueue,
  LocalQueueStatus,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  formatAmount,
  frKey,
  type QuotaNode,
  type QuotaTree,
  quotaNodeOf,
} from "../cache/quota.ts";
import type { WorkloadIndex } from "../queue-manager/workload-index.ts";

type Wl = DeepReadonly<KueueWorkload>;

/** A ClusterQueue's `Active` condition. */
export interface ActiveState {
  readonly active: boolean;
  readonly reason: string;
  readonly message: string;
}

export type ClusterQueueStatusPlan = ClusterQueueStatus & { readonly activeState: ActiveState };
export type LocalQueueStatusPlan = LocalQueueStatus & { readonly activeState: ActiveState };

export function activeStateOf(
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

function addTo(into: Map<string, number>, usage: ReadonlyMap<string, number>): void {
  for (const [k, v] of usage) into.set(k, (into.get(k) ?? 0) + v);
}

const keyOf = (o: { metadata: { namespace?: string; name?: string } }): string =>
  `${o.metadata.namespace ?? ""}/${o.metadata.name ?? ""}`;

/** Every ClusterQueue's status once this cycle's admissions are made. */
export function clusterQueueStatuses(input: {
  readonly clusterQueues: readonly DeepReadonly<ClusterQueue>[];
  readonly tree: QuotaTree;
  readonly index: WorkloadIndex;
  readonly admissions: readonly { readonly workload: Wl; readonly admission: Admission }[];
  readonly pendingByClusterQueue: ReadonlyMap<string, number>;
  readonly states: ReadonlyMap<string, ActiveState>;
}): Map<string, ClusterQueueStatusPlan> {
  const statuses = new Map<string, ClusterQueueStatusPlan>();
  for (const cq of input.clusterQueues) {
    const name = cq.metadata.name ?? "";
    const node = input.tree.nodes.get(name) ?? quotaNodeOf(cq);
    const usage = input.index.usage(name);
    const reservedUsage = new Map(usage?.reserved ?? []);
    const admittedUsage = new Map(usage?.admitted ?? []);
    let admittedNow = 0;
    for (const { workload, admission } of input.admissions) {
      if (admission.clusterQueue !== name) continue;
      admittedNow++;
      const used = input.index.info.usage({
        ...workload,
        status: { ...workload.status, admission },
      } as Wl);
      addTo(reservedUsage, used);
      addTo(admittedUsage, used);
    }
    statuses.set(name, {
      activeState: input.states.get(name) ?? { active: false, reason: "Unknown", message: "" },
      pendingWorkloads: input.pendingByClusterQueue.get(name) ?? 0,
      reservingWorkloads: (usage?.reserving.size ?? 0) + admittedNow,
      admittedWorkloads: (usage?.admittedCount ?? 0) + admittedNow,
      flavorsReservation: flavorUsages(cq, reservedUsage, node),
      flavorsUsage: flavorUsages(cq, admittedUsage, node),
    });
  }
  return statuses;
}

/** Every LocalQueue's status once this cycle's admissions are made, by `namespace/name`. */
export function localQueueStatuses(input: {
  readonly localQueues: readonly DeepReadonly<LocalQueue>[];
  readonly index: WorkloadIndex;
  readonly admittedByLocalQueue: ReadonlyMap<string, number>;
  /** Whether the LocalQueue's Workloads reach an active ClusterQueue. */
  routable(localQueue: string): boolean;
  readonly states: ReadonlyMap<string, ActiveState>;
}): Map<string, LocalQueueStatusPlan> {
  const statuses = new Map<string, LocalQueueStatusPlan>();
  for (const lq of input.localQueues) {
    const lqKey = keyOf(lq);
    const counts = input.index.localQueueCounts(lqKey);
    const admittedHere = input.admittedByLocalQueue.get(lqKey) ?? 0;
    const waiting = input.routable(lqKey)
      ? (input.index.active.get(lqKey)?.size ?? 0) +
        (input.index.parked.get(lqKey)?.size ?? 0) -
        admittedHere
      : 0;
    const cqState = input.states.get(lq.spec.clusterQueue ?? "");
    statuses.set(lqKey, {
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
      pendingWorkloads: waiting,
      reservingWorkloads: counts.reserving + admittedHere,
      admittedWorkloads: counts.admitted + admittedHere,
    });
  }
  return statuses;
}
