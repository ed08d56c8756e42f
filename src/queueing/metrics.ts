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
  readonly quotaReservedWaitTime: Histogram<"cluster_queue" | "priority_class">;
  readonly admissionChecksWaitTime: Histogram<"cluster_queue" | "priority_class">;
  readonly admissionAttemptDuration: Histogram<"result">;
  readonly admissionCyclePreemptionSkips: Gauge<"cluster_queue">;
  readonly clusterQueueStatus: Gauge<"cluster_queue" | "status">;
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
      help: `The number of pending workloads, per 'cluster_queue' and 'status'.
'status' can have the following values:
- "active" means that the workloads are in the admission queue.
- "inadmissible" means there was a failed admission attempt for these workloads and they won't be retried until cluster conditions, which could make this workload admissible, change`,
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
    quotaReservedWaitTime: new Histogram({
      name: "kueue_quota_reserved_wait_time_seconds",
      help: "The time between a workload was created or requeued until it got quota reservation, per 'cluster_queue'",
      labelNames: ["cluster_queue", "priority_class"],
      buckets: waitBuckets,
      registers,
    }),
    admissionChecksWaitTime: new Histogram({
      name: "kueue_admission_checks_wait_time_seconds",
      help: "The time from when a workload got the quota reservation until admission, per 'cluster_queue'",
      labelNames: ["cluster_queue", "priority_class"],
      buckets: waitBuckets,
      registers,
    }),
    admissionAttemptDuration: new Histogram({
      name: "kueue_admission_attempt_duration_seconds",
      help: `The latency of an admission attempt.
The label 'result' can have the following values:
- 'success' means that at least one workload was admitted.,
- 'inadmissible' means that no workload was admitted.`,
      labelNames: ["result"],
      registers,
    }),
    admissionCyclePreemptionSkips: new Gauge({
      name: "kueue_admission_cycle_preemption_skips",
      help: "The number of Workloads in the ClusterQueue that got preemption candidates but had to be skipped because other ClusterQueues needed the same resources in the same cycle",
      labelNames: ["cluster_queue"],
      registers,
    }),
    clusterQueueStatus: new Gauge({
      name: "kueue_cluster_queue_status",
      help: `Reports 'cluster_queue' with its 'status' (with possible values 'pending', 'active' or 'terminated').
For a ClusterQueue, the metric only reports a value of 1 for one of the statuses.`,
      labelNames: ["cluster_queue", "status"],
      registers,
    }),
    evictedWorkloads: new Counter({
      name: "kueue_evicted_workloads_total",
      help: `The number of evicted workloads per 'cluster_queue',
The label 'reason' can have the following values:
- "Preempted" means that the workload was evicted in order to free resources for a workload with a higher priority or reclamation of nominal quota.
- "PodsReadyTimeout" means that the eviction took place due to a PodsReady timeout.
- "AdmissionCheck" means that the workload was evicted because at least one admission check transitioned to False.
- "ClusterQueueStopped" means that the workload was evicted because the ClusterQueue is stopped.
- "Deactivated" means that the workload was evicted because spec.active is set to false`,
      labelNames: ["cluster_queue", "reason", "underlying_cause", "priority_class"],
      registers,
    }),
    preemptedWorkloads: new Counter({
      name: "kueue_preempted_workloads_total",
      help: `The number of preempted workloads per 'preempting_cluster_queue',
The label 'reason' can have the following values:
- "InClusterQueue" means that the workload was preempted by a workload in the same ClusterQueue.
- "InCohortReclamation" means that the workload was preempted by a workload in the same cohort due to reclamation of nominal quota.
- "InCohortFairSharing" means that the workload was preempted by a workload in the same cohort due to fair sharing.
- "InCohortReclaimWhileBorrowing" means that the workload was preempted by a workload in the same cohort due to reclamation of nominal quota while borrowing.`,
      labelNames: ["preempting_cluster_queue", "reason"],
      registers,
    }),
    admissionAttempts: new Counter({
      name: "kueue_admission_attempts_total",
      help: `The total number of attempts to admit workloads.
Each admission attempt might try to admit more than one workload.
The label 'result' can have the following values:
- 'success' means that at least one workload was admitted.,
- 'inadmissible' means that no workload was admitted.`,
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
