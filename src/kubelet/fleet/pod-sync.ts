/**
 * `syncPod(ctx, key)`: one level-triggered pass over a pod bound to an emulated node. It admits
 * new pods, advances the emulated runtime to now, writes the status when it changed, deletes
 * pods whose graceful deletion is done, and sets the pod's timer for its next transition.
 */
import { type Pod, type PodStatus, semanticEqual } from "../../api/index.ts";
import { isConflict, isNotFound, podsResource, referenceTo } from "../../client/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import { runAdmitHandlers } from "../admission/admit-handler.ts";
import { newPredicateAdmitHandler } from "../admission/predicate.ts";
import { nodeInternalIp } from "../node/node-object.ts";
import { fieldPathOf, runtimeEvents } from "../runtime/events.ts";
import { podPlan, specImagesChanged } from "../runtime/plan.ts";
import {
  advancePod,
  forceTerminal,
  isPodFinished,
  newPodRecord,
  nextWakeAt,
  type PodRecord,
  replaceContainerPlans,
  requestStop,
} from "../runtime/pod-record.ts";
import { rejectedPodStatus, renderPodStatus } from "../runtime/pod-status.ts";
import { podStatusPatch } from "../runtime/pod-status-patch.ts";
import { recordFromStatus } from "../runtime/recover.ts";
import { type FleetContext, podKey } from "./context.ts";
import type { NodeAgent, PodSlot } from "./node-agent.ts";

const fieldManager = "kubelet";
const predicate = newPredicateAdmitHandler();

function isTerminalPhase(phase: string | undefined): phase is "Succeeded" | "Failed" {
  return phase === "Succeeded" || phase === "Failed";
}

/** Gives back what an admitted pod held: its IP and the admit handlers' state. Idempotent. */
function release(agent: NodeAgent, slot: PodSlot, pod: DeepReadonly<Pod> | undefined): void {
  if (slot.released) return;
  slot.released = true;
  agent.ips?.release(slot.uid);
  if (pod !== undefined) for (const handler of agent.handlers) handler.release?.(pod);
}

/** Forgets a pod that is gone (or was replaced by a new pod of the same name). */
function forget(ctx: FleetContext, key: string, pod: DeepReadonly<Pod> | undefined): void {
  const home = ctx.podHomes.get(key);
  if (home === undefined) return;
  ctx.podHomes.delete(key);
  ctx.cancel(podKey(key));
  const agent = ctx.agents.get(home.node);
  const slot = agent?.pods.get(home.uid);
  if (agent === undefined || slot === undefined) return;
  release(agent, slot, pod);
  agent.pods.delete(home.uid);
}

/** `reasonDeadlineExceeded` and `messageDeadlineExceeded` of the kubelet's active deadline handler. */
const deadlineReason = "DeadlineExceeded";
const deadlineMessage = "Pod was active on the node longer than the specified deadline";

/** When `spec.activeDeadlineSeconds`, counted from `status.startTime`, runs out. */
function activeDeadlineAt(pod: DeepReadonly<Pod>, startTime: string): number | undefined {
  const seconds = pod.spec.activeDeadlineSeconds;
  const start = Date.parse(startTime);
  return seconds === undefined || Number.isNaN(start) ? undefined : start + seconds * 1000;
}

/** Takes on a pod the agent has not seen: recovers it from its status, or admits it. */
function admit(
  ctx: FleetContext,
  agent: NodeAgent,
  pod: DeepReadonly<Pod>,
  key: string,
  now: number,
): PodSlot | undefined {
  const uid = pod.metadata.uid ?? "";
  const plan = podPlan(pod, {
    startDelayMs: agent.node.kubelet.podStartDelayMs,
    stopDelayMs: agent.node.kubelet.podStopDelayMs,
  });
  for (const problem of plan.problems) {
    ctx.logger.info("Ignoring a pod annotation", { pod: key, problem });
  }
  const node = ctx.cachedNode(agent.node.name);
  if (node === undefined) return undefined;
  const finishedBefore = isTerminalPhase(pod.status?.phase);
  const recovered = finishedBefore ? undefined : recordFromStatus(pod, plan, now);
  const slot: PodSlot = {
    uid,
    key,
    plan,
    record: recovered,
    startTime: pod.status?.startTime ?? rfc3339(new Date(now)),
    podIP: pod.status?.podIP,
    deletionSeenAt: undefined,
    refusal: undefined,
    released: false,
    deleting: false,
    deadlineExceeded: false,
    lastWritten: undefined,
    seq: agent.nextSeq(),
  };
  if (finishedBefore || (recovered === undefined && pod.metadata.deletionTimestamp !== undefined)) {
    // Finished before this kubelet took it on (an earlier run, or a phase set by someone
    // else), or deleted before it ever ran: nothing to run, its status stays as it is.
    slot.record = undefined;
    slot.released = true;
    agent.pods.set(uid, slot);
    ctx.podHomes.set(key, { node: agent.node.name, uid });
    return slot;
  }
  const others = agent.activeSlots().flatMap((s) => {
    const other = ctx.cachedPod(s.key);
    return other === undefined ? [] : [other];
  });
  const verdict = runAdmitHandlers([...agent.handlers, predicate], {
    pod,
    otherPods: others,
    node,
    restoring: recovered !== undefined,
  });
  agent.pods.set(uid, slot);
  ctx.podHomes.set(key, { node: agent.node.name, uid });
  if (!verdict.admit) {
    if (recovered !== undefined) {
      ctx.logger.info("Keeping a running pod that admission would now refuse", {
        pod: key,
        reason: verdict.reason,
        message: verdict.message,
      });
    } else {
      ctx.logger.v(2).info("Pod rejected", { pod: key, reason: verdict.reason });
      // `rejectPod`: a Warning with the admission reason and message.
      ctx
        .events(agent.node.name)
        .event(referenceTo(pod, podsResource), "Warning", verdict.reason, verdict.message);
      slot.record = undefined;
      slot.released = true;
      slot.refusal = { reason: verdict.reason, message: verdict.message };
      return slot;
    }
  }
  if (slot.record === undefined) {
    slot.record = newPodRecord(plan, pod.spec.restartPolicy ?? "Always", now);
  }
  if (pod.spec.hostNetwork === true) slot.podIP = nodeInternalIp;
  else if (slot.podIP !== undefined) agent.ips?.restore(uid, slot.podIP);
  else slot.podIP = agent.ips?.allocate(uid);
  return slot;
}

/** Records the events of the runtime step from `before` to `after` as the node's kubelet. */
function recordRuntimeEvents(
  ctx: FleetContext,
  agent: NodeAgent,
  pod: DeepReadonly<Pod>,
  before: PodRecord,
  after: PodRecord,
): void {
  if (before === after) return;
  const { events, pulled } = runtimeEvents(pod, before, after, (image) => agent.images.has(image));
  for (const image of pulled) agent.images.add(image);
  const recorder = ctx.events(agent.node.name);
  for (const e of events) {
    recorder.event(referenceTo(pod, podsResource, e.fieldPath), e.type, e.reason, e.message);
  }
}

/**
 * PATCHes the pod's status from `base` (what the API server holds, as far as this kubelet
 * knows) to `status`, with the pod's uid as precondition (upstream `PatchPodStatus`). A pod
 * that is gone, or was replaced by a new pod of the same name, is left alone.
 */
async function writeStatus(
  ctx: FleetContext,
  pod: DeepReadonly<Pod>,
  base: DeepReadonly<PodStatus> | undefined,
  status: PodStatus,
): Promise<void> {
  const patch = podStatusPatch(pod.metadata.uid ?? "", base, status);
  if (patch === undefined) return;
  try {
    await ctx.client.patch(
      podsResource,
      pod.metadata.namespace,
      pod.metadata.name ?? "",
      "strategic",
      patch,
      { subresource: "status", fieldManager },
    );
  } catch (error: unknown) {
    if (!isNotFound(error) && !isConflict(error)) throw error;
  }
}

async function deletePod(ctx: FleetContext, pod: DeepReadonly<Pod>): Promise<void> {
  try {
    await ctx.client.delete(podsResource, pod.metadata.namespace, pod.metadata.name ?? "", {
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.metadata.uid ?? "" },
    });
  } catch (error: unknown) {
    if (!isNotFound(error) && !isConflict(error)) throw error;
  }
}

/** Reconciles one pod (`namespace/name`). Safe to run any time, any number of times. */
export async function syncPod(ctx: FleetContext, key: string): Promise<void> {
  const pod = ctx.cachedPod(key);
  const home = ctx.podHomes.get(key);
  if (pod === undefined || (home !== undefined && home.uid !== pod.metadata.uid)) {
    forget(ctx, key, pod);
    if (pod === undefined) return;
  }
  const agent = ctx.agents.get(pod.spec.nodeName ?? "");
  if (agent === undefined || !agent.registered || agent.failed) return;
  const now = ctx.clock.now().getTime();
  const slot = agent.pods.get(pod.metadata.uid ?? "") ?? admit(ctx, agent, pod, key, now);
  if (slot === undefined) return;

  const refusal = slot.refusal;
  if (refusal !== undefined) {
    if (pod.status?.phase !== "Failed" || pod.status.reason !== refusal.reason) {
      await writeStatus(
        ctx,
        pod,
        pod.status,
        rejectedPodStatus(pod, refusal.reason, refusal.message, slot.startTime),
      );
    }
    if (pod.metadata.deletionTimestamp !== undefined && !slot.deleting) {
      await deletePod(ctx, pod);
      slot.deleting = true;
    }
    return;
  }
  const deleting = pod.metadata.deletionTimestamp !== undefined;
  const before = slot.record;
  let record = before;
  if (record === undefined) {
    if (deleting && !slot.deleting) {
      await deletePod(ctx, pod);
      slot.deleting = true;
    }
    return;
  }
  if (!deleting && specImagesChanged(slot.plan, pod)) {
    const plan = podPlan(pod, {
      startDelayMs: agent.node.kubelet.podStartDelayMs,
      stopDelayMs: agent.node.kubelet.podStopDelayMs,
    });
    const replaced = replaceContainerPlans(record, plan.containers, now);
    slot.plan = plan;
    record = replaced.record;
    const recorder = ctx.events(agent.node.name);
    for (const name of replaced.restarted) {
      const container = record.containers.find((c) => c.plan.name === name);
      recorder.event(
        referenceTo(
          pod,
          podsResource,
          container === undefined ? undefined : fieldPathOf(container),
        ),
        "Normal",
        "Killing",
        `Container ${name} definition changed, will be restarted`,
      );
    }
  }
  if (deleting) {
    slot.deletionSeenAt ??= now;
    const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    record = requestStop(record, slot.deletionSeenAt + Math.min(graceMs, slot.plan.stopDelayMs));
  }
  const deadline = activeDeadlineAt(pod, slot.startTime);
  if (deadline !== undefined && now >= deadline && record.terminalPhase === undefined) {
    // `activeDeadlineHandler.ShouldEvict`: a Normal event, then the pod is killed and Failed.
    slot.deadlineExceeded = true;
    ctx
      .events(agent.node.name)
      .event(referenceTo(pod, podsResource), "Normal", deadlineReason, deadlineMessage);
    record = forceTerminal(record, "Failed", now + slot.plan.stopDelayMs);
  }
  const phase = pod.status?.phase;
  if (
    isTerminalPhase(phase) &&
    record.terminalPhase === undefined &&
    pod.status?.startTime !== undefined
  ) {
    record = forceTerminal(record, phase, now + slot.plan.stopDelayMs);
  }
  record = advancePod(record, now);
  slot.record = record;
  if (before !== undefined) recordRuntimeEvents(ctx, agent, pod, before, record);
  const finished = isPodFinished(record);
  if (finished) release(agent, slot, pod);

  const status = renderPodStatus(pod, record, {
    now,
    hostIP: nodeInternalIp,
    podIP: slot.podIP,
    startTime: slot.startTime,
    ...(slot.deadlineExceeded
      ? { failure: { reason: deadlineReason, message: deadlineMessage } }
      : {}),
  });
  // Until the informer catches up with our last write, compare with what we wrote; once it
  // has, the informer's copy is the one to keep.
  const written = slot.lastWritten;
  const behind = written !== undefined && written.over === pod.metadata.resourceVersion;
  if (!behind) slot.lastWritten = undefined;
  const base = behind ? written.status : pod.status;
  if (!semanticEqual(base, status)) {
    await writeStatus(ctx, pod, base, status);
    slot.lastWritten = { status, over: pod.metadata.resourceVersion };
  }

  if (finished && deleting && !slot.deleting) {
    await deletePod(ctx, pod);
    slot.deleting = true;
    return;
  }
  let wake = nextWakeAt(record, now);
  if (deadline !== undefined && record.terminalPhase === undefined && deadline > now) {
    wake = wake === undefined ? deadline : Math.min(wake, deadline);
  }
  if (wake === undefined) ctx.cancel(podKey(key));
  else ctx.schedule(podKey(key), wake);
}
