/**
 * The scheduler's Prometheus metrics for pod groups, with upstream's names (KEP-4671 beta):
 * - `scheduler_podgroup_schedule_attempts_total{result,profile}`: group cycles by outcome
 *   (`scheduled`, `unschedulable`, `error`);
 * - `scheduler_podgroup_scheduling_attempt_duration_seconds{result,profile}`: how long a group
 *   cycle took (buckets from 1 ms doubling, 15 of them);
 * - `scheduler_pending_entities{type="podgroup",queue}`: gangs with members waiting, by queue
 *   (`active`, `backoff`, `unschedulable`, and `gated` for gangs still assembling).
 * They live on the registry the caller passes (the API server's in `gantry up`), never a global.
 */
import { Counter, exponentialBuckets, Gauge, Histogram, type Registry } from "prom-client";

export type PodGroupResult = "scheduled" | "unschedulable" | "error";

export type PendingQueue = "active" | "backoff" | "unschedulable" | "gated";

export interface SchedulerMetrics {
  /** One group cycle ended with `result` after `seconds`. */
  observePodGroupAttempt(result: PodGroupResult, profile: string, seconds: number): void;
}

/** What the gauges read at scrape time. */
export interface SchedulerMetricsSources {
  /** Distinct gangs with members in each queue. */
  readonly pendingPodGroups: () => Readonly<Record<PendingQueue, number>>;
}

/** Metrics that go nowhere (no registry given). */
export const noSchedulerMetrics: SchedulerMetrics = {
  observePodGroupAttempt: () => undefined,
};

/** Registers the scheduler's metrics on `registry`. */
export function newSchedulerMetrics(
  registry: Registry,
  sources: SchedulerMetricsSources,
): SchedulerMetrics {
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
    observePodGroupAttempt(result, profile, seconds) {
      attempts.inc({ result, profile });
      durations.observe({ result, profile }, seconds);
    },
  };
}
