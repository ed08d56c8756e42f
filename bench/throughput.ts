/**
 * Scheduling throughput over a run, as kube-scheduler's scheduler_perf reports it: the number of
 * scheduled pods is sampled once a second, each interval gives one pods-per-second figure, and
 * the run is summarised by the average and percentiles of those figures.
 */
import { percentile } from "./stats.ts";

/** One sample: how many pods were created, bound and Running at `atMs` (performance.now()). */
export interface ProgressSample {
  readonly atMs: number;
  readonly created: number;
  readonly bound: number;
  readonly running: number;
}

export interface ThroughputSummary {
  /** Per-interval pods/s, in time order, from the first interval in which a pod was bound. */
  readonly perSecond: readonly number[];
  readonly average: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
}

/**
 * Per-interval throughput of `field` between consecutive samples. Intervals before the first
 * bound pod are left out (they measure the API's start, not the scheduler), as are those after
 * the last pod was counted (the run was only waiting for its end).
 */
export function throughputOf(
  samples: readonly ProgressSample[],
  field: "created" | "bound" | "running",
): ThroughputSummary {
  const perSecond: number[] = [];
  const last = samples.at(-1)?.[field] ?? 0;
  for (let i = 1; i < samples.length; i++) {
    const previous = samples[i - 1] as ProgressSample;
    const current = samples[i] as ProgressSample;
    if (current[field] === 0) continue;
    if (previous[field] === last) break;
    const seconds = (current.atMs - previous.atMs) / 1000;
    if (seconds > 0) perSecond.push((current[field] - previous[field]) / seconds);
  }
  const sum = perSecond.reduce((a, b) => a + b, 0);
  return {
    perSecond,
    average: perSecond.length === 0 ? Number.NaN : sum / perSecond.length,
    p50: percentile(perSecond, 50),
    p90: percentile(perSecond, 90),
    p95: percentile(perSecond, 95),
    p99: percentile(perSecond, 99),
  };
}
