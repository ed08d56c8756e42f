/**
 * One pod's trip through the scheduler (upstream's `ScheduleOne`): the scheduling cycle (snapshot
 * → filter → [postFilter] → score → assume → reserve → permit), then the binding cycle in the
 * background (wait on permit → preBind → bind → postBind). Failures put the pod back in the queue
 * and tell the user: the PodScheduled=False condition and a FailedScheduling event.
 */
import type { Pod } from "../api/index.ts";
import type { DeepReadonly } from "../util/index.ts";
import { findNodesThatFitPod, prioritizeAndSelect } from "./find-nodes.ts";
import {
  CycleState,
  Diagnosis,
  FitError,
  isRejected,
  isSuccess,
  type NominatingInfo,
  newStatus,
  type PodInfo,
  PodsToActivate,
  podInfoFor,
  podsToActivateKey,
  type QueuedPodInfo,
  type Status,
  setCyclePodInfo,
  statusMessage,
  unresolvable,
  withError,
} from "./framework/index.ts";
import { BatchMemo, type Framework, startMemo } from "./runtime/index.ts";
import { handleSchedulingFailure, type SchedulerContext } from "./scheduling-failure.ts";

export type { SchedulerContext } from "./scheduling-failure.ts";

/** upstream's `ErrNoNodesAvailable`. */
export const noNodesAvailableMessage = "no nodes available to schedule pods";

export const clearNomination: NominatingInfo = { nominatedNodeName: "", mode: "Override" };

interface CycleResult {
  readonly status: Status;
  readonly nominatingInfo?: NominatingInfo;
  readonly host?: string;
  readonly assumed?: DeepReadonly<Pod>;
}

/** A rejection on one node (Reserve, Permit) as a FitError over that node. */
export function singleNodeFitError(pod: DeepReadonly<Pod>, host: string, status: Status): Status {
  const diagnosis = new Diagnosis();
  diagnosis.nodeToStatus.set(host, status);
  diagnosis.addPluginStatus(status);
  return withError(newStatus(status.code), new FitError(pod, 1, diagnosis));
}

/** A fresh cycle state for one attempt of `podInfo`. */
export function newCycleState(podInfo: PodInfo): CycleState {
  const state = new CycleState();
  state.write(podsToActivateKey, new PodsToActivate());
  setCyclePodInfo(state, podInfo);
  return state;
}

/** What `schedulePod` found: a node, no feasible node (and why), or a failed attempt. */
export type PodPlacement =
  | { readonly host: string }
  | { readonly diagnosis: Diagnosis }
  | { readonly status: Status };

/**
 * Upstream's `schedulePod`: refreshes the snapshot, then Filter and Score on it and the chosen
 * node; with no feasible node, the diagnosis. Nothing is assumed.
 */
export function schedulePod(
  ctx: SchedulerContext,
  fw: Framework,
  state: CycleState,
  podInfo: PodInfo,
): PodPlacement {
  const pod = podInfo.pod;
  ctx.cache.updateSnapshot(ctx.snapshot);
  if (ctx.snapshot.numNodes === 0) {
    return { status: withError(unresolvable(), new Error(noNodesAvailableMessage)) };
  }
  const batch = podCycleMemo(ctx, fw, podInfo);
  const filtered = findNodesThatFitPod(fw, state, pod, ctx.snapshot, ctx.selection, batch);
  if (filtered.error !== undefined)
    return { status: withError(newStatus("Error"), filtered.error) };
  if (filtered.feasible.length === 0) return { diagnosis: filtered.diagnosis };
  const positions = filtered.positions;
  const reuse =
    batch === undefined || positions === undefined ? undefined : { memo: batch, positions };
  const selected = prioritizeAndSelect(fw, state, pod, filtered.feasible, ctx.random, reuse);
  return "error" in selected ? { status: withError(newStatus("Error"), selected.error) } : selected;
}

async function schedulingCycle(
  ctx: SchedulerContext,
  fw: Framework,
  state: CycleState,
  info: QueuedPodInfo,
): Promise<CycleResult> {
  const pod = info.podInfo.pod;
  const placement = schedulePod(ctx, fw, state, info.podInfo);
  if ("status" in placement) return { status: placement.status, nominatingInfo: clearNomination };
  if ("diagnosis" in placement) {
    const diagnosis = placement.diagnosis;
    const numNodes = ctx.snapshot.numNodes;
    let nominatingInfo: NominatingInfo | undefined = clearNomination;
    if (fw.hasPostFilterPlugins) {
      const post = await fw.runPostFilterPlugins(state, pod, diagnosis.nodeToStatus);
      diagnosis.postFilterMsg = statusMessage(post.status);
      if (post.status.code === "Error") {
        ctx.logger.error("PostFilter failed", { pod: info.podInfo.key, error: post.status.error });
      }
      nominatingInfo = post.nominatingInfo;
    }
    const fitError = new FitError(pod, numNodes, diagnosis);
    return {
      status: withError(newStatus("Unschedulable"), fitError),
      ...(nominatingInfo === undefined ? {} : { nominatingInfo }),
    };
  }
  const host = placement.host;

  const reservation = assumeAndReserve(ctx, fw, state, pod, host);
  if ("status" in reservation)
    return { status: reservation.status, nominatingInfo: clearNomination };
  const assumed = reservation.assumed;
  const permitted = fw.runPermitPlugins(state, assumed, host);
  if (!isSuccess(permitted) && permitted.code !== "Wait") {
    unreserveAndForget(ctx, fw, state, assumed, host);
    const status = isRejected(permitted) ? singleNodeFitError(pod, host, permitted) : permitted;
    return { status, nominatingInfo: clearNomination };
  }
  activatePods(ctx, state);
  return { status: permitted.code === "Wait" ? newStatus("Success") : permitted, host, assumed };
}

/**
 * The memo this pod's cycle shares with the single-pod cycles before it (see `BatchMemo`), or
 * undefined when it is evaluated in full: with the group cycle's conditions (`startMemo`), and
 * only while no pod in the cluster has affinity terms. Between two cycles pods come and go on
 * any node, which changes that node's NodeInfo copy and so drops its answers; only an existing
 * pod's affinity terms make a node's answer depend on pods elsewhere (in its topology domain),
 * so while any pod has them the memo is dropped. Placements are those of a full cycle.
 */
function podCycleMemo(
  ctx: SchedulerContext,
  fw: Framework,
  podInfo: PodInfo,
): BatchMemo | undefined {
  const memos = ctx.podMemos;
  if (memos === undefined) return undefined;
  let memo = memos.get(fw);
  if (memo === undefined) {
    memo = new BatchMemo();
    memos.set(fw, memo);
  }
  if (ctx.snapshot.havePodsWithAffinityList().length > 0) {
    memo.clear();
    return undefined;
  }
  return startMemo(memo, fw, podInfo, true);
}

/**
 * Assume `pod` on `host` (it counts on the node from now on; binding confirms it later) and run
 * the Reserve plugins. On a Reserve failure everything is undone and the status says why.
 */
export function assumeAndReserve(
  ctx: SchedulerContext,
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  host: string,
): { readonly assumed: DeepReadonly<Pod> } | { readonly status: Status } {
  const assumed: DeepReadonly<Pod> = { ...pod, spec: { ...pod.spec, nodeName: host } };
  ctx.cache.assumePod(assumed, podInfoFor(state, pod).onNode(assumed));
  // Nominated to a node and assumed there would count twice.
  ctx.queue.nominator.delete(assumed);
  const reserved = fw.runReservePluginsReserve(state, assumed, host);
  if (isSuccess(reserved)) return { assumed };
  unreserveAndForget(ctx, fw, state, assumed, host);
  return { status: isRejected(reserved) ? singleNodeFitError(pod, host, reserved) : reserved };
}

/** Undoes `assumeAndReserve`: Unreserve plugins, then the node forgets the assumed pod. */
export function unreserveAndForget(
  ctx: SchedulerContext,
  fw: Framework,
  state: CycleState,
  assumed: DeepReadonly<Pod>,
  host: string,
): void {
  fw.runReservePluginsUnreserve(state, assumed, host);
  ctx.cache.forgetPod(assumed);
}

function activatePods(ctx: SchedulerContext, state: CycleState): void {
  const toActivate = state.read(podsToActivateKey);
  if (toActivate === undefined || toActivate.pods.size === 0) return;
  ctx.queue.activate([...toActivate.pods.values()]);
  toActivate.pods.clear();
}

/** The binding cycle of an assumed pod (wait on Permit, PreBind, Bind, PostBind). */
export async function bindingCycle(
  ctx: SchedulerContext,
  fw: Framework,
  state: CycleState,
  info: QueuedPodInfo,
  host: string,
  assumed: DeepReadonly<Pod>,
): Promise<void> {
  const uid = info.podInfo.uid;
  const fail = async (status: Status): Promise<void> => {
    unreserveAndForget(ctx, fw, state, assumed, host);
    // Forgetting frees the node like a deletion of the assumed pod (not for itself).
    const freed = (): void =>
      ctx.queue.moveAllToActiveOrBackoffQueue(
        { resource: "AssignedPod", actionType: 2, label: "AssignedPodDelete" },
        assumed,
        undefined,
        (p) => p.metadata.uid !== uid,
      );
    if (!isRejected(status)) freed();
    await handleSchedulingFailure(ctx, fw, info, status, clearNomination);
    if (isRejected(status)) freed();
  };

  const permit = await fw.waitOnPermit(assumed);
  if (!isSuccess(permit)) {
    await fail(isRejected(permit) ? singleNodeFitError(info.podInfo.pod, host, permit) : permit);
    return;
  }
  // From here on failures mean backoff, not "unschedulable": the attempt is over for the queue.
  ctx.queue.done(uid);
  // PreBind and Bind talk to the API: they wait for a turn among the scheduler's calls in flight.
  let bound: Status;
  try {
    bound = await ctx.apiCalls.run(async () => {
      const preBound = await fw.runPreBindPlugins(state, assumed, host);
      return isSuccess(preBound) ? fw.runBindPlugins(state, assumed, host) : preBound;
    });
  } catch (error: unknown) {
    if (!ctx.apiCalls.closed) throw error;
    // The scheduler stopped before this pod's turn: nothing was sent, nothing to report.
    unreserveAndForget(ctx, fw, state, assumed, host);
    return;
  }
  if (!isSuccess(bound)) {
    await fail(
      bound.code === "Skip"
        ? withError(newStatus("Error"), new Error("no bind plugin bound the pod"))
        : bound,
    );
    return;
  }
  ctx.logger.v(2).info("Successfully bound pod to node", { pod: info.podInfo.key, node: host });
  ctx.metrics.observePodAttempt("scheduled", fw.profileName);
  fw.handle.eventRecorder.event(
    assumed,
    "Normal",
    "Scheduled",
    "Binding",
    `Successfully assigned ${assumed.metadata.namespace ?? ""}/${assumed.metadata.name ?? ""} to ${host}`,
  );
  fw.runPostBindPlugins(state, assumed, host);
  activatePods(ctx, state);
}

/**
 * Schedules the popped pod. Resolves when the scheduling cycle is over; the binding cycle and
 * the failure's API writes continue in the background (tracked in `ctx.background`).
 */
export async function scheduleOne(ctx: SchedulerContext, info: QueuedPodInfo): Promise<void> {
  const pod = info.podInfo.pod;
  const fw = ctx.frameworks.get(pod.spec.schedulerName ?? "default-scheduler");
  if (fw === undefined) {
    ctx.queue.done(info.podInfo.uid);
    return;
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    fw.handle.eventRecorder.event(
      pod,
      "Warning",
      "FailedScheduling",
      "Scheduling",
      `skip schedule deleting pod: ${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`,
    );
    ctx.queue.done(info.podInfo.uid);
    return;
  }
  if (ctx.cache.isAssumedPod(pod)) {
    ctx.queue.done(info.podInfo.uid);
    return;
  }
  const state = newCycleState(info.podInfo);
  let result: CycleResult;
  try {
    result = await schedulingCycle(ctx, fw, state, info);
  } catch (error: unknown) {
    const err = error instanceof Error ? error : new Error(String(error));
    result = { status: withError(newStatus("Error"), err), nominatingInfo: clearNomination };
  }
  if (!isSuccess(result.status) || result.host === undefined || result.assumed === undefined) {
    track(ctx, handleSchedulingFailure(ctx, fw, info, result.status, result.nominatingInfo));
    return;
  }
  track(ctx, bindingCycle(ctx, fw, state, info, result.host, result.assumed));
}

/** Runs `work` in the background; the scheduler waits for it when it stops. */
export function track(ctx: SchedulerContext, work: Promise<void>): void {
  const tracked = work.catch((error: unknown) => {
    ctx.logger.error("Scheduling work failed", { error });
  });
  ctx.background.add(tracked);
  void tracked.finally(() => ctx.background.delete(tracked));
}
