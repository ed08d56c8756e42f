/**
 * Tentative placements for one group cycle: each member is filtered and scored with the earlier
 * members already counted on their nodes (assumed in the cache and reserved, the snapshot
 * refreshed incrementally, so PreFilter state of a later member sees them as it sees nominated
 * pods). Group preemption also takes victims off their nodes. Everything is synchronous and is
 * undone by `revert` (or kept by `commit`) before the cycle awaits anything, so informer events
 * never meet a half-simulated cache.
 */
import type { Pod } from "../api/index.ts";
import type { DeepReadonly } from "../util/index.ts";
import { findNodesThatFitPod, prioritizeAndSelect } from "./find-nodes.ts";
import {
  CycleState,
  FitError,
  type GroupSimulation,
  isSuccess,
  type NodeToStatusReader,
  newStatus,
  PodInfo,
  type PodObject,
  PodsToActivate,
  podsToActivateKey,
  type Status,
  setCyclePodInfo,
  withError,
} from "./framework/index.ts";
import type { Framework } from "./runtime/index.ts";
import { assumeAndReserve, unreserveAndForget } from "./schedule-one.ts";
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

function newCycleState(podInfo: PodInfo): CycleState {
  const state = new CycleState();
  state.write(podsToActivateKey, new PodsToActivate());
  setCyclePodInfo(state, podInfo);
  return state;
}

export class CycleSimulation implements GroupSimulation {
  readonly #ctx: SchedulerContext;
  readonly #fw: Framework;
  /** Undo steps, newest last. */
  readonly #undo: (() => void)[] = [];

  constructor(ctx: SchedulerContext, fw: Framework) {
    this.#ctx = ctx;
    this.#fw = fw;
  }

  /** Filters and scores the member on the current simulated cluster and places it. */
  attempt(podInfo: PodInfo): Attempt {
    const ctx = this.#ctx;
    const pod = podInfo.pod;
    const state = newCycleState(podInfo);
    const filtered = findNodesThatFitPod(this.#fw, state, pod, ctx.snapshot, ctx.selection);
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
    const selected = prioritizeAndSelect(this.#fw, state, pod, filtered.feasible, ctx.random);
    if ("error" in selected)
      return { status: withError(newStatus("Error"), selected.error), state };
    return this.#assume(pod, selected.host, state);
  }

  #assume(pod: PodObject, host: string, state: CycleState): Attempt {
    const ctx = this.#ctx;
    const fw = this.#fw;
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
    const attempt = this.#assume(pod, nodeName, state);
    return "placed" in attempt ? fits : attempt.status;
  }

  remove(podInfo: PodInfo): void {
    const ctx = this.#ctx;
    const restore = ctx.cache.detachPod(podInfo.uid);
    if (restore === undefined) return;
    ctx.cache.updateSnapshot(ctx.snapshot);
    this.#undo.push(restore);
  }

  /** Undoes every placement and removal, newest first, and refreshes the snapshot. */
  revert(): void {
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
