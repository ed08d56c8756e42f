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
 *
 * The plan reads the Workloads through a `WorkloadIndex` kept between cycles, so a cycle costs
 * what is pending and active, not every Workload in the cache: reservations come summed per
 * ClusterQueue, and Workloads an earlier cycle found inadmissible (parked) are only counted, as
 * Kueue's queue manager keeps them aside until quota is released. The plan says which to park;
 * the caller parks them.
 */
import {
  type Admission,
  type ClusterQueue,
  type KueueWorkload,
  type LabelSelector,
  type LocalQueue,
  matchesLabels,
  type ResourceFlavor,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { type QuotaNode, QuotaTree, quotaNodeOf } from "../cache/quota.ts";
import { compareOrder, type OrderKey, type WorkloadInfoCache } from "../cache/workload-info.ts";
import { WorkloadIndex } from "../queue-manager/workload-index.ts";
import { assignFlavors } from "./flavor-assigner.ts";
import { getTargets, type PreemptionTarget } from "./preemption.ts";
import {
  type ActiveState,
  activeStateOf,
  type ClusterQueueStatusPlan,
  clusterQueueStatuses,
  type LocalQueueStatusPlan,
  localQueueStatuses,
} from "./queue-statuses.ts";

export type { ActiveState };

type Wl = DeepReadonly<KueueWorkload>;

export interface CycleInput {
  readonly clusterQueues: readonly DeepReadonly<ClusterQueue>[];
  readonly localQueues: readonly DeepReadonly<LocalQueue>[];
  readonly flavors: ReadonlyMap<string, DeepReadonly<ResourceFlavor>>;
  /**
   * The Workloads as the scheduler keeps them between cycles: reservations summed per
   * ClusterQueue, pending ones per LocalQueue; parked ones are not tried.
   * @default an index of `workloads`
   */
  readonly index?: WorkloadIndex;
  /** The Workloads as a list, when there is no `index` (nothing parked). */
  readonly workloads?: readonly Wl[];
  /** Labels of a namespace; `undefined` when it does not exist. */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  /**
   * Whether to leave a pending Workload (`namespace/name`) alone this cycle, as if not tried
   * yet (a write of its status is still out). @default none
   */
  skip?(key: string): boolean;
  /** Memo of requests and usage, for the index built from `workloads`. @default a fresh one */
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

/** A pending Workload found inadmissible: parked until quota is released or queues change. */
export interface ParkDecision {
  /** Its LocalQueue's `namespace/name`. */
  readonly localQueue: string;
  /** Its `namespace/name`. */
  readonly key: string;
  /** The ClusterQueue that found it inadmissible; "" when its LocalQueue leads to none. */
  readonly clusterQueue: string;
}

export interface CyclePlan {
  readonly admissions: readonly { readonly workload: Wl; readonly admission: Admission }[];
  /** Victims to evict; those already Evicted are only waited on. */
  readonly preemptions: readonly PlannedPreemption[];
  readonly pending: readonly PendingDecision[];
  /** The Workloads to park (Kueue's `inadmissibleWorkloads`). */
  readonly parked: readonly ParkDecision[];
  readonly clusterQueues: ReadonlyMap<string, ClusterQueueStatusPlan>;
  /** By `namespace/name`. */
  readonly localQueues: ReadonlyMap<string, LocalQueueStatusPlan>;
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

const key = (w: { metadata: { namespace?: string; name?: string } }): string =>
  `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`;

function addUsage(node: QuotaNode, usage: ReadonlyMap<string, number>): void {
  for (const [k, v] of usage) node.usage.set(k, (node.usage.get(k) ?? 0) + v);
}

/** A search that found nothing, at a usage version, with its message. */
interface Miss {
  readonly version: number;
  readonly message: string;
}

/** A ClusterQueue's misses this cycle, by shape (and priority, for preemption targets). */
interface ShapeMisses {
  readonly noFit: Map<string, Miss>;
  /** Shapes that would borrow, deferred to the second pass, at a usage version. */
  readonly borrows: Map<string, number>;
  readonly noTarget: Map<number, Map<string, Miss>>;
}

/** A ClusterQueue as a pass reads it. */
interface PassContext {
  readonly cq: DeepReadonly<ClusterQueue>;
  readonly node: QuotaNode;
  readonly strict: boolean;
  readonly selector: ReturnType<typeof selectorFromLabelSelector>;
  readonly misses: ShapeMisses;
  readonly timeless: boolean;
  /** Whether a Workload before the current one in this queue stays waiting, this pass. */
  behindWaiting: boolean;
}

/** Where a LocalQueue's Workloads go: a ClusterQueue, or why none takes them. */
type Route = { readonly clusterQueue: string } | { readonly message: string };

export function planCycle(input: CycleInput): CyclePlan {
  const index = input.index ?? WorkloadIndex.of(input.workloads ?? [], input.info);
  const info = index.info;
  const now = input.now;
  const cqs = new Map(input.clusterQueues.map((cq) => [cq.metadata.name ?? "", cq]));
  const lqs = new Map(input.localQueues.map((lq) => [key(lq), lq]));
  const tree = new QuotaTree();
  for (const cq of input.clusterQueues) {
    const node = quotaNodeOf(cq);
    const usage = index.usage(node.name);
    if (usage !== undefined) addUsage(node, usage.reserved);
    tree.add(node);
  }
  const states = new Map(
    input.clusterQueues.map((cq) => [cq.metadata.name ?? "", activeStateOf(cq, input.flavors)]),
  );
  const routes = new Map<string, Route>();
  const routeOf = (localQueue: string): Route => {
    let route = routes.get(localQueue);
    if (route !== undefined) return route;
    const lqName = localQueue.slice(localQueue.indexOf("/") + 1);
    const lq = lqs.get(localQueue);
    const cqName = lq?.spec.clusterQueue ?? "";
    const state = states.get(cqName);
    if (lq === undefined) route = { message: `LocalQueue ${lqName} doesn't exist` };
    else if ((lq.spec.stopPolicy ?? "None") !== "None") {
      route = { message: `LocalQueue ${lqName} is inactive` };
    } else if (state === undefined) route = { message: `ClusterQueue ${cqName} doesn't exist` };
    else if (!state.active) route = { message: `ClusterQueue ${cqName} is inactive` };
    else route = { clusterQueue: cqName };
    routes.set(localQueue, route);
    return route;
  };

  const queued = new Map<string, Wl[]>();
  const pending: PendingDecision[] = [];
  const parked: ParkDecision[] = [];
  const push = <K, V>(map: Map<K, V[]>, k: K, v: V): void => {
    const list = map.get(k);
    if (list === undefined) map.set(k, [v]);
    else list.push(v);
  };
  for (const [localQueue, workloads] of index.active) {
    const route = routeOf(localQueue);
    if ("message" in route) {
      for (const [k, workload] of workloads) {
        if (input.skip?.(k) === true) continue;
        pending.push({ workload, reason: "Inadmissible", message: route.message });
        parked.push({ localQueue, key: k, clusterQueue: "" });
      }
      continue;
    }
    for (const workload of workloads.values()) push(queued, route.clusterQueue, workload);
  }
  /** LocalQueue keys with parked Workloads, per ClusterQueue. */
  const parkedIn = new Map<string, string[]>();
  for (const localQueue of index.parked.keys()) {
    const route = routeOf(localQueue);
    if ("clusterQueue" in route) push(parkedIn, route.clusterQueue, localQueue);
  }
  const parkedCount = (cqName: string): number =>
    (parkedIn.get(cqName) ?? []).reduce((n, lq) => n + (index.parked.get(lq)?.size ?? 0), 0);
  // Every ClusterQueue's Workloads in one order (priority, then queue time), as Kueue orders
  // the heads it nominates each cycle; each ClusterQueue's own list keeps that order.
  const merged: { clusterQueue: string; workload: Wl; order: OrderKey }[] = [];
  for (const [clusterQueue, list] of queued) {
    for (const workload of list)
      merged.push({ clusterQueue, workload, order: info.order(workload) });
  }
  merged.sort((a, b) => compareOrder(a.order, b.order));
  queued.clear();
  for (const { clusterQueue, workload } of merged) push(queued, clusterQueue, workload);

  const admissions: { workload: Wl; admission: Admission }[] = [];
  const admittedNow = new Map<string, Admission>();
  const admittedByLocalQueue = new Map<string, number>();
  const preemptions: PlannedPreemption[] = [];
  /** Keys of the Workloads targeted by a preemption this cycle. */
  const targeted = new Set<string>();
  const decided = new Set<string>();
  const blocked = new Set<string>();
  const messages = new Map<string, string>();
  const inadmissible = new Set<string>();
  const preemptionSkips = new Map<string, number>();
  const preemptors = new Set<string>();
  /**
   * Counts the reservations made this cycle. Each ClusterQueue remembers what its attempts
   * found for a shape (no fit, would borrow) or for a priority and shape (no preemption target)
   * at a version, with the message (`PassContext.misses`): at the same version a Workload of
   * that shape finds the same, message included. Usage only grows within a cycle, so no fit
   * stays no fit at a later version too: Workloads whose message is not written (seen before,
   * behind a waiting one) skip the search then.
   */
  let usageVersion = 0;
  const reserve = (node: QuotaNode, usage: ReadonlyMap<string, number>): void => {
    addUsage(node, usage);
    usageVersion++;
  };
  /** What a pass reads of each ClusterQueue, built once. */
  const contexts = new Map<string, PassContext>();
  for (const cqName of queued.keys()) {
    const cq = cqs.get(cqName);
    const node = tree.nodes.get(cqName);
    if (cq === undefined || node === undefined) continue;
    contexts.set(cqName, {
      cq,
      node,
      strict: cq.spec.queueingStrategy === "StrictFIFO",
      selector: selectorFromLabelSelector(
        cq.spec.namespaceSelector as LabelSelector | null | undefined,
      ),
      misses: { noFit: new Map(), borrows: new Map(), noTarget: new Map() },
      // The search also reads the preemptor's queue time under this policy.
      timeless: cq.spec.preemption?.withinClusterQueue !== "LowerOrNewerEqualPriority",
      behindWaiting: false,
    });
  }
  for (const allowBorrowing of [false, true]) {
    /** StrictFIFO queues done for this pass (their head would borrow). */
    const stopped = new Set<string>();
    for (const ctx of contexts.values()) ctx.behindWaiting = false;
    for (const { clusterQueue: cqName, workload } of merged) {
      const ctx = contexts.get(cqName);
      if (ctx === undefined || blocked.has(cqName) || stopped.has(cqName)) continue;
      const { cq, node, strict, selector, timeless } = ctx;
      const cqMisses = ctx.misses;
      const state = info.state(workload);
      const k = state.key;
      if (decided.has(k)) continue;
      if (input.skip?.(k) === true) {
        decided.add(k);
        continue;
      }
      const labels = input.namespaceLabels(workload.metadata.namespace ?? "") ?? {};
      if (!matchesLabels(selector, labels)) {
        messages.set(k, "Workload namespace doesn't match ClusterQueue selector");
        inadmissible.add(k);
        ctx.behindWaiting = true;
        continue;
      }
      // Lookups by the shape string itself (its hash is computed once), never a new string.
      const shape = info.shape(workload);
      const noFit = cqMisses.noFit.get(shape);
      const exact = noFit?.version === usageVersion;
      if (noFit !== undefined && (exact || (!strict && ctx.behindWaiting && state.seen))) {
        if (exact) messages.set(k, noFit.message);
        if (strict) {
          inadmissible.delete(k);
          blocked.add(cqName);
          continue;
        }
        inadmissible.add(k);
        ctx.behindWaiting = true;
        continue;
      }
      // A shape that would borrow waits for the second pass, the same at the same version.
      if (!allowBorrowing && cqMisses.borrows.get(shape) === usageVersion) {
        if (strict) stopped.add(cqName);
        continue;
      }
      const priority = info.order(workload).priority;
      let noTargets = cqMisses.noTarget.get(priority);
      if (noTargets === undefined) {
        noTargets = new Map();
        cqMisses.noTarget.set(priority, noTargets);
      }
      const noTarget = strict || !timeless ? undefined : noTargets.get(shape);
      if (noTarget !== undefined && noTarget.version === usageVersion) {
        messages.set(k, noTarget.message);
        inadmissible.add(k);
        ctx.behindWaiting = true;
        continue;
      }
      const result = assignFlavors(workload, cq, input.flavors, tree, node, info.requests);
      if (result.kind === "noFit") {
        messages.set(k, result.message);
        cqMisses.noFit.set(shape, { version: usageVersion, message: result.message });
        if (strict) {
          inadmissible.delete(k);
          blocked.add(cqName);
          continue;
        }
        inadmissible.add(k);
        ctx.behindWaiting = true;
        continue;
      }
      if (result.borrows && !allowBorrowing) {
        // Borrowing entries go after every ClusterQueue's non-borrowing ones.
        cqMisses.borrows.set(shape, usageVersion);
        if (strict) stopped.add(cqName);
        continue;
      }
      if (result.kind === "fit") {
        reserve(node, result.usage);
        decided.add(k);
        messages.delete(k);
        inadmissible.delete(k);
        const admission = { clusterQueue: cqName, podSetAssignments: result.podSetAssignments };
        admissions.push({ workload, admission });
        admittedNow.set(k, admission);
        admittedByLocalQueue.set(
          state.localQueueKey,
          (admittedByLocalQueue.get(state.localQueueKey) ?? 0) + 1,
        );
        continue;
      }
      decided.add(k);
      const targets = getTargets({
        preemptor: workload,
        cq,
        tree,
        request: result.usage,
        needPreemption: result.needPreemption,
        reserving: (name) => index.reserving(name),
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
          ctx.behindWaiting = true;
          noTargets.set(shape, { version: usageVersion, message: result.message });
          continue;
        }
        if ((cq.spec.preemption?.reclaimWithinCohort ?? "Never") !== "Any") {
          reserve(node, toReserve(node, result.usage, result.borrows));
        }
        inadmissible.delete(k);
        blocked.add(cqName);
        continue;
      }
      inadmissible.delete(k);
      blocked.add(cqName);
      if (targets.some((t) => targeted.has(t.victim.key))) {
        messages.set(k, "Workload has overlapping preemption targets with another workload");
        preemptionSkips.set(cqName, (preemptionSkips.get(cqName) ?? 0) + 1);
        continue;
      }
      for (const t of targets) targeted.add(t.victim.key);
      reserve(node, result.usage);
      preemptions.push({ preemptor: workload, clusterQueue: cqName, targets });
      preemptors.add(k);
      messages.set(k, `${result.message}. Pending the preemption of ${targets.length} workload(s)`);
    }
  }

  /** Whether a parked Workload of the ClusterQueue goes before `workload` in its order. */
  const parkedAhead = (cqName: string, workload: Wl): boolean => {
    const order = info.order(workload);
    for (const localQueue of parkedIn.get(cqName) ?? []) {
      for (const p of index.parked.get(localQueue)?.values() ?? []) {
        if (compareOrder(info.order(p.workload), order) < 0) return true;
      }
    }
    return false;
  };
  const pendingByClusterQueue = new Map<string, number>();
  const pendingStatus = new Map<string, { active: number; inadmissible: number }>();
  for (const cqName of new Set([...queued.keys(), ...parkedIn.keys()])) {
    const counts = { active: 0, inadmissible: parkedCount(cqName) };
    pendingStatus.set(cqName, counts);
    let head = true;
    for (const workload of queued.get(cqName) ?? []) {
      const state = info.state(workload);
      const k = state.key;
      if (admittedNow.has(k)) continue;
      if (inadmissible.has(k)) {
        counts.inadmissible++;
        parked.push({ localQueue: state.localQueueKey, key: k, clusterQueue: cqName });
      } else counts.active++;
      const message = messages.get(k);
      // As Kueue writes the message of the heads it attempts: this ClusterQueue's first
      // waiting Workload, a preemptor, and every Workload the first time it is seen; the rest
      // keep the message they have until they come to the head.
      const first = head;
      head = false;
      if (message === undefined) continue;
      const write = preemptors.has(k) || !state.seen || (first && !parkedAhead(cqName, workload));
      if (write) pending.push({ workload, reason: "Pending", message });
    }
    pendingByClusterQueue.set(cqName, counts.active + counts.inadmissible);
  }

  const clusterQueues = clusterQueueStatuses({
    clusterQueues: input.clusterQueues,
    tree,
    index,
    admissions,
    pendingByClusterQueue,
    states,
  });
  const localQueues = localQueueStatuses({
    localQueues: input.localQueues,
    index,
    admittedByLocalQueue,
    routable: (lqKey: string) => "clusterQueue" in routeOf(lqKey),
    states,
  });

  return {
    admissions,
    preemptions,
    pending,
    parked,
    clusterQueues,
    localQueues,
    pendingByClusterQueue,
    pendingStatus,
    preemptionSkips,
  };
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
