/**
 * Kueue's metrics (pkg/metrics, `kueue_` prefix, v0.14 labels) and KEP-976's pod counters, on a
 * prom-client registry that cmd serves on /metrics.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Kueue's wait-time buckets: 1, then 13 doublings from 2.5 s. */
const waitBuckets = [1, 2.5, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240];

export interface QueueingMetrics {
  readonly pendingWorkloads: Gauge<"cluster_queue" | "status">;
  readonly admittedWorkloads: Counter<"cluster_queue" | "priority_class">;
  readonly quotaReservedWorkloads: Counter<"cluster_queue" | "priority_class">;
  readonly admissionWaitTime: Histogram<"cluster_queue" | "priority_class">;
  readonly evictedWorkloads: Counter<
    "cluster_queue" | "reason" | "underlying_cause" | "priority_class"
  >;
  readonly preemptedWorkloads: Counter<"preempting_cluster_queue" | "reason">;
  readonly admissionAttempts: Counter<"result">;
  readonly reservingActiveWorkloads: Gauge<"cluster_queue">;
  readonly admittedActiveWorkloads: Gauge<"cluster_queue">;
  readonly podsGated: Counter;
  readonly podsUngated: Counter;
  readonly podsRejected: Counter;
}

export function newQueueingMetrics(registry: Registry): QueueingMetrics {
  const registers = [registry];
  return {
    pendingWorkloads: new Gauge({
      name: "kueue_pending_workloads",
      help: "The number of pending workloads, per 'cluster_queue' and 'status'",
      labelNames: ["cluster_queue", "status"],
      registers,
    }),
    admittedWorkloads: new Counter({
      name: "kueue_admitted_workloads_total",
      help: "The total number of admitted workloads per 'cluster_queue'",
      labelNames: ["cluster_queue", "priority_class"],
      registers,
    }),
    quotaReservedWorkloads: new Counter({
      name: "kueue_quota_reserved_workloads_total",
      help: "The total number of quota reserved workloads per 'cluster_queue'",
      labelNames: ["cluster_queue", "priority_class"],
      registers,
    }),
    admissionWaitTime: new Histogram({
      name: "kueue_admission_wait_time_seconds",
      help: "The time between a workload was created or requeued until admission, per 'cluster_queue'",
      labelNames: ["cluster_queue", "priority_class"],
      buckets: waitBuckets,
      registers,
    }),
    evictedWorkloads: new Counter({
      name: "kueue_evicted_workloads_total",
      help: "The number of evicted workloads per 'cluster_queue'",
      labelNames: ["cluster_queue", "reason", "underlying_cause", "priority_class"],
      registers,
    }),
    preemptedWorkloads: new Counter({
      name: "kueue_preempted_workloads_total",
      help: "The number of preempted workloads per 'preempting_cluster_queue'",
      labelNames: ["preempting_cluster_queue", "reason"],
      registers,
    }),
    admissionAttempts: new Counter({
      name: "kueue_admission_attempts_total",
      help: "The total number of attempts to admit workloads. result: success or inadmissible",
      labelNames: ["result"],
      registers,
    }),
    reservingActiveWorkloads: new Gauge({
      name: "kueue_reserving_active_workloads",
      help: "The number of Workloads that are reserving quota, per 'cluster_queue'",
      labelNames: ["cluster_queue"],
      registers,
    }),
    admittedActiveWorkloads: new Gauge({
      name: "kueue_admitted_active_workloads",
      help: "The number of admitted Workloads that are active (unsuspended and not finished), per 'cluster_queue'",
      labelNames: ["cluster_queue"],
      registers,
    }),
    podsGated: new Counter({
      name: "pods_gated_total",
      help: "Pods that got Kueue's admission scheduling gate (KEP-976)",
      registers,
    }),
    podsUngated: new Counter({
      name: "pods_ungated_total",
      help: "Pods whose admission gate Kueue removed (KEP-976)",
      registers,
    }),
    podsRejected: new Counter({
      name: "pods_rejected_total",
      help: "Pod creations or updates Kueue's pod webhook rejected (KEP-976)",
      registers,
    }),
  };
}
