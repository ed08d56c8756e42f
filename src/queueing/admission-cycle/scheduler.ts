/**
 * The admission cycle's side effects (Kueue's scheduler `schedule` loop body): plans a cycle from
 * the Workload index (kept current from informer events) and the queue caches, then writes what
 * it decided through the Client: quota reservations (QuotaReserved and Admitted, with a previous
 * eviction reset), preemptions (Evicted and Preempted on each victim, event `Preempted`),
 * pending messages, and the ClusterQueue and LocalQueue statuses; and reports Kueue's metrics.
 *
 * As Kueue's scheduler assumes an admission in its cache and applies it in the background, a
 * cycle records what it writes in the index at once (assumed) and leaves the writes to a write
 * queue: the next cycle can start while they are in flight, and never counts quota twice. A
 * write that fails is forgotten (the index goes back to the cached object) and asks for another
 * cycle. Queue statuses follow Workload changes paced per queue (a burst, then one write per
 * batch period), as Kueue's queue reconcilers take Workload events after `UpdatesBatchPeriod`.
 */
import {
  type ClusterQueue,
  isWorkloadEvicted,
  type KueueWorkload,
  type LocalQueue,
  type Namespace,
  type ResourceFlavor,
} from "../../api/index.ts";
import {
  type Client,
  type EventRecorder,
  isConflict,
  isNotFound,
  type Lister,
  referenceTo,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import { WorkloadInfoCache } from "../cache/workload-info.ts";
import type { QueueingMetrics } from "../metrics.ts";
import { WorkloadIndex } from "../queue-manager/workload-index.ts";
import {
  clusterQueuesResource,
  kueueWorkloadsResource,
  localQueuesResource,
} from "../resources.ts";
import { statusOnly, withoutManagedFields } from "../write-body.ts";
import { type CyclePlan, planCycle } from "./cycle.ts";
import { type PreemptionTarget, preemptionMessage } from "./preemption.ts";
import { newQueueStatusWriter } from "./queue-status-writer.ts";
import {
  preemptedStatus,
  queuedAt,
  reservedStatus,
  withPendingCondition,
} from "./workload-status.ts";
import { newWriteQueue } from "./write-queue.ts";

export { preemptedStatus, reservedStatus };

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
  /** Where failed writes are reported. @default not reported */
  readonly logger?: Logger;
  /**
   * Asks for another cycle: a write conflicted, failed, or settled for a Workload a cycle left
   * alone while it was in flight. @default none (the caller runs cycles on its own)
   */
  readonly wake?: () => void;
}

export interface AdmissionSchedulerOptions {
  /** How many writes are in flight at once. @default 32 */
  readonly concurrency?: number;
  /**
   * How often a ClusterQueue or LocalQueue status is written for Workload changes once its
   * burst is spent: at most one write per period, with the changes of the period in it (Kueue's
   * queue reconcilers take Workload events after `UpdatesBatchPeriod`, one second). Statuses
   * after `invalidate()` go out at once. @default 1000
   */
  readonly statusBatchMs?: number;
  /** How many status writes of a queue go out at once before they are paced. @default 10 */
  readonly statusBurst?: number;
}

export interface AdmissionScheduler {
  /**
   * Tells the scheduler the informer delivered `workload` (`deleted`: its deletion). Returns
   * true when the event only confirms a write this scheduler made (a cycle has nothing new to
   * learn from it).
   */
  observe(workload: Wl, deleted?: boolean): boolean;
  /**
   * Tells the scheduler a ClusterQueue, LocalQueue, ResourceFlavor or Namespace changed: the
   * next cycle tries every parked Workload again and writes queue statuses at once.
   */
  invalidate(): void;
  /** Plans one cycle and queues its writes; resolves without waiting for them. */
  cycle(): Promise<void>;
  /** Resolves once every write queued so far has settled. */
  flush(): Promise<void>;
  /** When a held queue status is due (clock milliseconds): a cycle should run then. */
  statusDueAt(): number | undefined;
}

const keyOf = (w: { metadata: { namespace?: string; name?: string } }): string =>
  `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`;

type Admission = NonNullable<KueueWorkload["status"]>["admission"];

/**
 * Whether resource version `a` is newer than `b`. Versions are opaque to clients, but this
 * server's (as etcd's) are increasing integers; anything else counts as newer when different.
 */
function isNewer(a: string, b: string): boolean {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return a !== b;
  return a.length !== b.length ? a.length > b.length : a > b;
}

export function newAdmissionScheduler(
  deps: AdmissionSchedulerDeps,
  options: AdmissionSchedulerOptions = {},
): AdmissionScheduler {
  const writes = newWriteQueue({ concurrency: options.concurrency ?? 32 });
  const index = new WorkloadIndex(new WorkloadInfoCache());
  /**
   * Workloads written (or being written) by this scheduler, by `namespace/name`: the resource
   * version the index's copy is newer than (events up to it carry nothing new), and the cached
   * object to go back to if the write fails.
   */
  const assumed = new Map<string, { readonly over: string; readonly base: Wl }>();
  /** Busy Workloads a cycle left alone: their write settling asks for another cycle. */
  const waiting = new Set<string>();
  /** Whether the index has been filled from the lister (the first cycle does it). */
  let primed = false;
  let invalidated = false;
  const metrics = deps.metrics;
  const wake = (): void => deps.wake?.();
  const statuses = newQueueStatusWriter(
    {
      client: deps.client,
      clock: deps.clock,
      writes,
      wake,
      ...(deps.logger === undefined ? {} : { logger: deps.logger }),
    },
    {
      ...(options.statusBatchMs === undefined ? {} : { batchMs: options.statusBatchMs }),
      ...(options.statusBurst === undefined ? {} : { burst: options.statusBurst }),
    },
  );

  /**
   * Writes `next` over `original` (the index's copy of a Workload): `next` stands in the index
   * at once; once written, the written object does, and `then` runs. A failed write forgets
   * `next`: after a conflict or a deletion the informer's event starts the next cycle; other
   * failures are logged and ask for another cycle shortly.
   */
  const writeWorkload = (
    original: Wl,
    next: KueueWorkload,
    priority: "urgent" | "background",
    then: (written: KueueWorkload) => void,
  ): void => {
    const k = keyOf(original);
    // A write still queued for the Workload is superseded by this one; one in flight is not.
    if (writes.busy(k) && !writes.cancel(k)) {
      waiting.add(k);
      return;
    }
    const base = assumed.get(k)?.base ?? original;
    writes.enqueue(k, priority, async () => {
      try {
        const written = await deps.client.updateStatus<KueueWorkload>(
          kueueWorkloadsResource,
          statusOnly(next),
        );
        if (index.get(k) === next) {
          // Kept as the informer keeps its objects: without managedFields.
          const kept = withoutManagedFields(written);
          index.upsert(kept);
          assumed.set(k, { over: written.metadata.resourceVersion ?? "", base: kept });
        }
        then(written);
      } catch (error: unknown) {
        if (index.get(k) === next) {
          assumed.delete(k);
          index.upsert(base);
        }
        // A conflict or a vanished Workload: the informer brings the news, and the cycle it
        // starts decides again. Anything else is tried again shortly.
        if (!isConflict(error) && !isNotFound(error)) {
          deps.logger?.error("Cannot write Workload status", { workload: k, error });
          await deps.clock.sleep(200).catch(() => undefined);
          wake();
        }
      } finally {
        if (waiting.delete(k)) wake();
      }
    });
    assumed.set(k, { over: base.metadata.resourceVersion ?? "", base });
    index.upsert(next);
  };

  const admit = (workload: Wl, admission: Admission, now: Date): void => {
    const next = { ...workload, status: reservedStatus(workload, admission, now) } as KueueWorkload;
    writeWorkload(workload, next, "urgent", () => {
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
    });
  };

  const preempt = (
    preemptor: Wl,
    clusterQueue: string,
    target: PreemptionTarget,
    now: Date,
  ): void => {
    const victim = target.victim.workload;
    // Already evicted: its job controller is stopping it; the preemptor only waits.
    if (isWorkloadEvicted(victim)) return;
    const message = preemptionMessage(preemptor, target.reason);
    const next = {
      ...victim,
      status: preemptedStatus(victim, target.reason, message, now),
    } as KueueWorkload;
    writeWorkload(victim, next, "urgent", () => {
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
    });
  };

  const markPending = (decision: CyclePlan["pending"][number], now: Date): void => {
    const next = withPendingCondition(decision.workload, decision.reason, decision.message, now);
    if (next === undefined) return;
    writeWorkload(decision.workload, next, "background", () => {
      if (decision.reason !== "Pending") return;
      deps.events.event(
        referenceTo(next, kueueWorkloadsResource),
        "Warning",
        "Pending",
        decision.message,
      );
    });
  };

  /** Unparks what waited on quota released since the last cycle, in the releasing cohorts. */
  const unparkReleased = (clusterQueues: readonly DeepReadonly<ClusterQueue>[]): void => {
    const released = index.takeReleased();
    if (invalidated) {
      invalidated = false;
      index.unpark();
      return;
    }
    if (released.size === 0) return;
    const cohorts = new Set<string>();
    for (const cq of clusterQueues) {
      if (released.has(cq.metadata.name ?? "") && (cq.spec.cohort ?? "") !== "") {
        cohorts.add(cq.spec.cohort ?? "");
      }
    }
    for (const cq of clusterQueues) {
      if (cohorts.has(cq.spec.cohort ?? "")) released.add(cq.metadata.name ?? "");
    }
    index.unpark(released);
  };

  const recordMetrics = (
    plan: CyclePlan,
    clusterQueues: readonly DeepReadonly<ClusterQueue>[],
  ): void => {
    if (metrics === undefined) return;
    for (const cq of clusterQueues) {
      const name = cq.metadata.name ?? "";
      const status = plan.clusterQueues.get(name);
      if (status === undefined) continue;
      const pending = plan.pendingStatus.get(name) ?? { active: 0, inadmissible: 0 };
      metrics.pendingWorkloads.set({ cluster_queue: name, status: "active" }, pending.active);
      metrics.pendingWorkloads.set(
        { cluster_queue: name, status: "inadmissible" },
        pending.inadmissible,
      );
      metrics.admissionCyclePreemptionSkips.set(
        { cluster_queue: name },
        plan.preemptionSkips.get(name) ?? 0,
      );
      const current = cq.metadata.deletionTimestamp
        ? "terminating"
        : status.activeState.active
          ? "active"
          : "pending";
      for (const s of ["pending", "active", "terminating"] as const) {
        metrics.clusterQueueStatus.set({ cluster_queue: name, status: s }, s === current ? 1 : 0);
      }
      metrics.reservingActiveWorkloads.set({ cluster_queue: name }, status.reservingWorkloads ?? 0);
      metrics.admittedActiveWorkloads.set({ cluster_queue: name }, status.admittedWorkloads ?? 0);
    }
  };

  return {
    observe(workload, deleted = false) {
      const k = keyOf(workload);
      const mine = assumed.get(k);
      if (deleted) {
        assumed.delete(k);
        index.delete(k);
        return false;
      }
      // Up to the version the index's copy is newer than, events are old news (the echo of
      // a write of ours included).
      if (mine !== undefined && !isNewer(workload.metadata.resourceVersion ?? "", mine.over)) {
        return true;
      }
      assumed.delete(k);
      index.upsert(workload);
      return false;
    },

    invalidate() {
      invalidated = true;
    },

    statusDueAt: () => statuses.dueAt(),

    flush: () => writes.flush(),

    async cycle() {
      const started = deps.clock.now();
      if (!primed) {
        primed = true;
        for (const w of deps.workloads.list()) {
          if (!assumed.has(keyOf(w))) index.upsert(w);
        }
      }
      const force = invalidated;
      const clusterQueues = deps.clusterQueues.list();
      const localQueues = deps.localQueues.list();
      unparkReleased(clusterQueues);
      const plan = planCycle({
        clusterQueues,
        localQueues,
        flavors: new Map(deps.flavors.list().map((rf) => [rf.metadata.name ?? "", rf])),
        index,
        namespaceLabels: (ns) => deps.namespaces.get(undefined, ns)?.metadata.labels ?? undefined,
        skip: (key) => {
          if (!writes.running(key)) return false;
          waiting.add(key);
          return true;
        },
        now: started.getTime(),
      });
      for (const p of plan.parked) index.park(p.localQueue, p.key, p.clusterQueue);
      const now = deps.clock.now();
      for (const { workload, admission } of plan.admissions) admit(workload, admission, now);
      for (const { preemptor, clusterQueue, targets } of plan.preemptions) {
        for (const target of targets) preempt(preemptor, clusterQueue, target, now);
      }
      for (const decision of plan.pending) markPending(decision, now);

      if (plan.admissions.length > 0 || plan.pendingStatus.size > 0) {
        const result = plan.admissions.length > 0 ? "success" : "inadmissible";
        metrics?.admissionAttempts.inc({ result });
        metrics?.admissionAttemptDuration.observe(
          { result },
          Math.max(0, (deps.clock.now().getTime() - started.getTime()) / 1000),
        );
      }
      recordMetrics(plan, clusterQueues);

      const present: string[] = [];
      for (const cq of clusterQueues) {
        const status = plan.clusterQueues.get(cq.metadata.name ?? "");
        if (status === undefined) continue;
        const { activeState, ...fields } = status;
        present.push(statuses.write(cq, fields, activeState, clusterQueuesResource, now, force));
      }
      for (const lq of localQueues) {
        const status = plan.localQueues.get(keyOf(lq));
        if (status === undefined) continue;
        const { activeState, ...fields } = status;
        present.push(statuses.write(lq, fields, activeState, localQueuesResource, now, force));
      }
      statuses.retain(present);
    },
  };
}
