/**
 * The pod-failure backoff of Jobs (upstream's backoff_utils.go): after `n` failures since the
 * last success, new pods wait `base × 2^(n-1)` (capped) from the last failure. Records are kept
 * in memory per Job key, as upstream's backoff store.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** Upstream's `DefaultJobPodFailureBackOff` (10 s) and `MaxJobPodFailureBackOff` (10 min). */
export const defaultPodFailureBackoffMs = 10_000;
export const maxPodFailureBackoffMs = 10 * 60_000;

export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  /** Epoch ms of the newest failure counted, when there is one. */
  readonly lastFailureTime?: number;
}

function timeOf(text: string | null | undefined): number | undefined {
  if (text === undefined || text === null || text === "") return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * `getFinishedTime`: when a pod finished: the Ready=False transition of a terminal pod, else the
 * latest container termination, else its deletionTimestamp, else its creationTimestamp.
 */
export function finishedTime(pod: DeepReadonly<Pod>): number {
  const ready = pod.status?.conditions?.find((c) => c.type === "Ready");
  if (ready !== undefined && ready.status === "False") {
    const at = timeOf(ready.lastTransitionTime);
    if (at !== undefined) return at;
  }
  let latest: number | undefined;
  for (const status of pod.status?.containerStatuses ?? []) {
    const at = timeOf(status.state?.terminated?.finishedAt);
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  if (latest !== undefined) return latest;
  return timeOf(pod.metadata.deletionTimestamp) ?? timeOf(pod.metadata.creationTimestamp) ?? 0;
}

/**
 * `newBackoffRecord`: the record after pods that newly succeeded and failed. Without new
 * successes the failures add up; with one, only failures after the latest success count.
 */
export function nextBackoffRecord(
  previous: BackoffRecord,
  newSucceeded: readonly DeepReadonly<Pod>[],
  newFailed: readonly DeepReadonly<Pod>[],
): BackoffRecord {
  const failedTimes = newFailed.map(finishedTime).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    const last = failedTimes[failedTimes.length - 1];
    if (last === undefined) return previous;
    return {
      failuresAfterLastSuccess: previous.failuresAfterLastSuccess + failedTimes.length,
      lastFailureTime: last,
    };
  }
  const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
  const after = failedTimes.filter((t) => t > lastSuccess);
  const last = after[after.length - 1];
  return last === undefined
    ? { failuresAfterLastSuccess: 0 }
    : { failuresAfterLastSuccess: after.length, lastFailureTime: last };
}

/** `getRemainingTime`: ms until a new pod may start (0 when it may start now). */
export function remainingBackoffMs(
  record: BackoffRecord,
  now: number,
  baseMs: number,
  maxMs: number,
): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  let delay = baseMs;
  for (let i = 1; i < record.failuresAfterLastSuccess; i++) {
    delay *= 2;
    if (delay >= maxMs) {
      delay = maxMs;
      break;
    }
  }
  const elapsed = now - record.lastFailureTime;
  return delay < elapsed ? 0 : delay - elapsed;
}

/** The records of every Job this controller tracks, by key. */
export class BackoffStore {
  readonly #records = new Map<string, BackoffRecord>();

  get(key: string): BackoffRecord {
    return this.#records.get(key) ?? { failuresAfterLastSuccess: 0 };
  }

  set(key: string, record: BackoffRecord): void {
    this.#records.set(key, record);
  }

  delete(key: string): void {
    this.#records.delete(key);
  }
}
