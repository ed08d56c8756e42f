/**
 * What happens when an attempt fails (upstream's `handleSchedulingFailure`): the pod goes back to
 * the queue with the plugins that rejected it (so only relevant events retry it), its nomination is
 * updated, and the user sees why: a `FailedScheduling` Warning event and the `PodScheduled=False`
 * condition (reason `Unschedulable`, or `SchedulerError` for internal errors) written through the
 * status subresource.
 */
import { type Pod, podCondition } from "../api/index.ts";
import { type Client, isNotFound, podsResource } from "../client/index.ts";
import { type Clock, type DeepReadonly, type Logger, type Random, rfc3339 } from "../util/index.ts";
import type { SchedulerCache, Snapshot } from "./cache/index.ts";
import type { ConcurrencyLimit } from "./concurrency-limit.ts";
import { truncateMessage } from "./event-recorder.ts";
import type { NodeSelection } from "./find-nodes.ts";
import {
  fitErrorOf,
  isRejected,
  type NominatingInfo,
  PodInfo,
  type QueuedPodInfo,
  type Status,
  statusMessage,
} from "./framework/index.ts";
import type { SchedulerMetrics } from "./metrics.ts";
import type { PodGroupManager, PodGroupStatusWriter } from "./pod-groups/index.ts";
import type { SchedulingQueue } from "./queue/index.ts";
import type { BatchMemo, Framework } from "./runtime/index.ts";

/** Everything a scheduling attempt works with. */
export interface SchedulerContext {
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly queue: SchedulingQueue;
  readonly cache: SchedulerCache;
  readonly snapshot: Snapshot;
  readonly client: Client;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** The informer's current copy of a pod. */
  readonly livePod: (namespace: string, name: string) => DeepReadonly<Pod> | undefined;
  /** Binding cycles and status writes still running. */
  readonly background: Set<Promise<void>>;
  /** Bounds the bindings and status patches in flight. */
  readonly apiCalls: ConcurrencyLimit;
  readonly selection: NodeSelection;
  /** Gang members and policies. */
  readonly podGroups: PodGroupManager;
  /** Writes PodGroup status after group cycles. */
  readonly podGroupStatus: PodGroupStatusWriter;
  readonly metrics: SchedulerMetrics;
  /**
   * Whether a group cycle reuses Filter and Score answers between members with the same
   * signature, and single-pod cycles between consecutive pods (see `BatchMemo`). Placements are
   * the same either way. @default true
   */
  readonly opportunisticBatching?: boolean;
  /**
   * Filter and Score answers carried from one single-pod cycle to the next, one memo per
   * profile (see `podCycleMemo` in schedule-one.ts); absent when `opportunisticBatching` is off.
   */
  readonly podMemos?: WeakMap<Framework, BatchMemo>;
}

export const reasonUnschedulable = "Unschedulable";
export const reasonSchedulerError = "SchedulerError";

/**
 * The status patch for a failed attempt, or undefined when the pod already says so. The
 * condition's transition time is kept while its status stays False.
 */
export function failureStatusPatch(
  pod: DeepReadonly<Pod>,
  reason: string,
  message: string,
  nominatingInfo: NominatingInfo | undefined,
  now: Date,
): Record<string, unknown> | undefined {
  const existing = podCondition(pod, "PodScheduled");
  const conditionChanged =
    existing === undefined ||
    existing.status !== "False" ||
    existing.reason !== reason ||
    existing.message !== message;
  const nominated = pod.status?.nominatedNodeName ?? "";
  const nominationChanged =
    nominatingInfo?.mode === "Override" && nominated !== nominatingInfo.nominatedNodeName;
  if (!conditionChanged && !nominationChanged) return undefined;
  const status: Record<string, unknown> = {};
  if (conditionChanged) {
    status["conditions"] = [
      {
        type: "PodScheduled",
        status: "False",
        reason,
        message,
        lastProbeTime: null,
        lastTransitionTime:
          existing?.status === "False" && existing.lastTransitionTime
            ? existing.lastTransitionTime
            : rfc3339(now),
      },
    ];
  }
  if (nominationChanged) {
    status["nominatedNodeName"] =
      nominatingInfo.nominatedNodeName === "" ? null : nominatingInfo.nominatedNodeName;
  }
  return { status };
}

export async function handleSchedulingFailure(
  ctx: SchedulerContext,
  fw: Framework,
  info: QueuedPodInfo,
  status: Status,
  nominatingInfo: NominatingInfo | undefined,
): Promise<void> {
  const pod = info.podInfo.pod;
  const reason = isRejected(status) ? reasonUnschedulable : reasonSchedulerError;
  ctx.metrics.observePodAttempt(
    reason === reasonUnschedulable ? "unschedulable" : "error",
    fw.profileName,
  );
  const message = statusMessage(status);
  const fitError = fitErrorOf(status);
  if (fitError !== undefined) {
    info.unschedulablePlugins = new Set(fitError.diagnosis.unschedulablePlugins);
    info.pendingPlugins = new Set(fitError.diagnosis.pendingPlugins);
    ctx.logger
      .v(2)
      .info("Unable to schedule pod; no fit; waiting", { pod: info.podInfo.key, err: message });
  } else if (reason === reasonSchedulerError) {
    ctx.logger.error("Error scheduling pod; retrying", { pod: info.podInfo.key, err: message });
  }

  const namespace = pod.metadata.namespace ?? "";
  const name = pod.metadata.name ?? "";
  const cached = ctx.livePod(namespace, name);
  if (cached === undefined || cached.metadata.uid !== pod.metadata.uid) {
    ctx.logger.v(2).info("Pod doesn't exist in informer cache", { pod: info.podInfo.key });
    ctx.queue.done(info.podInfo.uid);
  } else if ((cached.spec.nodeName ?? "") !== "") {
    ctx.logger.v(2).info("Pod has been assigned to node. Abort adding it back to queue.", {
      pod: info.podInfo.key,
      node: cached.spec.nodeName,
    });
    ctx.queue.done(info.podInfo.uid);
  } else {
    info.podInfo = new PodInfo(cached);
    ctx.queue.addUnschedulableIfNotPresent(info);
  }
  ctx.queue.addNominatedPod(info.podInfo, nominatingInfo);

  const livePod = cached ?? pod;
  fw.handle.eventRecorder.event(
    livePod,
    "Warning",
    "FailedScheduling",
    "Scheduling",
    truncateMessage(message),
  );
  const patch = failureStatusPatch(livePod, reason, message, nominatingInfo, ctx.clock.now());
  if (patch === undefined || cached === undefined || ctx.apiCalls.closed) return;
  try {
    await ctx.apiCalls.run(() =>
      ctx.client.patch(podsResource, namespace, name, "strategic", patch, {
        subresource: "status",
      }),
    );
  } catch (error: unknown) {
    if (!isNotFound(error))
      ctx.logger.error("Error updating pod", { pod: info.podInfo.key, error });
  }
}
