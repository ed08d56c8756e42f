/**
 * The admission cycle's side effects (Kueue's scheduler `schedule` loop body): plans a cycle from
 * the informer caches (plus admissions written but not yet observed), then writes what it
 * decided through the Client: quota reservations (QuotaReserved and Admitted, with a previous
 * eviction reset), preemptions (Evicted and Preempted on each victim, event `Preempted`),
 * pending messages, and the ClusterQueue and LocalQueue statuses; and reports Kueue's metrics.
 * Writes go out concurrently; a conflict only asks for another cycle.
 */
import {
  admittedCondition,
  type ClusterQueue,
  type Condition,
  evictedCondition,
  hasQuotaReservation,
  isWorkloadEvicted,
  type KueueWorkload,
  type LocalQueue,
  type Namespace,
  preemptedCondition,
  quotaReservedCondition,
  type ResourceFlavor,
  requeuedCondition,
  setWorkloadCondition,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  isConflict,
  isNotFound,
  type Lister,
  referenceTo,
} from "../../client/index.ts";
import type { Clock, DeepReadonly } from "../../util/index.ts";
import { WorkloadInfoCache } from "../cache/workload-info.ts";
import type { QueueingMetrics } from "../metrics.ts";
import {
  clusterQueuesResource,
  kueueWorkloadsResource,
  localQueuesResource,
} from "../resources.ts";
import { type ActiveState, type CyclePlan, planCycle } from "./cycle.ts";
import { type PreemptionTarget, preemptionMessage } from "./preemption.ts";

type Wl = DeepReadonly<KueueWorkload>;

export interface AdmissionSchedulerDeps {
  readonly client: Client;
  readonly clock: Clock;
  /** Events on Workloads (`kueue-admission`). */
  readonly events: EventRecorder;
  readonly metrics?: QueueingMetrics;
  readonly clusterQueues: Lister<ClusterQueue>;
  readonly localQueues: Lister<LocalQueue>;
  readonly flavors: Lister<ResourceFlavor>;
  readonly workloads: Lister<KueueWorkload>;
  readonly namespaces: Lister<Namespace>;
}

export interface AdmissionSchedulerOptions {
  /** How many status writes are in flight at once. @default 32 */
  readonly concurrency?: number;
}

export interface AdmissionScheduler {
  /**
   * Tells the scheduler the informer delivered `workload`, so an assumed copy can go. Returns
   * true when the event only confirms an admission this scheduler wrote and assumed (a cycle
   * has nothing new to learn from it).
   */
  observe(workload: Wl): boolean;
  /** Runs one cycle. Resolves `true` when a write conflicted and another cycle should follow. */
  cycle(): Promise<boolean>;
}

const keyOf = (w: { metadata: { namespace?: string; name?: string } }): string =>
  `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`;

/** Runs `tasks` with at most `limit` in flight. */
async function runAll(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task !== undefined) await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

/** When the Workload joined its queue last: its last requeue, else its creation (ms). */
function queuedAt(workload: Wl): number {
  const requeued = workload.status?.conditions?.find(
    (c) => c.type === requeuedCondition && c.status === "True",
  );
  return Date.parse(requeued?.lastTransitionTime ?? workload.metadata.creationTimestamp ?? "");
}

/** `SetQuotaReservation`: QuotaReserved and Admitted True, a past eviction reset. */
export function reservedStatus(
  workload: Wl,
  admission: NonNullable<KueueWorkload["status"]>["admission"],
  now: Date,
): KueueWorkload["status"] {
  let conditions = (workload.status?.conditions ?? []) as Condition[];
  conditions = setWorkloadCondition(
    conditions,
    {
      type: quotaReservedCondition,
      status: "True",
      reason: "QuotaReserved",
      message: `Quota reserved in ClusterQueue ${admission?.clusterQueue ?? ""}`,
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
  for (const type of [evictedCondition, preemptedCondition]) {
    const previous = conditions.find((c) => c.type === type);
    if (previous === undefined || previous.status !== "True") continue;
    conditions = setWorkloadCondition(
      conditions,
      {
        type,
        status: "False",
        reason: "QuotaReserved",
        message: `Previously: ${previous.message}`,
      },
      now,
    );
  }
  const status = { ...structuredClone(workload.status), admission, conditions } as NonNullable<
    KueueWorkload["status"]
  >;
  delete status.resourceRequests;
  return status;
}

/** A victim's status once preempted: Evicted (reason Preempted) and Preempted True. */
export function preemptedStatus(
  victim: Wl,
  reason: PreemptionTarget["reason"],
  message: string,
  now: Date,
): KueueWorkload["status"] {
  let conditions = setWorkloadCondition(
    (victim.status?.conditions ?? []) as Condition[],
    { type: evictedCondition, status: "True", reason: "Preempted", message },
    now,
  );
  conditions = setWorkloadCondition(
    conditions,
    { type: preemptedCondition, status: "True", reason, message },
    now,
  );
  return { ...structuredClone(victim.status), conditions } as KueueWorkload["status"];
}

export function newAdmissionScheduler(
  deps: AdmissionSchedulerDeps,
  options: AdmissionSchedulerOptions = {},
): AdmissionScheduler {
  const concurrency = options.concurrency ?? 32;
  /** Admissions written but not yet seen in the cache, by `namespace/name`. */
  const assumed = new Map<string, Wl>();
  const info = new WorkloadInfoCache();
  const metrics = deps.metrics;

  const admit = async (
    workload: Wl,
    admission: NonNullable<KueueWorkload["status"]>["admission"],
    now: Date,
  ): Promise<boolean> => {
    const next = { ...workload, status: reservedStatus(workload, admission, now) } as KueueWorkload;
    try {
      const written = await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, next);
      assumed.set(keyOf(written), written);
    } catch (error: unknown) {
      if (!isConflict(error) && !isNotFound(error)) throw error;
      return false;
    }
    const clusterQueue = admission?.clusterQueue ?? "";
    const labels = {
      cluster_queue: clusterQueue,
      priority_class: workload.spec.priorityClassName ?? "",
    };
    const since = queuedAt(workload);
    const waited = Number.isNaN(since) ? 0 : Math.max(0, (now.getTime() - since) / 1000);
    metrics?.quotaReservedWorkloads.inc(labels);
    metrics?.quotaReservedWaitTime.observe(labels, waited);
    metrics?.admittedWorkloads.inc(labels);
    metrics?.admissionWaitTime.observe(labels, waited);
    metrics?.admissionChecksWaitTime.observe(labels, 0);
    const ref = referenceTo(next, kueueWorkloadsResource);
    deps.events.event(
      ref,
      "Normal",
      "QuotaReserved",
      `Quota reserved in ClusterQueue ${clusterQueue}, wait time since queued was ${Math.floor(waited)}s`,
    );
    deps.events.event(
      ref,
      "Normal",
      "Admitted",
      `Admitted by ClusterQueue ${clusterQueue}, wait time since reservation was 0s`,
    );
    return true;
  };

  const preempt = async (
    preemptor: Wl,
    clusterQueue: string,
    target: PreemptionTarget,
    now: Date,
  ): Promise<boolean> => {
    const victim = target.victim.workload;
    // Already evicted: its job controller is stopping it; the preemptor only waits.
    if (isWorkloadEvicted(victim)) return true;
    const message = preemptionMessage(preemptor, target.reason);
    const next = {
      ...victim,
      status: preemptedStatus(victim, target.reason, message, now),
    } as KueueWorkload;
    try {
      await deps.client.updateStatus<KueueWorkload>(kueueWorkloadsResource, next);
    } catch (error: unknown) {
      if (!isConflict(error) && !isNotFound(error)) throw error;
      return false;
    }
    deps.events.event(referenceTo(next, kueueWorkloadsResource), "Normal", "Preempted", message);
    metrics?.preemptedWorkloads.inc({
      preempting_cluster_queue: clusterQueue,
      reason: target.reason,
    });
    metrics?.evictedWorkloads.inc({
      cluster_queue: target.victim.clusterQueue,
      reason: "Preempted",
      underlying_cause: "",
      priority_class: victim.spec.priorityClassName ?? "",
    });
    return true;
  };

  const markPending = async (
    decision: CyclePlan["pending"][number],
    now: Date,
  ): Promise<boolean> => {
    const current = decision.workload.status?.conditions?.find(
      (c) => c.type === quotaReservedCondition,
    );
    if (
      current?.status === "False" &&
      current.reason === decision.reason &&
      current.message === decision.message
    )
      return true;
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
      return false;
    }
    if (decision.reason === "Pending") {
      deps.events.event(
        referenceTo(next, kueueWorkloadsResource),
        "Warning",
        "Pending",
        decision.message,
      );
    }
    return true;
  };

  const writeQueueStatus = async (
    object: DeepReadonly<ClusterQueue | LocalQueue>,
    fields: Record<string, unknown>,
    active: ActiveState,
    resource: typeof clusterQueuesResource,
    now: Date,
  ): Promise<boolean> => {
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
    if (JSON.stringify(desired) === JSON.stringify(current)) return true;
    const next = { ...structuredClone(object), status: desired };
    try {
      await deps.client.updateStatus(resource, next as never);
    } catch (error: unknown) {
      if (!isConflict(error) && !isNotFound(error)) throw error;
      return false;
    }
    return true;
  };

  return {
    observe(workload) {
      const k = keyOf(workload);
      const mine = assumed.get(k);
      if (mine === undefined || !hasQuotaReservation(workload)) return false;
      assumed.delete(k);
      return (
        workload.metadata.resourceVersion === mine.metadata.resourceVersion &&
        workload.metadata.deletionTimestamp === undefined
      );
    },

    async cycle() {
      const started = deps.clock.now();
      // Assumed admissions stand in for the cached objects they were written over (matched by
      // identity, so a cycle over thousands of Workloads builds no keys for this).
      const listed = deps.workloads.list();
      let merged = listed;
      if (assumed.size > 0) {
        const over = new Map<Wl, Wl>();
        for (const [k, w] of assumed) {
          const slash = k.indexOf("/");
          const cached = deps.workloads.get(k.slice(0, slash), k.slice(slash + 1));
          if (cached !== undefined) over.set(cached, w);
        }
        merged = listed.map((w) => over.get(w) ?? w);
      }
      const clusterQueues = deps.clusterQueues.list();
      const localQueues = deps.localQueues.list();
      const plan = planCycle({
        clusterQueues,
        localQueues,
        flavors: new Map(deps.flavors.list().map((rf) => [rf.metadata.name ?? "", rf])),
        workloads: merged,
        namespaceLabels: (ns) => deps.namespaces.get(undefined, ns)?.metadata.labels ?? undefined,
        info,
        now: started.getTime(),
      });
      const now = deps.clock.now();
      let retry = false;
      let admitted = 0;
      const tasks: (() => Promise<void>)[] = [];
      for (const { workload, admission } of plan.admissions) {
        tasks.push(async () => {
          if (await admit(workload, admission, now)) admitted++;
          else retry = true;
        });
      }
      for (const { preemptor, clusterQueue, targets } of plan.preemptions) {
        for (const target of targets) {
          tasks.push(async () => {
            if (!(await preempt(preemptor, clusterQueue, target, now))) retry = true;
          });
        }
      }
      for (const decision of plan.pending) {
        tasks.push(async () => {
          if (!(await markPending(decision, now))) retry = true;
        });
      }
      await runAll(tasks, concurrency);

      const attempted = plan.admissions.length > 0 || plan.pendingStatus.size > 0;
      if (attempted) {
        const result = admitted > 0 ? "success" : "inadmissible";
        metrics?.admissionAttempts.inc({ result });
        metrics?.admissionAttemptDuration.observe(
          { result },
          Math.max(0, (deps.clock.now().getTime() - started.getTime()) / 1000),
        );
      }

      const statusWrites: (() => Promise<void>)[] = [];
      for (const cq of clusterQueues) {
        const name = cq.metadata.name ?? "";
        const status = plan.clusterQueues.get(name);
        if (status === undefined) continue;
        const { activeState, ...fields } = status;
        const pending = plan.pendingStatus.get(name) ?? { active: 0, inadmissible: 0 };
        metrics?.pendingWorkloads.set({ cluster_queue: name, status: "active" }, pending.active);
        metrics?.pendingWorkloads.set(
          { cluster_queue: name, status: "inadmissible" },
          pending.inadmissible,
        );
        metrics?.admissionCyclePreemptionSkips.set(
          { cluster_queue: name },
          plan.preemptionSkips.get(name) ?? 0,
        );
        for (const s of ["pending", "active", "terminating"] as const) {
          const current = cq.metadata.deletionTimestamp
            ? "terminating"
            : activeState.active
              ? "active"
              : "pending";
          metrics?.clusterQueueStatus.set(
            { cluster_queue: name, status: s },
            s === current ? 1 : 0,
          );
        }
        metrics?.reservingActiveWorkloads.set(
          { cluster_queue: name },
          fields.reservingWorkloads ?? 0,
        );
        metrics?.admittedActiveWorkloads.set(
          { cluster_queue: name },
          fields.admittedWorkloads ?? 0,
        );
        statusWrites.push(async () => {
          if (!(await writeQueueStatus(cq, fields, activeState, clusterQueuesResource, now)))
            retry = true;
        });
      }
      for (const lq of localQueues) {
        const status = plan.localQueues.get(keyOf(lq));
        if (status === undefined) continue;
        const { activeState, ...fields } = status;
        statusWrites.push(async () => {
          if (!(await writeQueueStatus(lq, fields, activeState, localQueuesResource, now)))
            retry = true;
        });
      }
      await runAll(statusWrites, concurrency);
      return retry;
    },
  };
}
