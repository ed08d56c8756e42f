/**
 * What the Job controller reads off Jobs and their pods: conditions, suspension, failure
 * accounting, deadlines (upstream's job_controller.go helpers and job/util). Pure.
 */
import type { Job, JobCondition, Pod } from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";

/** `batch.JobTrackingFinalizer`: finished pods stay until the Job counted them. */
export const jobTrackingFinalizer = "batch.kubernetes.io/job-tracking";
/** `batch.JobControllerName`: the `spec.managedBy` value meaning this controller. */
export const jobControllerName = "kubernetes.io/job-controller";

/** Condition reasons and messages, in upstream's words. */
export const reasons = {
  backoffLimitExceeded: "BackoffLimitExceeded",
  deadlineExceeded: "DeadlineExceeded",
  completionsReached: "CompletionsReached",
} as const;
export const messages = {
  backoffLimitExceeded: "Job has reached the specified backoff limit",
  deadlineExceeded: "Job was active longer than specified deadline",
  completionsReached: "Reached expected number of succeeded pods",
} as const;

type J = DeepReadonly<Job>;
type P = DeepReadonly<Pod>;

export function hasTrackingFinalizer(pod: P): boolean {
  return (pod.metadata.finalizers ?? []).includes(jobTrackingFinalizer);
}

export function findJobCondition(
  conditions: readonly DeepReadonly<JobCondition>[] | undefined,
  type: string,
): DeepReadonly<JobCondition> | undefined {
  return conditions?.find((c) => c.type === type);
}

/** `IsJobFinished`: a Complete or Failed condition is True. */
export function isJobFinished(job: J): boolean {
  return finishedCondition(job) !== undefined;
}

/** `FinishedCondition`: which of Complete and Failed is True, if either. */
export function finishedCondition(job: J): "Complete" | "Failed" | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === "Complete" || c.type === "Failed") && c.status === "True") return c.type;
  }
  return undefined;
}

/** `managedByExternalController`: the controller named by `spec.managedBy`, when not this one. */
export function externalManager(job: J): string | undefined {
  const manager = job.spec.managedBy;
  return manager === undefined || manager === jobControllerName ? undefined : manager;
}

export function isSuspended(job: J): boolean {
  return job.spec.suspend === true;
}

export function isIndexed(job: J): boolean {
  return job.spec.completionMode === "Indexed";
}

/** `newCondition`: probe and transition time now; empty reason and message left out. */
export function newJobCondition(
  type: string,
  status: "True" | "False" | "Unknown",
  reason: string,
  message: string,
  now: Date,
): JobCondition {
  const time = rfc3339(now);
  const condition: JobCondition = { type, status, lastProbeTime: time, lastTransitionTime: time };
  if (reason !== "") condition.reason = reason;
  if (message !== "") condition.message = message;
  return condition;
}

/**
 * `ensureJobConditionStatus`: sets the condition of `type` (a new one when status, reason or
 * message differ); a missing condition is not added with status False.
 */
export function ensureJobCondition(
  conditions: readonly JobCondition[],
  type: string,
  status: "True" | "False",
  reason: string,
  message: string,
  now: Date,
): { conditions: JobCondition[]; changed: boolean } {
  const list = [...conditions];
  const index = list.findIndex((c) => c.type === type);
  const current = list[index];
  if (current !== undefined) {
    if (
      current.status === status &&
      (current.reason ?? "") === reason &&
      (current.message ?? "") === message
    ) {
      return { conditions: list, changed: false };
    }
    list[index] = newJobCondition(type, status, reason, message, now);
    return { conditions: list, changed: true };
  }
  if (status === "False") return { conditions: list, changed: false };
  list.push(newJobCondition(type, status, reason, message, now));
  return { conditions: list, changed: true };
}

/** `onlyReplaceFailedPods`: podReplacementPolicy Failed (implied by a podFailurePolicy). */
export function onlyReplaceFailedPods(job: J): boolean {
  return job.spec.podReplacementPolicy === "Failed" || job.spec.podFailurePolicy !== undefined;
}

/**
 * `isPodFailed`: phase Failed, or (unless only failed pods are replaced) deleted before
 * succeeding: an orphan or evicted pod never gets to report Failed.
 */
export function isPodFailed(pod: P, job: J): boolean {
  if (pod.status?.phase === "Failed") return true;
  if (onlyReplaceFailedPods(job)) return false;
  return pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== "Succeeded";
}

/** `CountTerminatingPods`: pods being deleted that have not finished. */
export function countTerminating(pods: readonly P[]): number {
  return pods.filter(
    (p) =>
      p.metadata.deletionTimestamp !== undefined &&
      p.status?.phase !== "Succeeded" &&
      p.status?.phase !== "Failed",
  ).length;
}

/**
 * `pastBackoffLimitOnFailure`: with restartPolicy OnFailure, container restarts of pending and
 * running pods count against backoffLimit.
 */
export function pastBackoffLimitOnFailure(job: J, pods: readonly P[]): boolean {
  if (job.spec.template.spec?.restartPolicy !== "OnFailure") return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase !== "Running" && phase !== "Pending") continue;
    for (const s of pod.status?.initContainerStatuses ?? []) restarts += s.restartCount;
    for (const s of pod.status?.containerStatuses ?? []) restarts += s.restartCount;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/**
 * Ms left before activeDeadlineSeconds runs out: `undefined` without a deadline, a start time,
 * or while suspended; 0 or less once past it (`pastActiveDeadline`).
 */
export function activeDeadlineRemainingMs(job: J, now: Date): number | undefined {
  const seconds = job.spec.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (seconds === undefined || start === undefined || isSuspended(job)) return undefined;
  return Date.parse(start) + seconds * 1000 - now.getTime();
}
