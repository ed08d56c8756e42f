/**
 * The queueing component (Kueue's controller manager for plain pods): the pod reconciler and
 * the admission cycle, each level-triggered from informers, talking to the API server only
 * through the Client. `start(signal)` runs both until `signal` aborts.
 */
import {
  type ClusterQueue,
  type KueueWorkload,
  type LocalQueue,
  managedLabel,
  type Namespace,
  type Pod,
  type ResourceFlavor,
  type WorkloadPriorityClass,
} from "../api/index.ts";
import {
  type Client,
  type EventRecorder,
  type InformerFactory,
  isConflict,
  isNotFound,
  namespacesResource,
  podsResource,
  priorityClassesResource,
  type SharedInformer,
} from "../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../util/index.ts";
import { newAdmissionScheduler } from "./admission-cycle/scheduler.ts";
import type { QueueingConfig } from "./config.ts";
import type { QueueingMetrics } from "./metrics.ts";
import { newUidExpectations } from "./pod-integration/expectations.ts";
import { newGangObjects } from "./pod-integration/gang-objects.ts";
import { newPodIndexes, podIndexers, workloadIndexers } from "./pod-integration/indexes.ts";
import {
  observePod,
  podEventKey,
  reconcileKey,
  workloadEventKeys,
  workloadEventLane,
} from "./pod-integration/keys.ts";
import { newReconcileQueue } from "./pod-integration/reconcile-queue.ts";
import {
  clusterQueuesResource,
  kueueWorkloadsResource,
  localQueuesResource,
  resourceFlavorsResource,
  workloadPriorityClassesResource,
} from "./resources.ts";

export interface QueueingDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Events on pods (`kueue-job-controller`) and Workloads (`kueue-admission`). */
  readonly podEvents: EventRecorder;
  readonly workloadEvents: EventRecorder;
  readonly metrics?: QueueingMetrics;
}

export interface Queueing {
  start(signal: AbortSignal): Promise<void>;
}

type PriorityClass = {
  metadata: { name?: string };
  value: number;
  globalDefault?: boolean;
  [k: string]: unknown;
};

/** Whether an update changed more than `status` (and the bookkeeping metadata). */
export function beyondStatus(old: unknown, next: unknown): boolean {
  const a = old as { metadata?: Record<string, unknown>; [k: string]: unknown };
  const b = next as { metadata?: Record<string, unknown>; [k: string]: unknown };
  const meta = (m: Record<string, unknown> | undefined): string =>
    JSON.stringify([
      m?.["labels"],
      m?.["annotations"],
      m?.["deletionTimestamp"],
      m?.["generation"],
    ]);
  if (meta(a.metadata) !== meta(b.metadata)) return true;
  const rest = (o: Record<string, unknown>): string =>
    JSON.stringify(
      Object.keys(o)
        .filter((k) => k !== "status" && k !== "metadata")
        .sort()
        .map((k) => [k, o[k]]),
    );
  return rest(a) !== rest(b);
}

export function newQueueing(deps: QueueingDeps, config: QueueingConfig): Queueing {
  const f = deps.informers;
  // Only the pods the webhook marked as managed: the reconcilers ignore every other pod, and
  // the label cannot change once set (the webhook rejects that), so the selector loses nothing
  // and spares this component the decoding of every other pod in the cluster.
  const pods = f.forResource<Pod>(podsResource, { labelSelector: `${managedLabel}=true` });
  const workloads = f.forResource<KueueWorkload>(kueueWorkloadsResource);
  const clusterQueues = f.forResource<ClusterQueue>(clusterQueuesResource);
  const localQueues = f.forResource<LocalQueue>(localQueuesResource);
  const flavors = f.forResource<ResourceFlavor>(resourceFlavorsResource);
  const wpcs = f.forResource<WorkloadPriorityClass>(workloadPriorityClassesResource);
  const namespaces = f.forResource<Namespace>(namespacesResource);
  const priorityClasses = f.forResource<PriorityClass>(priorityClassesResource);
  pods.addIndexers(podIndexers);
  workloads.addIndexers(workloadIndexers);
  const indexes = newPodIndexes(pods.indexer, workloads.indexer);
  // Two lanes: the pods of Workloads just admitted (or evicted, or deleted) are reconciled before
  // the creations of newer pods queued ahead of them.
  const queue = newReconcileQueue(deps.clock);
  const scheduler = newAdmissionScheduler({
    client: deps.client,
    clock: deps.clock,
    events: deps.workloadEvents,
    ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
    clusterQueues: clusterQueues.lister,
    localQueues: localQueues.lister,
    flavors: flavors.lister,
    workloads: workloads.lister,
    namespaces: namespaces.lister,
    logger: deps.logger,
    wake: () => kick(),
  });
  let wake: (() => void) | undefined;
  let dirty = true;
  const kick = (): void => {
    dirty = true;
    wake?.();
  };

  const expectations = newUidExpectations();
  const onPod = (pod: unknown, deleted = false): void => {
    const object = (pod as { obj?: DeepReadonly<Pod> }).obj ?? (pod as DeepReadonly<Pod>);
    if (object?.metadata === undefined) return;
    observePod(expectations, object, deleted);
    queue.add(podEventKey(object));
  };
  pods.addEventHandler({
    onAdd: (p) => onPod(p),
    onUpdate: (_o, n) => onPod(n),
    onDelete: (p) => onPod(p, true),
  });
  const onWorkload = (w: unknown, deleted = false): void => {
    const object =
      (w as { obj?: DeepReadonly<KueueWorkload> }).obj ?? (w as DeepReadonly<KueueWorkload>);
    if (object?.metadata === undefined) return;
    const lane = workloadEventLane(object);
    for (const key of workloadEventKeys(object)) queue.add(key, lane);
    // The echo of an admission the cycle wrote and assumed changes no decision.
    if (!scheduler.observe(object, deleted)) kick();
  };
  workloads.addEventHandler({
    onAdd: (w) => onWorkload(w),
    onUpdate: (_o, n) => onWorkload(n),
    onDelete: (w) => onWorkload(w, true),
  });
  // Queues, flavors and namespaces matter to a cycle through what users set, not through the
  // statuses the cycle writes itself: a status-only update does not start another cycle. A
  // change retries the Workloads parked as inadmissible.
  const changed = (): void => {
    scheduler.invalidate();
    kick();
  };
  for (const informer of [
    clusterQueues,
    localQueues,
    flavors,
    namespaces,
  ] as SharedInformer<never>[]) {
    informer.addEventHandler({
      onAdd: changed,
      onUpdate: (o, n) => {
        if (beyondStatus(o, n)) changed();
      },
      onDelete: changed,
    });
  }

  const reconcilerDeps = {
    client: deps.client,
    clock: deps.clock,
    config,
    pods: pods.lister,
    workloads: workloads.lister,
    flavors: flavors.lister,
    workloadPriorityClasses: wpcs.lister,
    priorityClasses: priorityClasses.lister,
    events: deps.podEvents,
    indexes,
    onUngated: () => deps.metrics?.podsUngated.inc(),
    expectations,
    onExcessDeleted: () => deps.metrics?.podsRejected.inc(),
    ...(config.gangScheduleAdmittedGroups ? { gang: newGangObjects({ client: deps.client }) } : {}),
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      const { key, lane } = next.item;
      try {
        await reconcileKey(reconcilerDeps, key);
        queue.forget(key);
      } catch (error: unknown) {
        if (!isConflict(error) && !isNotFound(error)) {
          deps.logger.error("Cannot reconcile pod", { pod: key, error });
        }
        queue.addRateLimited(key, lane);
      } finally {
        queue.done(key);
      }
    }
  };

  const admissionLoop = async (signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      if (!dirty) {
        // Idle until kicked, or until a held queue status is due.
        const due = scheduler.statusDueAt();
        const wait = due === undefined ? 1000 : Math.max(0, due - deps.clock.now().getTime());
        const timedOut = await new Promise<boolean>((resolve) => {
          const done = (value: boolean): void => {
            clearTimeout(timer);
            signal.removeEventListener("abort", stop);
            resolve(value);
          };
          const stop = (): void => done(false);
          const timer = setTimeout(() => done(true), wait);
          wake = stop;
          signal.addEventListener("abort", stop, { once: true });
        });
        wake = undefined;
        if (timedOut && due !== undefined) dirty = true;
        continue;
      }
      dirty = false;
      try {
        const began = deps.clock.now().getTime();
        await scheduler.cycle();
        const took = deps.clock.now().getTime() - began;
        // Let the informers deliver what arrived meanwhile: the next cycle takes it all at once.
        // After a long cycle, as long again: cycles never take more than half the thread from
        // the writes they cause.
        await new Promise((resolve) =>
          took > 2 ? setTimeout(resolve, Math.min(took, 250)) : setImmediate(resolve),
        );
      } catch (error: unknown) {
        deps.logger.error("Admission cycle failed", { error });
        await deps.clock.sleep(200, signal).catch(() => undefined);
        dirty = true;
      }
    }
  };

  return {
    async start(signal: AbortSignal): Promise<void> {
      // The caller starts `informers`; work begins once they have synced.
      if (!(await f.waitForSync(signal))) return;
      const workers = Array.from({ length: config.groupKindConcurrency.Pod }, worker);
      signal.addEventListener("abort", () => queue.shutDown(), { once: true });
      await Promise.all([admissionLoop(signal), ...workers]);
      // The cycle's writes still out finish (or fail) before the component counts as stopped;
      // a server that does not answer is not waited on for long.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        timer.unref();
        void scheduler.flush().then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
