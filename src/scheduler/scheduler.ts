/**
 * The scheduler (upstream's `Scheduler`): builds one framework per profile, wires the informers
 * to the cache and the queue, and runs the scheduling loop until its signal aborts. Pods are
 * picked up from watches (never by polling the API) and bound through `pods/binding`.
 */

import type { Registry as MetricsRegistry } from "prom-client";
import type {
  KubeObject,
  Namespace,
  Node,
  Pod,
  PodDisruptionBudget,
  PodGroup,
  Workload,
} from "../api/index.ts";
import {
  type Client,
  type HandlerRegistration,
  type InformerFactory,
  type InformerScope,
  namespacesResource,
  nodesResource,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  type ResourceRef,
  type SharedInformer,
  workloadsResource,
} from "../client/index.ts";
import type { Clock, Logger, Random } from "../util/index.ts";
import { SchedulerCache, Snapshot } from "./cache/index.ts";
import { ConcurrencyLimit } from "./concurrency-limit.ts";
import { newNodeEventHandler, newPodEventHandler } from "./event-handlers.ts";
import { ApiEventRecorder } from "./event-recorder.ts";
import {
  clusterEvents,
  groupRefOf,
  type Profile,
  type QueuedPodInfo,
  type Registry,
  type SchedulerListers,
  unresolvable,
} from "./framework/index.ts";
import { newSchedulerMetrics, noSchedulerMetrics, type PendingQueue } from "./metrics.ts";
import { PodGroupManager, PodGroupStatusWriter } from "./pod-groups/index.ts";
import { type QueueProfile, SchedulingQueue } from "./queue/index.ts";
import { Framework } from "./runtime/index.ts";
import { scheduleGroup } from "./schedule-group.ts";
import { type SchedulerContext, scheduleOne, track } from "./schedule-one.ts";
import { handleSchedulingFailure } from "./scheduling-failure.ts";
import { SchedulingSlice } from "./slice.ts";

/** The field selector of the scheduler's pod informer: terminal pods hold no resources. */
export const nonTerminalPodsSelector = "status.phase!=Succeeded,status.phase!=Failed";

export interface SchedulerDeps {
  readonly client: Client;
  /** Shared informers. The caller starts the factory (before or after `start`). */
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  /** Plugin factories by name (see `inTreeRegistry`). */
  readonly registry: Registry;
  /** The profiles; a pod uses the one named by its `spec.schedulerName`. */
  readonly profiles: readonly Profile[];
}

export interface SchedulerOptions {
  /** First retry delay of a pod that failed. @default 1000 */
  readonly podInitialBackoffMs?: number;
  /** The longest retry delay. @default 10000 */
  readonly podMaxBackoffMs?: number;
  /** Unschedulable pods are retried at least this often. @default 300000 (5 minutes) */
  readonly podMaxInUnschedulablePodsMs?: number;
  /** For profiles that set none; 0 is upstream's adaptive default. @default 0 */
  readonly percentageOfNodesToScore?: number;
  /** `reportingInstance` of the scheduler's events. @default the profile's scheduler name */
  readonly instance?: string;
  /**
   * How long the scheduler may run cycles back to back before it lets the rest of the process
   * (informer events, binding responses, an in-process API server) have the event loop; see
   * `SchedulingSlice`. @default 20
   */
  readonly schedulingSliceMs?: number;
  /** Bindings and status patches in flight at most (see `ConcurrencyLimit`). @default 16 */
  readonly maxConcurrentApiCalls?: number;
  /** Event writes in flight at most, over all profiles. @default 16 */
  readonly maxConcurrentEventWrites?: number;
  /**
   * How long a gang may keep assembling (fewer than `minCount` members exist) before its
   * PodGroup's `PodGroupScheduled` condition says False/`Timeout`; its pods stay Pending. The
   * group cycle holds no capacity between cycles, so nothing else needs this bound.
   * @default 300000 (5 minutes)
   */
  readonly gangSchedulingTimeoutMs?: number;
  /** Where the scheduler's metrics go (`/metrics` of `gantry up`). @default none */
  readonly metricsRegistry?: MetricsRegistry;
  /**
   * Upstream's `OpportunisticBatching` feature gate (beta, on): in a group cycle, members with the
   * same signature reuse the Filter and Score answers of nodes no earlier member changed, and
   * consecutive single pods do the same from one cycle to the next. The placements are exactly
   * those of the plain path; only the time differs. @default true
   */
  readonly opportunisticBatching?: boolean;
}

export interface Scheduler {
  /** Watches, schedules and binds until `signal` aborts; resolves once everything stopped. */
  start(signal: AbortSignal): Promise<void>;
  /** The queue (for tests and debugging: `queue.pendingPods()`). */
  readonly queue: SchedulingQueue;
}

/** Builds a scheduler. No I/O happens before `start`. */
export function newScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): Scheduler {
  if (deps.profiles.length === 0) throw new TypeError("Cannot build a scheduler without profiles");
  const logger = deps.logger.with({ component: "scheduler" });
  const cache = new SchedulerCache();
  const snapshot = new Snapshot();
  let podInformer: SharedInformer<Pod> | undefined;
  let namespaceInformer: SharedInformer<Namespace> | undefined;
  let pdbInformer: SharedInformer<PodDisruptionBudget> | undefined;
  const listers: SchedulerListers = {
    pod: (namespace, name) => podInformer?.lister.get(namespace, name),
    namespaceLabels: (namespace) =>
      namespaceInformer?.lister.get(undefined, namespace)?.metadata.labels,
    podDisruptionBudgets: () => pdbInformer?.lister.list() ?? [],
  };
  let queue: SchedulingQueue | undefined;
  const podGroups = new PodGroupManager({
    isAssumed: (pod) => cache.isAssumedPod(pod),
    now: () => deps.clock.now().getTime(),
  });
  // Informers plugins ask for are synced before the first cycle, like the scheduler's own.
  const pluginInformers: SharedInformer<KubeObject>[] = [];
  const informers: InformerFactory = {
    forResource<T extends KubeObject = KubeObject>(resource: ResourceRef, scope?: InformerScope) {
      const informer = deps.informers.forResource<T>(resource, scope);
      pluginInformers.push(informer as unknown as SharedInformer<KubeObject>);
      return informer;
    },
    start: (signal) => deps.informers.start(signal),
    waitForSync: (signal) => deps.informers.waitForSync(signal),
    stop: (resource, scope) => deps.informers.stop(resource, scope),
  };
  const frameworks = new Map<string, Framework>();
  const recorders: ApiEventRecorder[] = [];
  const eventWrites = new ConcurrencyLimit(options.maxConcurrentEventWrites ?? 16);
  for (const profile of deps.profiles) {
    const recorder = new ApiEventRecorder({
      client: deps.client,
      clock: deps.clock,
      logger,
      component: profile.schedulerName,
      instance: options.instance ?? profile.schedulerName,
      limit: eventWrites,
    });
    recorders.push(recorder);
    const fw = new Framework(deps.registry, profile, {
      client: deps.client,
      informers,
      listers,
      podGroups,
      eventRecorder: recorder,
      clock: deps.clock,
      random: deps.random,
      logger: logger.with({ profile: profile.schedulerName }),
      snapshot: () => snapshot,
      nominatedPodsForNode: (node) => queue?.nominator.nominatedPodsForNode(node) ?? [],
      hasNominatedPods: () => queue?.nominator.isEmpty === false,
      activate: (pods) => queue?.activate(pods),
      queueClusterEvent: (event, oldObj, newObj) =>
        queue?.moveAllToActiveOrBackoffQueue(event, oldObj, newObj),
    });
    if (frameworks.has(profile.schedulerName)) {
      throw new TypeError(`Cannot build a scheduler: duplicate profile "${profile.schedulerName}"`);
    }
    frameworks.set(profile.schedulerName, fw);
  }
  const first = frameworks.values().next().value as Framework;
  const queueProfiles = new Map<string, QueueProfile>();
  for (const [name, fw] of frameworks) {
    queueProfiles.set(name, {
      preEnqueue: (pod) => fw.runPreEnqueuePlugins(pod),
      eventsToRegister: fw.eventsToRegister,
    });
  }
  const schedulingQueue = new SchedulingQueue({
    clock: deps.clock,
    logger,
    less: first.less,
    profiles: queueProfiles,
    isAssigned: (pod) =>
      (listers.pod(pod.metadata.namespace ?? "", pod.metadata.name ?? "")?.spec.nodeName ?? "") !==
      "",
    ...(options.podInitialBackoffMs === undefined
      ? {}
      : { podInitialBackoffMs: options.podInitialBackoffMs }),
    ...(options.podMaxBackoffMs === undefined ? {} : { podMaxBackoffMs: options.podMaxBackoffMs }),
    ...(options.podMaxInUnschedulablePodsMs === undefined
      ? {}
      : { podMaxInUnschedulablePodsMs: options.podMaxInUnschedulablePodsMs }),
  });
  queue = schedulingQueue;

  const apiCalls = new ConcurrencyLimit(options.maxConcurrentApiCalls ?? 16);
  let podGroupInformer: SharedInformer<PodGroup> | undefined;
  const podGroupStatus = new PodGroupStatusWriter({
    client: deps.client,
    clock: deps.clock,
    logger,
    apiCalls,
    manager: podGroups,
    podGroup: (namespace, name) => podGroupInformer?.lister.get(namespace, name),
    timeoutMs: options.gangSchedulingTimeoutMs ?? 300_000,
  });
  const metrics =
    options.metricsRegistry === undefined
      ? noSchedulerMetrics
      : newSchedulerMetrics(options.metricsRegistry, {
          pendingPods: () => {
            const sets = schedulingQueue.countBy((pod) => pod.metadata.uid);
            return {
              active: sets.active.size,
              backoff: sets.backoff.size,
              unschedulable: sets.unschedulable.size,
              gated: sets.gated.size,
            };
          },
          pendingPodGroups: () => {
            const sets = schedulingQueue.countBy((pod) => groupRefOf(pod)?.key);
            const out: Record<PendingQueue, number> = {
              active: sets.active.size,
              backoff: sets.backoff.size,
              unschedulable: sets.unschedulable.size,
              gated: sets.gated.size,
            };
            return out;
          },
        });

  const ctx: SchedulerContext = {
    frameworks,
    queue: schedulingQueue,
    cache,
    snapshot,
    client: deps.client,
    clock: deps.clock,
    random: deps.random,
    logger,
    livePod: (namespace, name) => listers.pod(namespace, name),
    background: new Set(),
    apiCalls,
    selection: {
      nextStartNodeIndex: 0,
      percentageOfNodesToScore: options.percentageOfNodesToScore ?? 0,
    },
    podGroups,
    podGroupStatus,
    metrics,
    opportunisticBatching: options.opportunisticBatching ?? true,
    ...(options.opportunisticBatching === false ? {} : { podMemos: new WeakMap() }),
  };

  let started = false;
  return {
    queue: schedulingQueue,
    async start(signal: AbortSignal): Promise<void> {
      if (started) throw new TypeError("Cannot start the scheduler: it is already running");
      started = true;
      const handlerDeps = {
        cache,
        queue: schedulingQueue,
        frameworks,
        logger,
        podGroups,
        podGroupStatus,
      };
      const nodes = deps.informers.forResource<Node>(nodesResource);
      podInformer = deps.informers.forResource<Pod>(podsResource, {
        fieldSelector: nonTerminalPodsSelector,
      });
      namespaceInformer = deps.informers.forResource<Namespace>(namespacesResource);
      pdbInformer = deps.informers.forResource<PodDisruptionBudget>(podDisruptionBudgetsResource);
      const workloadInformer = deps.informers.forResource<Workload>(workloadsResource);
      podGroupInformer = deps.informers.forResource<PodGroup>(podGroupsResource);
      podGroups.setObjects({
        workload: (namespace, name) => workloadInformer.lister.get(namespace, name),
        podGroup: (namespace, name) => podGroupInformer?.lister.get(namespace, name),
      });
      const registrations: HandlerRegistration[] = [
        nodes.addEventHandler(newNodeEventHandler(handlerDeps)),
        podInformer.addEventHandler(newPodEventHandler(handlerDeps)),
        workloadInformer.addEventHandler({
          onAdd: (w) =>
            schedulingQueue.moveAllToActiveOrBackoffQueue(clusterEvents.workloadAdd, undefined, w),
          onUpdate: (o, n) =>
            schedulingQueue.moveAllToActiveOrBackoffQueue(clusterEvents.workloadUpdate, o, n),
        }),
        podGroupInformer.addEventHandler({
          onAdd: (g) =>
            schedulingQueue.moveAllToActiveOrBackoffQueue(clusterEvents.podGroupAdd, undefined, g),
          onUpdate: (o, n) =>
            schedulingQueue.moveAllToActiveOrBackoffQueue(clusterEvents.podGroupUpdate, o, n),
        }),
      ];
      const toSync: { waitForSync(signal: AbortSignal): Promise<boolean> }[] = [
        nodes,
        podInformer,
        namespaceInformer,
        pdbInformer,
        workloadInformer,
        podGroupInformer,
        ...pluginInformers,
      ];
      const queueRun = schedulingQueue.run(signal);
      const statusRun = podGroupStatus.run(signal);
      try {
        const synced = await Promise.all(toSync.map((i) => i.waitForSync(signal)));
        if (synced.every(Boolean)) {
          logger.info("Scheduler started", { profiles: [...frameworks.keys()] });
          await loop(ctx, signal, new SchedulingSlice(deps.clock, options.schedulingSliceMs));
        }
      } finally {
        schedulingQueue.close();
        // Bindings and events still waiting for a turn are dropped, not sent after the stop.
        const stopping = new Error("Cannot call the API: the scheduler is stopping");
        ctx.apiCalls.close(stopping);
        eventWrites.close(stopping);
        for (const r of registrations) r.remove();
        await Promise.all([...ctx.background]);
        await Promise.all(recorders.map((r) => r.flush()));
        await queueRun;
        await statusRun;
      }
    },
  };
}

/** Lets I/O run between cycles (binding requests, watch events) without a timer. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Pops and schedules pods until `signal` aborts: cycles run back to back until the slice is used
 * up, then the loop yields to the event loop; an empty queue yields too, as `pop` waits for an
 * informer event.
 */
async function loop(
  ctx: SchedulerContext,
  signal: AbortSignal,
  slice: SchedulingSlice,
): Promise<void> {
  while (!signal.aborted) {
    const info = await ctx.queue.pop(signal);
    if (info === undefined) return;
    await scheduleEntity(ctx, info);
    if (slice.cycleDone()) {
      await yieldToEventLoop();
      slice.restart();
    }
  }
}

/**
 * A gang member starts a group cycle (when its profile enables GangScheduling); everything else,
 * basic groups included, is scheduled pod by pod. A member whose group can no longer be resolved
 * (its PodGroup was deleted after it was queued) waits as PreEnqueue would have made it wait.
 */
async function scheduleEntity(ctx: SchedulerContext, info: QueuedPodInfo): Promise<void> {
  const pod = info.podInfo.pod;
  const fw = ctx.frameworks.get(pod.spec.schedulerName ?? "default-scheduler");
  const ref = ctx.podGroups.groupOf(pod);
  if (fw === undefined || ref === undefined || !fw.hasPlugin(gangSchedulingPlugin)) {
    await scheduleOne(ctx, info);
    return;
  }
  const resolved = ctx.podGroups.resolve(ref);
  if (!resolved.ok) {
    info.unschedulablePlugins = new Set([gangSchedulingPlugin]);
    const status = { ...unresolvable(resolved.reason), plugin: gangSchedulingPlugin };
    track(ctx, handleSchedulingFailure(ctx, fw, info, status, undefined));
    return;
  }
  if (resolved.policy.kind === "basic") {
    await scheduleOne(ctx, info);
    return;
  }
  await scheduleGroup(ctx, info, ref, resolved.policy);
}

/** The plugin that enables gang scheduling in a profile. */
const gangSchedulingPlugin = "GangScheduling";
