/**
 * Counting finished pods with the tracking finalizer (upstream's
 * `trackJobStatusAndRemoveFinalizers`, pure half): finished pods first go to
 * `status.uncountedTerminatedPods`, that status is written, their finalizers are removed, and
 * only then are they moved to `succeeded` / `failed`. A crash between the steps never loses or
 * doubles a count.
 */
import type { Job, JobCondition, JobStatus, Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  completionIndexOf,
  formatIndexes,
  hasIndex,
  type Intervals,
  totalOf,
  unknownIndex,
  withIndexes,
} from "./indexes.ts";
import { hasTrackingFinalizer, isIndexed, isPodFailed, newJobCondition } from "./job-state.ts";

/** Upstream's `MaxUncountedPods`: at most this many uids wait in the status at once. */
export const maxUncountedPods = 500;

type P = DeepReadonly<Pod>;

/**
 * `cleanUncountedPodsWithoutFinalizers`: uids whose pod no longer has the finalizer move from
 * the uncounted lists to the counters. Edits `status`; returns whether anything moved.
 */
export function cleanUncounted(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const uncounted = status.uncountedTerminatedPods ?? {};
  let changed = false;
  const succeeded = (uncounted.succeeded ?? []).filter((uid) => withFinalizer.has(uid));
  if (succeeded.length !== (uncounted.succeeded ?? []).length) {
    status.succeeded =
      (status.succeeded ?? 0) + (uncounted.succeeded ?? []).length - succeeded.length;
    changed = true;
  }
  const failed = (uncounted.failed ?? []).filter((uid) => withFinalizer.has(uid));
  if (failed.length !== (uncounted.failed ?? []).length) {
    status.failed = (status.failed ?? 0) + (uncounted.failed ?? []).length - failed.length;
    changed = true;
  }
  const next: NonNullable<JobStatus["uncountedTerminatedPods"]> = {};
  if (succeeded.length > 0) next.succeeded = succeeded;
  if (failed.length > 0) next.failed = failed;
  status.uncountedTerminatedPods = next;
  return changed;
}

export interface TrackingInput {
  readonly job: DeepReadonly<Job>;
  /** The status being built (edited in place). */
  readonly status: JobStatus;
  readonly pods: readonly P[];
  /** Pods whose finalizer removal is still awaited: already handled. */
  readonly expectedRemovals: ReadonlySet<string>;
  /** The condition the sync decided the Job finishes with, if any. */
  readonly finished: JobCondition | undefined;
  /** Indexed: the indexes in `status.completedIndexes`, and those plus new successes. */
  readonly prevSucceeded: Intervals;
  readonly succeeded: Intervals;
  readonly needsFlush: boolean;
  readonly now: Date;
}

export interface TrackingPlan {
  /** Finished (or, for a finishing Job, any) pods whose finalizer goes once the status is written. */
  readonly removeFinalizerFrom: readonly P[];
  /** Uids of pods still holding the finalizer (and not awaited). */
  readonly withFinalizer: Set<string>;
  /** The terminal condition to set once nothing is uncounted: Complete or Failed. */
  readonly finished: JobCondition | undefined;
  readonly needsFlush: boolean;
  /** Stopped at `maxUncountedPods`: the Job cannot be declared finished in this sync. */
  readonly reachedMax: boolean;
}

/**
 * The first half of tracking: which pods to add to the uncounted lists (edits `input.status`,
 * including `completedIndexes`, `succeeded` of Indexed Jobs and the interim FailureTarget or
 * SuccessCriteriaMet condition), and whose finalizers to remove after writing it.
 */
export function planTracking(input: TrackingInput): TrackingPlan {
  const { job, status, now } = input;
  const indexed = isIndexed(job);
  const completions = job.spec.completions ?? 0;
  let needsFlush = input.needsFlush;
  const pods = indexed
    ? [...input.pods].sort((a, b) => completionIndexOf(a) - completionIndexOf(b))
    : input.pods;
  const withFinalizer = new Set<string>();
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? "";
    if (hasTrackingFinalizer(pod) && !input.expectedRemovals.has(uid)) withFinalizer.add(uid);
  }
  if (cleanUncounted(status, withFinalizer)) needsFlush = true;
  const uncounted = status.uncountedTerminatedPods ?? {};
  const wasSucceeded = new Set(uncounted.succeeded ?? []);
  const wasFailed = new Set(uncounted.failed ?? []);
  const addSucceeded: string[] = [];
  const addFailed: string[] = [];
  const newIndexes: number[] = [];
  const finishing = input.finished;
  const remove: P[] = [];
  let reachedMax = false;
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? "";
    if (!hasTrackingFinalizer(pod) || input.expectedRemovals.has(uid)) continue;
    const failed = isPodFailed(pod, job);
    const removable =
      job.metadata.deletionTimestamp !== undefined ||
      finishing !== undefined ||
      pod.status?.phase === "Succeeded" ||
      failed;
    if (!removable) continue;
    remove.push(pod);
    if (pod.status?.phase === "Succeeded" && !wasFailed.has(uid)) {
      if (indexed) {
        const index = completionIndexOf(pod);
        if (
          index !== unknownIndex &&
          index < completions &&
          !hasIndex(input.prevSucceeded, index)
        ) {
          newIndexes.push(index);
          needsFlush = true;
        }
      } else if (!wasSucceeded.has(uid)) {
        addSucceeded.push(uid);
        needsFlush = true;
      }
    } else if (failed || (finishing !== undefined && finishing.type !== "SuccessCriteriaMet")) {
      const index = completionIndexOf(pod);
      if (!wasFailed.has(uid) && (!indexed || (index !== unknownIndex && index < completions))) {
        addFailed.push(uid);
        needsFlush = true;
      }
    }
    const pending =
      newIndexes.length +
      (uncounted.succeeded ?? []).length +
      addSucceeded.length +
      (uncounted.failed ?? []).length +
      addFailed.length;
    if (pending >= maxUncountedPods) {
      reachedMax = true;
      break;
    }
  }
  const next: NonNullable<JobStatus["uncountedTerminatedPods"]> = {};
  const succeededUids = [...(uncounted.succeeded ?? []), ...addSucceeded];
  const failedUids = [...(uncounted.failed ?? []), ...addFailed];
  if (succeededUids.length > 0) next.succeeded = succeededUids;
  if (failedUids.length > 0) next.failed = failedUids;
  status.uncountedTerminatedPods = next;
  if (indexed) {
    const all = withIndexes(input.succeeded, newIndexes);
    const text = formatIndexes(all);
    if (text !== (status.completedIndexes ?? "")) needsFlush = true;
    status.succeeded = totalOf(all);
    status.completedIndexes = text;
  }
  let finished = finishing;
  if (finishing?.type === "FailureTarget") {
    status.conditions = [...(status.conditions ?? []), finishing];
    needsFlush = true;
    finished = newJobCondition(
      "Failed",
      "True",
      finishing.reason ?? "",
      finishing.message ?? "",
      now,
    );
  } else if (finishing?.type === "SuccessCriteriaMet") {
    if (!(status.conditions ?? []).some((c) => c.type === "SuccessCriteriaMet")) {
      status.conditions = [...(status.conditions ?? []), finishing];
      needsFlush = true;
    }
    finished = newJobCondition(
      "Complete",
      "True",
      finishing.reason ?? "",
      finishing.message ?? "",
      now,
    );
  }
  return { removeFinalizerFrom: remove, withFinalizer, finished, needsFlush, reachedMax };
}
