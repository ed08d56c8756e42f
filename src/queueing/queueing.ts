/**
 * The queueing component (Kueue's controller manager for plain pods): the pod reconciler and
 * the admission cycle, each level-triggered from informers, talking to the API server only
 * through the Client. `start(signal)` runs both until `signal` aborts.
 */
import {
  admittedCondition,
  type ClusterQueue,
  hasQuotaReservation,
  type KueueWorkload,
  type LocalQueue,
  type Namespace,
  type Pod,
  podGroupNameLabel,
  quotaReservedCondition,
  type ResourceFlavor,
  setWorkloadCondition,
  type WorkloadPriorityClass,
} from "../api/index.ts";
import {
  type Client,
  type EventRecorder,
  type InformerFactory,
  isConflict,
  isNotFound,
  namespacesResource,
  newRateLimitingQueue,
  podsResource,
  priorityClassesResource,
  referenceTo,
  type SharedInformer,
} from "../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../util/index.ts";
import { type ActiveState, planCycle } from "./admission-cycle/cycle.ts";
import type { QueueingConfig } from "./config.ts";
import type { QueueingMetrics } from "./metrics.ts";
import { reconcilePod } from "./pod-integration/pod-reconciler.ts";
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

export function newQueueing(deps: QueueingDeps, config: QueueingConfig): Queueing {
  const f = deps.informers;
  const pods = f.forResource<Pod>(podsResource);
  const workloads = f.forResource<KueueWorkload>(kueueWorkloadsResource);
  const clusterQueues = f.forResource<ClusterQueue>(clusterQueuesResource);
  const localQueues = f.forResource<LocalQueue>(localQueuesResource);
  const flavors = f.forResource<ResourceFlavor>(resourceFlavorsResource);
  const wpcs = f.forResource<WorkloadPriorityClass>(workloadPriorityClassesResource);
  const namespaces = f.forResource<Namespace>(namespacesResource);
  const priorityClasses = f.forResource<PriorityClass>(priorityClassesResource);
  const queue = newRateLimitingQueue<string>({ clock: deps.clock });
  /** Admissions written but not yet seen in the cache, by `namespace/name`. */
  const assumed = new Map<string, DeepReadonly<KueueWorkload>>();
  let wake: (() => void) | undefined;
  let dirty = true;
  const kick = (): void => {
    dirty = true;
    wake?.();
  };

  const podKey = (pod: DeepReadonly<Pod>): string | undefined =>
    pod.metadata.labels?.[podGroupNameLabel] === undefined
      ? `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`
      : undefined;
  const onPod = (pod: unknown): void => {
    const object = (pod as { obj?: DeepReadonly<Pod> }).obj ?? (pod as DeepReadonly<Pod>);
    if (object?.metadata === undefined) return;
    const key = podKey(object);
    if (key !== undefined) queue.add(key);
  };
  pods.addEventHandler({ onAdd: onPod, onUpdate: (_o, n) => onPod(n), onDelete: onPod });
  const onWorkload = (w: unknown): void => {
    const object =
      (w as { obj?: DeepReadonly<KueueWorkload> }).obj ?? (w as DeepReadonly<KueueWorkload>);
    if (object?.metadata === undefined) return;
    const owner = object.metadata.ownerReferences?.find(
      (o) => o.controller === true && o.kind === "Pod",
    );
    if (owner !== undefined) queue.add(`${object.metadata.namespace ?? ""}/${owner.name}`);
    const k = `${object.metadata.namespace ?? ""}/${object.metadata.name ?? ""}`;
    if (assumed.has(k) && hasQuotaReservation(object)) assumed.delete(k);
    kick();
  };
  workloads.addEventHandler({
    onAdd: onWorkload,
    onUpdate: (_o, n) => onWorkload(n),
    onDelete: onWorkload,
  });
  for (const informer of [
    clusterQueues,
    localQueues,
    flavors,
    namespaces,
  ] as SharedInformer<never>[]) {
    informer.addEventHandler({ onAdd: kick, onUpdate: kick, onDelete: kick });
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
    onUngated: () => deps.metrics?.podsUngated.inc(),
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      const key = next.item;
      const slash = key.indexOf("/");
      try {
        await reconcilePod(reconcilerDeps, key.slice(0, slash), key.slice(slash + 1));
        queue.forget(key);
      } catch (error: unknown) {
        if (!isConflict(error) && !isNotFound(error)) {
          deps.logger.error("Cannot reconcile pod", { pod: key, error });
        }
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };

  const cycle = async (): Promise<void> => {
    const cached = workloads.lister.list();
    const merged = cached.map(
      (w) => assumed.get(`${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`) ?? w,
    );
    const plan = planCycle({
      clusterQueues: clusterQueues.lister.list(),
      localQueues: localQueues.lister.list(),
      flavors: new Map(flavors.lister.list().map((rf) => [rf.metadata.name ?? "", rf])),
      workloads: merged,
      namespaceLabels: (ns) => namespaces.lister.get(undefined, ns)?.metadata.labels ?? undefined,
    });
    const now = deps.clock.now();
    for (const { workload, admission } of plan.admissions) {
      const next = structuredClone(workload) as KueueWorkload;
      let conditions = setWorkloadCondition(
        next.status?.conditions,
        {
          type: quotaReservedCondition,
          status: "True",
          reason: "QuotaReserved",
          message: `Quota reserved in ClusterQueue ${admission.clusterQueue}`,
        },
        now,
      );
      conditions = setWorkloadCondition(
        conditions,
        {
          type: admittedCondition,
          status: "True",
          reason: "Admitted",
          message: "The workload is admitted",
        },
        now,
      );
      next.status = { ...next.status, admission, conditions };
      delete next.status.resourceRequests;
      try {
        const written = await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, next);
        assumed.set(`${written.metadata.namespace ?? ""}/${written.metadata.name ?? ""}`, written);
      } catch (error: unknown) {
        deps.metrics?.admissionAttempts.inc({ result: "inadmissible" });
        if (!isConflict(error) && !isNotFound(error)) throw error;
        dirty = true;
        continue;
      }
      deps.metrics?.admissionAttempts.inc({ result: "success" });
      const labels = {
        cluster_queue: admission.clusterQueue,
        priority_class: workload.spec.priorityClassName ?? "",
      };
      deps.metrics?.quotaReservedWorkloads.inc(labels);
      deps.metrics?.admittedWorkloads.inc(labels);
      const created = Date.parse(workload.metadata.creationTimestamp ?? "");
      const waited = Number.isNaN(created) ? 0 : Math.max(0, (now.getTime() - created) / 1000);
      deps.metrics?.admissionWaitTime.observe(labels, waited);
      const ref = referenceTo(next, kueueWorkloadsResource);
      deps.workloadEvents.event(
        ref,
        "Normal",
        "QuotaReserved",
        `Quota reserved in ClusterQueue ${admission.clusterQueue}, wait time since queued was ${Math.floor(waited)}s`,
      );
      deps.workloadEvents.event(
        ref,
        "Normal",
        "Admitted",
        `Admitted by ClusterQueue ${admission.clusterQueue}, wait time since reservation was 0s`,
      );
    }
    for (const decision of plan.pending) {
      const current = decision.workload.status?.conditions?.find(
        (c) => c.type === quotaReservedCondition,
      );
      if (
        current?.status === "False" &&
        current.reason === decision.reason &&
        current.message === decision.message
      )
        continue;
      const next = structuredClone(decision.workload) as KueueWorkload;
      next.status = {
        ...next.status,
        conditions: setWorkloadCondition(
          next.status?.conditions,
          {
            type: quotaReservedCondition,
            status: "False",
            reason: decision.reason,
            message: decision.message,
          },
          now,
        ),
      };
      try {
        await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, next);
      } catch (error: unknown) {
        if (!isConflict(error) && !isNotFound(error)) throw error;
        continue;
      }
      if (decision.reason === "Pending") {
        deps.metrics?.admissionAttempts.inc({ result: "inadmissible" });
        deps.workloadEvents.event(
          referenceTo(next, kueueWorkloadsResource),
          "Warning",
          "Pending",
          decision.message,
        );
      }
    }
    for (const cq of clusterQueues.lister.list()) {
      const name = cq.metadata.name ?? "";
      const status = plan.clusterQueues.get(name);
      if (status === undefined) continue;
      const { activeState, ...fields } = status;
      deps.metrics?.pendingWorkloads.set({ cluster_queue: name, status: "active" }, 0);
      deps.metrics?.pendingWorkloads.set(
        { cluster_queue: name, status: "inadmissible" },
        fields.pendingWorkloads ?? 0,
      );
      deps.metrics?.reservingActiveWorkloads.set(
        { cluster_queue: name },
        fields.reservingWorkloads ?? 0,
      );
      deps.metrics?.admittedActiveWorkloads.set(
        { cluster_queue: name },
        fields.admittedWorkloads ?? 0,
      );
      await writeStatus(cq, fields, activeState, clusterQueuesResource, now);
    }
    for (const lq of localQueues.lister.list()) {
      const status = plan.localQueues.get(
        `${lq.metadata.namespace ?? ""}/${lq.metadata.name ?? ""}`,
      );
      if (status === undefined) continue;
      const { activeState, ...fields } = status;
      await writeStatus(lq, fields, activeState, localQueuesResource, now);
    }
  };

  const writeStatus = async (
    object: DeepReadonly<ClusterQueue | LocalQueue>,
    fields: Record<string, unknown>,
    active: ActiveState,
    resource: typeof clusterQueuesResource,
    now: Date,
  ): Promise<void> => {
    const current = object.status as Record<string, unknown> | undefined;
    const conditions = setWorkloadCondition(
      current?.["conditions"] as never,
      {
        type: "Active",
        status: active.active ? "True" : "False",
        reason: active.reason,
        message: active.message,
      },
      now,
    );
    const desired = { ...current, ...fields, conditions };
    if (JSON.stringify(desired) === JSON.stringify(current)) return;
    const next = { ...structuredClone(object), status: desired };
    try {
      await deps.client.updateStatus(resource, next as never);
    } catch (error: unknown) {
      if (!isConflict(error) && !isNotFound(error)) throw error;
      dirty = true;
    }
  };

  const admissionLoop = async (signal: AbortSignal): Promise<void> => {
    while (!signal.aborted) {
      if (!dirty) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          const timer = setTimeout(resolve, 1000);
          signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
        wake = undefined;
        continue;
      }
      dirty = false;
      try {
        await cycle();
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
      const workers = [worker(), worker(), worker(), worker()];
      signal.addEventListener("abort", () => queue.shutDown(), { once: true });
      await Promise.all([admissionLoop(signal), ...workers]);
    },
  };
}
