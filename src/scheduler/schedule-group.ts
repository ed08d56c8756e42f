/**
 * The group cycle (upstream 1.37's `scheduleOnePodGroup` with `PlacementFeasible`): when a gang
 * member is popped, its queued siblings are taken out of the queue too and the whole group is
 * placed on ONE snapshot, each member filtered and scored with the earlier ones tentatively on
 * their nodes. If the members already bound or assumed plus those placed reach `minCount`, every
 * placement is kept and each member starts its binding cycle (members beyond minCount that do
 * not fit go back to the queue as ordinary failures). Otherwise every placement is undone, so
 * nothing of the gang holds capacity between cycles (no Permit wait, no deadlock between two
 * gangs), group preemption may evict lower-priority pods for the whole gang, and every member
 * fails: infeasible ones with their own FitError, the others with the group's message
 * (`minCount (3) cannot be satisfied: 2 scheduled, 0 remaining`). The PodGroup's status and the
 * podgroup metrics record the outcome.
 */
import {
  CycleState,
  fitErrorOf,
  type GroupPolicy,
  type GroupRef,
  groupName,
  isRejected,
  isSuccess,
  minCountOf,
  type NominatingInfo,
  newStatus,
  type PodGroupPostFilterPlugin,
  podPriority,
  type QueuedPodInfo,
  type Status,
  statusMessage,
  unresolvable,
  unschedulable,
  withError,
} from "./framework/index.ts";
import { type Attempt, CycleSimulation, type Placement } from "./group-simulation.ts";
import type { PodGroupResult } from "./metrics.ts";
import {
  type GroupCondition,
  reasonScheduled,
  reasonSchedulerError,
  reasonUnschedulable,
  reasonWaitingForPreemption,
} from "./pod-groups/index.ts";
import type { Framework } from "./runtime/index.ts";
import {
  bindingCycle,
  clearNomination,
  noNodesAvailableMessage,
  singleNodeFitError,
  track,
} from "./schedule-one.ts";
import { handleSchedulingFailure, type SchedulerContext } from "./scheduling-failure.ts";

/** Upstream's PlacementFeasible message when the gang cannot reach minCount. */
export function cannotSatisfyMessage(minCount: number, scheduled: number, remaining: number) {
  return `minCount (${minCount}) cannot be satisfied: ${scheduled} scheduled, ${remaining} remaining`;
}

/** Upstream's message while the victims of a group preemption terminate. */
export const waitingForPreemptionMessage = "pod group is waiting for preemption to complete";

/** Upstream's error for a group whose members name different schedulers. */
export function schedulerNameMismatchMessage(a: string, b: string): string {
  return `all pods in a single pod group should have the same .spec.schedulerName set, got: "${a}" and "${b}"`;
}

/** A member's fate in the cycle. */
type Outcome =
  | { readonly kind: "placed"; readonly placement: Placement }
  | { readonly kind: "failed"; readonly status: Status }
  | { readonly kind: "unevaluated" };

/** Members in upstream's order: higher priority first, then the earlier first attempt. */
export function orderMembers(infos: QueuedPodInfo[]): QueuedPodInfo[] {
  return infos.sort((a, b) => {
    const pa = podPriority(a.podInfo.pod);
    const pb = podPriority(b.podInfo.pod);
    if (pa !== pb) return pb - pa;
    return (a.initialAttemptTimestamp ?? a.timestamp) - (b.initialAttemptTimestamp ?? b.timestamp);
  });
}

/** The popped member and its queued siblings (not gated, not in flight). */
function collectMembers(ctx: SchedulerContext, first: QueuedPodInfo, ref: GroupRef) {
  const infos: QueuedPodInfo[] = [first];
  for (const uid of ctx.podGroups.unscheduledMembers(ref.key)) {
    if (uid === first.podInfo.uid) continue;
    const info = ctx.queue.popSpecific(uid);
    if (info !== undefined) infos.push(info);
  }
  const live: QueuedPodInfo[] = [];
  for (const info of infos) {
    const pod = info.podInfo.pod;
    if (pod.metadata.deletionTimestamp !== undefined || ctx.cache.isAssumedPod(pod)) {
      ctx.queue.done(info.podInfo.uid);
    } else {
      live.push(info);
    }
  }
  return orderMembers(live);
}

/**
 * Schedules the gang of `first` in one cycle. Resolves when the cycle is over; binding cycles
 * and failure writes continue in the background.
 */
export async function scheduleGroup(
  ctx: SchedulerContext,
  first: QueuedPodInfo,
  ref: GroupRef,
  policy: GroupPolicy,
): Promise<void> {
  const startedAt = performance.now();
  const infos = collectMembers(ctx, first, ref);
  if (infos.length === 0) return;
  const schedulerName = infos[0]?.podInfo.pod.spec.schedulerName ?? "default-scheduler";
  const fw = ctx.frameworks.get(schedulerName) ?? ctx.frameworks.values().next().value;
  if (fw === undefined) {
    for (const info of infos) ctx.queue.done(info.podInfo.uid);
    return;
  }
  const finish = (result: PodGroupResult, condition: GroupCondition): void => {
    ctx.podGroupStatus.recordCycle(ref, condition);
    ctx.metrics.observePodGroupAttempt(
      result,
      fw.profileName,
      (performance.now() - startedAt) / 1000,
    );
  };
  const mismatch = infos.find(
    (i) => (i.podInfo.pod.spec.schedulerName ?? "default-scheduler") !== schedulerName,
  );
  if (mismatch !== undefined) {
    const error = new Error(
      schedulerNameMismatchMessage(
        mismatch.podInfo.pod.spec.schedulerName ?? "default-scheduler",
        schedulerName,
      ),
    );
    failAll(ctx, fw, infos, withError(newStatus("Error"), error));
    finish("error", { status: "False", reason: reasonSchedulerError, message: error.message });
    return;
  }

  ctx.cache.updateSnapshot(ctx.snapshot);
  if (ctx.snapshot.numNodes === 0) {
    const status = withError(unresolvable(), new Error(noNodesAvailableMessage));
    failAll(ctx, fw, infos, status);
    finish("unschedulable", {
      status: "False",
      reason: reasonUnschedulable,
      message: noNodesAvailableMessage,
    });
    return;
  }

  const minCount = minCountOf(policy);
  const before = ctx.podGroups.counts(ref.key).scheduled;
  const simulation = new CycleSimulation(ctx, fw);
  const outcomes: Outcome[] = infos.map(() => ({ kind: "unevaluated" }));
  let scheduled = before;
  let placed = 0;
  let remaining = infos.length;
  let error: Status | undefined;
  for (let i = 0; i < infos.length; i++) {
    // PlacementFeasible before each member: stop as soon as minCount is out of reach.
    if (scheduled + remaining < minCount) break;
    remaining--;
    let attempt: Attempt;
    try {
      attempt = simulation.attempt((infos[i] as QueuedPodInfo).podInfo, infos.length - i - 1);
    } catch (thrown: unknown) {
      const err = thrown instanceof Error ? thrown : new Error(String(thrown));
      attempt = { status: withError(newStatus("Error"), err), state: new CycleState() };
    }
    if ("placed" in attempt) {
      outcomes[i] = { kind: "placed", placement: attempt.placed };
      scheduled++;
      placed++;
      continue;
    }
    outcomes[i] = { kind: "failed", status: attempt.status };
    if (!isRejected(attempt.status)) {
      error = withError(
        newStatus("Error"),
        new Error(
          `failed to schedule other pod from a pod group: ${statusMessage(attempt.status)}`,
        ),
      );
      break;
    }
  }

  if (error === undefined && scheduled >= minCount && placed > 0) {
    simulation.commit();
    commit(ctx, fw, infos, outcomes);
    finish("scheduled", { status: "True", reason: reasonScheduled, message: "" });
    return;
  }
  simulation.revert();
  if (error !== undefined) {
    failMembers(ctx, fw, infos, outcomes, error, clearNomination);
    finish("error", {
      status: "False",
      reason: reasonSchedulerError,
      message: statusMessage(error),
    });
    return;
  }
  const message = cannotSatisfyMessage(minCount, scheduled, remaining);
  ctx.logger.v(2).info("Unable to schedule a pod group", { podGroup: groupName(ref), message });
  const preemption = fw.podGroupPostFilterPlugins[0];
  const plan =
    preemption === undefined || scheduled >= minCount
      ? undefined
      : await preemptForGroup(ctx, fw, preemption, infos, minCount - before);
  if (plan !== undefined) {
    const status = unschedulable(waitingForPreemptionMessage);
    failMembers(ctx, fw, infos, outcomes, status, clearNomination, plan, true);
    finish("unschedulable", {
      status: "Unknown",
      reason: reasonWaitingForPreemption,
      message: waitingForPreemptionMessage,
    });
    return;
  }
  failMembers(ctx, fw, infos, outcomes, unschedulable(message), clearNomination);
  finish("unschedulable", { status: "False", reason: reasonUnschedulable, message });
}

/** Binds every placed member (after Permit); failed ones go back to the queue. */
function commit(
  ctx: SchedulerContext,
  fw: Framework,
  infos: readonly QueuedPodInfo[],
  outcomes: readonly Outcome[],
): void {
  infos.forEach((info, i) => {
    const outcome = outcomes[i] as Outcome;
    if (outcome.kind === "placed") {
      const { state, host, assumed } = outcome.placement;
      const permitted = fw.runPermitPlugins(state, assumed, host);
      if (!isSuccess(permitted) && permitted.code !== "Wait") {
        CycleSimulation.forget(ctx, fw, outcome.placement);
        const status = isRejected(permitted)
          ? singleNodeFitError(info.podInfo.pod, host, permitted)
          : permitted;
        track(ctx, handleSchedulingFailure(ctx, fw, info, status, clearNomination));
        return;
      }
      track(ctx, bindingCycle(ctx, fw, state, info, host, assumed));
      return;
    }
    const status =
      outcome.kind === "failed"
        ? outcome.status
        : unschedulable("pod group scheduling cycle ended before this pod was evaluated");
    track(ctx, handleSchedulingFailure(ctx, fw, info, status, clearNomination));
  });
}

/**
 * Fails every member: infeasible ones with their own status, the others with `group`; each gets
 * the rejecting plugins of the whole group, so the events that could help any of them requeue
 * all of them (the gang retries as a unit). With a preemption plan, members get their nominated
 * nodes.
 */
function failMembers(
  ctx: SchedulerContext,
  fw: Framework,
  infos: readonly QueuedPodInfo[],
  outcomes: readonly Outcome[],
  group: Status,
  nomination: NominatingInfo,
  plan?: ReadonlyMap<string, string>,
  groupStatusForAll = false,
): void {
  const plugins = new Set<string>();
  const pending = new Set<string>();
  for (const outcome of outcomes) {
    if (outcome.kind !== "failed") continue;
    const fitError = fitErrorOf(outcome.status);
    for (const p of fitError?.diagnosis.unschedulablePlugins ?? []) plugins.add(p);
    for (const p of fitError?.diagnosis.pendingPlugins ?? []) pending.add(p);
  }
  infos.forEach((info, i) => {
    const outcome = outcomes[i] as Outcome;
    const status = outcome.kind === "failed" && !groupStatusForAll ? outcome.status : group;
    const node = plan?.get(info.podInfo.uid);
    const nominating: NominatingInfo =
      node === undefined ? nomination : { nominatedNodeName: node, mode: "Override" };
    if (fitErrorOf(status) === undefined && isRejected(status)) {
      info.unschedulablePlugins = new Set(plugins);
      info.pendingPlugins = new Set(pending);
    }
    track(ctx, handleSchedulingFailure(ctx, fw, info, status, nominating));
  });
}

function failAll(
  ctx: SchedulerContext,
  fw: Framework,
  infos: readonly QueuedPodInfo[],
  status: Status,
): void {
  for (const info of infos) {
    track(ctx, handleSchedulingFailure(ctx, fw, info, status, clearNomination));
  }
}

/**
 * Group preemption: a dry run on a fresh simulation (undone before any API call), then the
 * eviction of the victims. Returns the members' nominations, or undefined when preemption cannot
 * place the whole gang (nothing is evicted then).
 */
async function preemptForGroup(
  ctx: SchedulerContext,
  fw: Framework,
  plugin: PodGroupPostFilterPlugin,
  infos: readonly QueuedPodInfo[],
  needed: number,
): Promise<ReadonlyMap<string, string> | undefined> {
  const pods = infos.map((i) => i.podInfo.pod);
  const simulation = new CycleSimulation(ctx, fw);
  let selected: ReturnType<PodGroupPostFilterPlugin["selectGroupVictims"]>;
  try {
    selected = plugin.selectGroupVictims(pods, needed, simulation);
  } catch (error: unknown) {
    ctx.logger.error("Group preemption failed", { plugin: plugin.name, error });
    return undefined;
  } finally {
    simulation.revert();
  }
  if (!("plan" in selected)) return undefined;
  const first = pods[0];
  if (first === undefined) return undefined;
  const evicted = await plugin.evictGroupVictims(first, selected.plan);
  if (!isSuccess(evicted)) {
    ctx.logger.error("Group preemption could not evict its victims", {
      error: statusMessage(evicted),
    });
    return undefined;
  }
  return selected.plan.nominations;
}
