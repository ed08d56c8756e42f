/**
 * The scheduler's Prometheus metrics, with upstream's names. For every pod:
 * - `scheduler_schedule_attempts_total{result,profile}`: scheduling attempts by outcome
 *   (`scheduled` once bound, `unschedulable` when rejected, `error` otherwise);
 * - `scheduler_pending_pods{queue}`: pods waiting in `active`, `backoff`, `unschedulable`, and
 *   `gated` (never attempted because of a scheduling gate).
 * For pod groups (KEP-4671 beta):
 * - `scheduler_podgroup_schedule_attempts_total{result,profile}`: group cycles by outcome
 *   (`scheduled`, `unschedulable`, `error`);
 * - `scheduler_podgroup_scheduling_attempt_duration_seconds{result,profile}`: how long a group
 *   cycle took (buckets from 1 ms doubling, 15 of them);
 * - `scheduler_pending_entities{type="podgroup",queue}`: gangs with members waiting, by queue
 *   (`active`, `backoff`, `unschedulable`, and `gated` for gangs still assembling).
 * They live on the registry the caller passes (the API server's in `gantry up`), never a global.
 */
import { Counter, exponentialBuckets, Gauge, Histogram, type Registry } from "prom-client";

/** How an attempt ended, for a pod or a pod group. */
export type PodGroupResult = "scheduled" | "unschedulable" | "error";

export type PendingQueue = "active" | "backoff" | "unschedulable" | "gated";

export interface SchedulerMetrics {
  /** One attempt to schedule a pod ended with `result` (`scheduled` once the pod is bound). */
  observePodAttempt(result: PodGroupResult, profile: string): void;
  /** One group cycle ended with `result` after `seconds`. */
  observePodGroupAttempt(result: PodGroupResult, profile: string, seconds: number): void;
}

/** What the gauges read at scrape time. */
export interface SchedulerMetricsSources {
  /** Pods in each queue. */
  readonly pendingPods: () => Readonly<Record<PendingQueue, number>>;
  /** Distinct gangs with members in each queue. */
  readonly pendingPodGroups: () => Readonly<Record<PendingQueue, number>>;
}

/** Metrics that go nowhere (no registry given). */
export const noSchedulerMetrics: SchedulerMetrics = {
  observePodAttempt: () => undefined,
  observePodGroupAttempt: () => undefined,
};

/** Registers the scheduler's metrics on `registry`. */
export function newSchedulerMetrics(
  registry: Registry,
  sources: SchedulerMetricsSources,
): SchedulerMetrics {
  const podAttempts = new Counter({
    name: "scheduler_schedule_attempts_total",
    help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
    labelNames: ["result", "profile"],
    registers: [registry],
  });
  new Gauge({
    name: "scheduler_pending_pods",
    help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
    labelNames: ["queue"],
    registers: [registry],
    collect() {
      const pending = sources.pendingPods();
      for (const queue of ["active", "backoff", "unschedulable", "gated"] as const) {
        this.set({ queue }, pending[queue]);
      }
    },
  });
  const attempts = new Counter({
    name: "scheduler_podgroup_schedule_attempts_total",
    help: "Number of attempts to schedule pod groups, by the result. 'unschedulable' means a pod group could not be scheduled, while 'error' means an internal scheduler problem.",
    labelNames: ["result", "profile"],
    registers: [registry],
  });
  const durations = new Histogram({
    name: "scheduler_podgroup_scheduling_attempt_duration_seconds",
    help: "Pod group scheduling attempt latency in seconds (scheduling algorithm + binding decision)",
    labelNames: ["result", "profile"],
    buckets: exponentialBuckets(0.001, 2, 15),
    registers: [registry],
  });
  new Gauge({
    name: "scheduler_pending_entities",
    help: "Number of pending entities (pod groups), by the queue they wait in.",
    labelNames: ["type", "queue"],
    registers: [registry],
    collect() {
      const pending = sources.pendingPodGroups();
      for (const queue of ["active", "backoff", "unschedulable", "gated"] as const) {
        this.set({ type: "podgroup", queue }, pending[queue]);
      }
    },
  });
  return {
    observePodAttempt(result, profile) {
      podAttempts.inc({ result, profile });
    },
    observePodGroupAttempt(result, profile, seconds) {
      attempts.inc({ result, profile });
      durations.observe({ result, profile }, seconds);
    },
  };
}
