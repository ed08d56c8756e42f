/**
 * Tentative placements for one group cycle: each member is filtered and scored with the earlier
 * members already counted on their nodes (assumed in the cache and reserved, the snapshot
 * refreshed incrementally, so PreFilter state of a later member sees them as it sees nominated
 * pods). Group preemption also takes victims off their nodes. Everything is synchronous and is
 * undone by `revert` (or kept by `commit`) before the cycle awaits anything, so informer events
 * never meet a half-simulated cache.
 *
 * Members with the same signature share a `BatchMemo`: each one reuses the Filter and raw Score
 * answers of the nodes no earlier member changed, and evaluates only the others (the node the
 * previous member went to, and nodes not seen yet). The memo is dropped whenever something else
 * changes the cluster: an unsigned pod placed, a victim removed, a nominated pod in play.
 */
import type { Pod } from "../api/index.ts";
import type { DeepReadonly } from "../util/index.ts";
import { findNodesThatFitPod, numFeasibleNodesToFind, prioritizeAndSelect } from "./find-nodes.ts";
import {
  type CycleState,
  FitError,
  type GroupSimulation,
  isSuccess,
  type NodeToStatusReader,
  newStatus,
  PodInfo,
  type PodObject,
  type Status,
  withError,
} from "./framework/index.ts";
import { BatchMemo, type Framework, startMemo } from "./runtime/index.ts";
import { assumeAndReserve, newCycleState, unreserveAndForget } from "./schedule-one.ts";
import type { SchedulerContext } from "./scheduling-failure.ts";

/** A member placed in the simulation: its cycle state, node and assumed copy. */
export interface Placement {
  readonly state: CycleState;
  readonly host: string;
  readonly assumed: DeepReadonly<Pod>;
}

/** The outcome of one member's attempt. */
export type Attempt =
  | { readonly placed: Placement }
  | { readonly status: Status; readonly state: CycleState; readonly statuses?: NodeToStatusReader };

export class CycleSimulation implements GroupSimulation {
  readonly #ctx: SchedulerContext;
  readonly #fw: Framework;
  /** Undo steps, newest last. */
  readonly #undo: (() => void)[] = [];
  /** Answers shared by same-signature members; undefined when batching is off. */
  readonly #memo: BatchMemo | undefined;

  /**
   * `memo`: where same-signature members share answers; by default a fresh one, or none (every
   * member evaluated in full) when `ctx.opportunisticBatching` is false. `false` turns it off.
   */
  constructor(ctx: SchedulerContext, fw: Framework, memo?: BatchMemo | false) {
    this.#ctx = ctx;
    this.#fw = fw;
    if (memo === false) this.#memo = undefined;
    else this.#memo = memo ?? (ctx.opportunisticBatching === false ? undefined : new BatchMemo());
  }

  /**
   * Filters and scores the member on the current simulated cluster and places it. `remaining`:
   * how many members will be attempted after this one (unknown: many), which decides whether
   * this member's answers are worth keeping.
   */
  attempt(podInfo: PodInfo, remaining = Number.POSITIVE_INFINITY): Attempt {
    const ctx = this.#ctx;
    const pod = podInfo.pod;
    const state = newCycleState(podInfo);
    const batch = this.#batchFor(podInfo, remaining);
    const filtered = findNodesThatFitPod(this.#fw, state, pod, ctx.snapshot, ctx.selection, batch);
    if (filtered.error !== undefined) {
      return { status: withError(newStatus("Error"), filtered.error), state };
    }
    if (filtered.feasible.length === 0) {
      const fitError = new FitError(pod, ctx.snapshot.numNodes, filtered.diagnosis);
      return {
        status: withError(newStatus("Unschedulable"), fitError),
        state,
        statuses: filtered.diagnosis.nodeToStatus,
      };
    }
    const positions = filtered.positions;
    const reuse =
      batch === undefined || positions === undefined ? undefined : { memo: batch, positions };
    const selected = prioritizeAndSelect(
      this.#fw,
      state,
      pod,
      filtered.feasible,
      ctx.random,
      reuse,
    );
    if ("error" in selected)
      return { status: withError(newStatus("Error"), selected.error), state };
    return this.#assume(pod, selected.host, state, batch !== undefined);
  }

  /**
   * The memo started for this member, or undefined when it must be evaluated in full: batching
   * is off, a pod is nominated somewhere (Filter then depends on priorities), the member has a
   * nominated node of its own (tried first, as the plain path does), it cannot be signed, or
   * there is nothing to reuse and nothing worth keeping.
   */
  #batchFor(podInfo: PodInfo, remaining: number): BatchMemo | undefined {
    const memo = this.#memo;
    if (memo === undefined) return undefined;
    return startMemo(memo, this.#fw, podInfo, this.#worthKeeping(remaining));
  }

  /**
   * Whether the members still to come can pass this member's nodes again: a filter pass stops
   * after enough feasible nodes and the next one starts behind it, so a node comes round again
   * only once the passes have gone through every node. Keeping answers no one reads costs as
   * much as computing them.
   */
  #worthKeeping(remaining: number): boolean {
    const all = this.#ctx.snapshot.numNodes;
    const pass = numFeasibleNodesToFind(
      this.#fw.percentageOfNodesToScore || this.#ctx.selection.percentageOfNodesToScore,
      all,
    );
    return remaining * pass >= all;
  }

  /**
   * Assumes and reserves `pod` on `host`. A signed pod changes only its node (a new NodeInfo copy,
   * which the memo has never seen); anything else may change answers elsewhere, so the memo goes.
   */
  #assume(pod: PodObject, host: string, state: CycleState, signed: boolean): Attempt {
    const ctx = this.#ctx;
    const fw = this.#fw;
    if (!signed) this.#memo?.clear();
    const reservation = assumeAndReserve(ctx, fw, state, pod, host);
    ctx.cache.updateSnapshot(ctx.snapshot);
    if ("status" in reservation) return { status: reservation.status, state };
    const assumed = reservation.assumed;
    this.#undo.push(() => unreserveAndForget(ctx, fw, state, assumed, host));
    return { placed: { state, host, assumed } };
  }

  // ---- GroupSimulation (for group preemption) ----

  place(
    pod: PodObject,
  ):
    | { readonly node: string }
    | { readonly statuses: NodeToStatusReader; readonly state: CycleState } {
    const attempt = this.attempt(this.#podInfo(pod));
    if ("placed" in attempt) return { node: attempt.placed.host };
    return { statuses: attempt.statuses ?? singleStatus(attempt.status), state: attempt.state };
  }

  placeOn(pod: PodObject, nodeName: string): Status {
    const ctx = this.#ctx;
    const podInfo = this.#podInfo(pod);
    const state = newCycleState(podInfo);
    const nodeInfo = ctx.snapshot.get(nodeName);
    if (nodeInfo === undefined) {
      return withError(newStatus("Error"), new Error(`node "${nodeName}" not found`));
    }
    const pre = this.#fw.runPreFilterPlugins(state, pod, ctx.snapshot.list());
    if (!isSuccess(pre.status)) return pre.status;
    const fits = this.#fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (!isSuccess(fits)) return fits;
    const attempt = this.#assume(pod, nodeName, state, false);
    return "placed" in attempt ? fits : attempt.status;
  }

  remove(podInfo: PodInfo): void {
    const ctx = this.#ctx;
    const restore = ctx.cache.detachPod(podInfo.uid);
    if (restore === undefined) return;
    this.#memo?.clear();
    ctx.cache.updateSnapshot(ctx.snapshot);
    this.#undo.push(restore);
  }

  /** Undoes every placement and removal, newest first, and refreshes the snapshot. */
  revert(): void {
    this.#memo?.clear();
    for (let undo = this.#undo.pop(); undo !== undefined; undo = this.#undo.pop()) undo();
    this.#ctx.cache.updateSnapshot(this.#ctx.snapshot);
  }

  /** Keeps the placements (the cycle binds them); there must be no removals. */
  commit(): void {
    this.#undo.length = 0;
  }

  /** Undoes one placement (a member that fails after the group committed, at Permit). */
  static forget(ctx: SchedulerContext, fw: Framework, placement: Placement): void {
    unreserveAndForget(ctx, fw, placement.state, placement.assumed, placement.host);
  }

  #podInfo(pod: PodObject): PodInfo {
    const info = this.#ctx.queue.get(pod.metadata.uid ?? "")?.podInfo;
    return info?.pod === pod ? info : new PodInfo(pod);
  }
}

/** A reader that gives every node the same status. */
function singleStatus(status: Status): NodeToStatusReader {
  return {
    get: () => status,
    nodesForStatusCode: (nodes, code) => (status.code === code ? [...nodes] : []),
  };
}
