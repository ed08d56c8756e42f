/** One reconcile of a Job (upstream's `syncJob`), and of an orphan pod's finalizer. */
import {
  isPodReady,
  type Job,
  type JobCondition,
  type JobStatus,
  type LabelSelector,
  type LabelSelectorExpr,
  matchesLabels,
  type Pod,
  selectorFromLabelSelector,
} from "../../api/index.ts";
import { isNotFound, jobsResource, podsResource, type SharedInformer } from "../../client/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import {
  claimObjects,
  controllerRefOf,
  done,
  earliest,
  isPodActive,
  type ReconcileResult,
  recheckNotDeleting,
  referenceTo,
  requeueAfter,
  splitKey,
  terminal,
} from "../framework/index.ts";
import { type BackoffStore, nextBackoffRecord } from "./backoff.ts";
import type { FinalizerExpectations } from "./finalizer-expectations.ts";
import {
  completionIndexOf,
  hasIndex,
  type Intervals,
  parseIndexes,
  totalOf,
  unknownIndex,
  withIndexes,
} from "./indexes.ts";
import { removeFinalizerPatch } from "./job-pods.ts";
import {
  activeDeadlineRemainingMs,
  countTerminating,
  ensureJobCondition,
  externalManager,
  findJobCondition,
  hasTrackingFinalizer,
  isIndexed,
  isJobFinished,
  isPodFailed,
  isSuspended,
  jobTrackingFinalizer,
  messages,
  newJobCondition,
  pastBackoffLimitOnFailure,
  reasons,
} from "./job-state.ts";
import { deleteActivePods, type JobWrites, manageJob } from "./manage.ts";
import { ensureSchedulingObjects, type SchedulingObjectsContext } from "./scheduling-objects.ts";
import { cleanUncounted, planTracking } from "./tracking.ts";

export const jobIdentity = { apiVersion: "batch/v1", kind: "Job" } as const;

export interface JobContext extends JobWrites, SchedulingObjectsContext {
  readonly jobs: SharedInformer<Job>;
  readonly pods: SharedInformer<Pod>;
  readonly finalizers: FinalizerExpectations;
  readonly backoff: BackoffStore;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  /** Delay that batches pod events into one sync (upstream's syncJobBatchPeriod). */
  readonly batchPeriodMs: number;
}

type P = DeepReadonly<Pod>;

/** Orphan-pod keys share the work queue with Job keys. */
export const orphanPodPrefix = "pod:";

/**
 * `calculateSucceededIndexes`: the indexes in `status.completedIndexes`, and those plus the
 * indexes of succeeded pods still holding the finalizer (and not awaited).
 */
function succeededIndexes(
  job: DeepReadonly<Job>,
  pods: readonly P[],
  expected: ReadonlySet<string>,
): { prev: Intervals; all: Intervals } {
  const completions = job.spec.completions ?? 0;
  const prev = parseIndexes(job.status?.completedIndexes, completions);
  const fresh: number[] = [];
  for (const pod of pods) {
    if (pod.status?.phase !== "Succeeded" || !hasTrackingFinalizer(pod)) continue;
    if (expected.has(pod.metadata.uid ?? "")) continue;
    const index = completionIndexOf(pod);
    if (index !== unknownIndex && index < completions && !hasIndex(prev, index)) fresh.push(index);
  }
  return { prev, all: withIndexes(prev, fresh) };
}

/** `getNewFinishedPods`: finished pods with the finalizer, not yet in the uncounted lists. */
function newFinishedPods(
  job: DeepReadonly<Job>,
  pods: readonly P[],
  status: JobStatus,
  expected: ReadonlySet<string>,
): { succeeded: P[]; failed: P[] } {
  const uncounted = status.uncountedTerminatedPods ?? {};
  const valid = (pod: P, listed: readonly string[] | undefined): boolean => {
    const uid = pod.metadata.uid ?? "";
    if (!hasTrackingFinalizer(pod) || (listed ?? []).includes(uid) || expected.has(uid)) {
      return false;
    }
    if (!isIndexed(job)) return true;
    const index = completionIndexOf(pod);
    return index !== unknownIndex && index < (job.spec.completions ?? 0);
  };
  return {
    succeeded: pods.filter((p) => p.status?.phase === "Succeeded" && valid(p, uncounted.succeeded)),
    failed: pods.filter((p) => isPodFailed(p, job) && valid(p, uncounted.failed)),
  };
}

/** Converges the Job (or, for `pod:` keys, the orphan pod) stored under `key`. */
export async function reconcileJob(context: JobContext, key: string): Promise<ReconcileResult> {
  if (key.startsWith(orphanPodPrefix))
    return syncOrphanPod(context, key.slice(orphanPodPrefix.length));
  const { namespace, name } = splitKey(key);
  const cached = context.jobs.lister.get(namespace, name);
  if (cached === undefined) {
    context.expectations.delete(key);
    context.finalizers.delete(key);
    context.backoff.delete(key);
    return done;
  }
  if (externalManager(cached) !== undefined) return done;
  if (isJobFinished(cached)) {
    context.backoff.delete(key);
    return done;
  }
  const mode = cached.spec.completionMode ?? "NonIndexed";
  if (mode !== "NonIndexed" && mode !== "Indexed") {
    context.events.event(
      referenceTo(cached, jobsResource),
      "Warning",
      "UnknownCompletionMode",
      "Skipped Job sync because completion mode is unknown",
    );
    return done;
  }
  let selector: LabelSelectorExpr;
  try {
    selector = selectorFromLabelSelector(cached.spec.selector as LabelSelector | undefined);
  } catch (error: unknown) {
    throw terminal(error);
  }
  const now = context.clock.now();
  const job = structuredClone(cached) as Job;
  const status: JobStatus = structuredClone(job.status ?? {});
  status.uncountedTerminatedPods ??= {};
  job.status = status;
  const satisfied = context.expectations.satisfied(key);
  const pods = await claimPods(context, cached, selector);
  const expected = context.finalizers.expected(key);
  const activePods = pods.filter(isPodActive);
  let active = activePods.length;
  let ready = activePods.filter(isPodReady).length;
  let terminating = countTerminating(pods);
  const fresh = newFinishedPods(job, pods, status, expected);
  const uncounted = status.uncountedTerminatedPods;
  let succeeded =
    (status.succeeded ?? 0) + fresh.succeeded.length + (uncounted.succeeded ?? []).length;
  const failed = (status.failed ?? 0) + fresh.failed.length + (uncounted.failed ?? []).length;
  if (status.startTime === undefined && !isSuspended(job)) status.startTime = rfc3339(now);
  const backoff = nextBackoffRecord(context.backoff.get(key), fresh.succeeded, fresh.failed);

  let finished: JobCondition | undefined;
  const criteriaMet = findJobCondition(status.conditions, "SuccessCriteriaMet");
  if (criteriaMet?.status === "True") finished = structuredClone(criteriaMet) as JobCondition;
  const target = findJobCondition(status.conditions, "FailureTarget");
  if (finished === undefined && target?.status === "True") {
    finished = newJobCondition("Failed", "True", target.reason ?? "", target.message ?? "", now);
  }
  let requeue: ReconcileResult = done;
  if (finished === undefined) {
    const deadlineLeft = activeDeadlineRemainingMs(job, now);
    if (failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, pods)) {
      finished = newJobCondition(
        "FailureTarget",
        "True",
        reasons.backoffLimitExceeded,
        messages.backoffLimitExceeded,
        now,
      );
    } else if (deadlineLeft !== undefined && deadlineLeft <= 0) {
      finished = newJobCondition(
        "FailureTarget",
        "True",
        reasons.deadlineExceeded,
        messages.deadlineExceeded,
        now,
      );
    } else if (deadlineLeft !== undefined) {
      requeue = requeueAfter(deadlineLeft);
    }
  }
  let indexes = { prev: [] as Intervals, all: [] as Intervals };
  if (isIndexed(job)) {
    indexes = succeededIndexes(job, pods, expected);
    succeeded = totalOf(indexes.all);
  }

  let manageError: unknown;
  let suspendChanged = false;
  if (finished !== undefined) {
    const result = await deleteActivePods(context, activePods);
    if (result.deleted !== active || !satisfied) finished = undefined;
    active -= result.deleted;
    terminating += result.deleted;
    ready -= result.deletedReady;
    manageError = result.error;
  } else {
    let managed = false;
    if (satisfied && job.metadata.deletionTimestamp === undefined) {
      managed = true;
      try {
        // The Workload and PodGroup come before the first pod, or no pod comes.
        const workloadRef = await ensureSchedulingObjects(context, cached, pods);
        const outcome = await manageJob(context, job, {
          workloadRef,
          key,
          activePods,
          succeeded,
          succeededIndexes: indexes.all,
          terminating,
          ready,
          backoff,
          backoffBaseMs: context.backoffBaseMs,
          backoffMaxMs: context.backoffMaxMs,
          batchPeriodMs: context.batchPeriodMs,
        });
        ({ active, ready, terminating } = outcome);
        if (outcome.retryAfterMs !== undefined) {
          requeue = earliest(requeue, requeueAfter(outcome.retryAfterMs));
        }
      } catch (error: unknown) {
        manageError = error;
      }
    }
    const completions = job.spec.completions;
    const complete =
      completions === undefined
        ? succeeded > 0 && active === 0
        : succeeded >= completions && active === 0;
    if (complete) {
      finished = newJobCondition(
        "SuccessCriteriaMet",
        "True",
        reasons.completionsReached,
        messages.completionsReached,
        now,
      );
    } else if (managed) {
      suspendChanged = updateSuspension(context, job, status, now);
    }
  }
  const needsFlush =
    suspendChanged ||
    active !== (cached.status?.active ?? 0) ||
    ready !== (cached.status?.ready ?? undefined) ||
    terminating !== (cached.status?.terminating ?? undefined);
  status.active = active;
  status.ready = ready;
  status.terminating = terminating;
  await trackAndFinish(
    context,
    key,
    job,
    pods,
    expected,
    finished,
    indexes,
    backoff,
    needsFlush,
    now,
  );
  if (manageError !== undefined) throw manageError;
  return requeue;
}

/** The Suspended condition and its events; resuming restarts the active deadline. */
function updateSuspension(context: JobContext, job: Job, status: JobStatus, now: Date): boolean {
  const involved = referenceTo(job, jobsResource);
  if (isSuspended(job)) {
    const result = ensureJobCondition(
      status.conditions ?? [],
      "Suspended",
      "True",
      "JobSuspended",
      "Job suspended",
      now,
    );
    status.conditions = result.conditions;
    if (result.changed) context.events.event(involved, "Normal", "Suspended", "Job suspended");
    return result.changed;
  }
  const result = ensureJobCondition(
    status.conditions ?? [],
    "Suspended",
    "False",
    "JobResumed",
    "Job resumed",
    now,
  );
  status.conditions = result.conditions;
  if (result.changed) {
    context.events.event(involved, "Normal", "Resumed", "Job resumed");
    status.startTime = rfc3339(now);
  }
  return result.changed;
}

/**
 * `getPodsForJob`: every pod of the namespace the Job owns after adopting and releasing;
 * adopted pods get the tracking finalizer.
 */
async function claimPods(
  context: JobContext,
  job: DeepReadonly<Job>,
  selector: LabelSelectorExpr,
): Promise<P[]> {
  const namespace = job.metadata.namespace ?? "";
  const candidates = context.pods.lister.list(namespace);
  const owned = await claimObjects<Pod>(context.client, {
    controller: job,
    identity: jobIdentity,
    resource: podsResource,
    candidates,
    matches: (pod) => matchesLabels(selector, pod.metadata.labels ?? {}),
    canAdopt: () => recheckNotDeleting(context.client, jobsResource, job),
  });
  const wasOwned = new Set(
    candidates
      .filter((p) => controllerRefOf(p)?.uid === job.metadata.uid)
      .map((p) => p.metadata.uid),
  );
  return Promise.all(
    owned.map(async (pod) => {
      if (wasOwned.has(pod.metadata.uid) || hasTrackingFinalizer(pod)) return pod;
      return (await context.client.patch<Pod>(
        podsResource,
        namespace,
        pod.metadata.name ?? "",
        "strategic",
        { metadata: { finalizers: [jobTrackingFinalizer] } },
      )) as P;
    }),
  );
}

/** Writes the Job status (a compare-and-swap on the cached resourceVersion). */
async function writeStatus(context: JobContext, job: Job): Promise<Job> {
  const status = job.status ?? {};
  for (const field of ["active", "succeeded", "failed"] as const) {
    if (status[field] === 0) delete status[field];
  }
  return context.client.updateStatus<Job>(jobsResource, job);
}

/**
 * `trackJobStatusAndRemoveFinalizers` and `enactJobFinished`: record newly finished pods as
 * uncounted, write, remove their finalizers, move them to the counters, and declare the Job
 * Complete or Failed once nothing is uncounted or terminating.
 */
async function trackAndFinish(
  context: JobContext,
  key: string,
  working: Job,
  pods: readonly P[],
  expected: ReadonlySet<string>,
  finishing: JobCondition | undefined,
  indexes: { prev: Intervals; all: Intervals },
  backoff: ReturnType<typeof nextBackoffRecord>,
  needsFlushAtStart: boolean,
  now: Date,
): Promise<void> {
  let job = working;
  const status = job.status ?? {};
  const plan = planTracking({
    job,
    status,
    pods,
    expectedRemovals: expected,
    finished: finishing,
    prevSucceeded: indexes.prev,
    succeeded: indexes.all,
    needsFlush: needsFlushAtStart,
    now,
  });
  let needsFlush = plan.needsFlush;
  if (needsFlush) {
    job = await writeStatus(context, job);
    context.backoff.set(key, backoff);
    needsFlush = false;
  }
  const withFinalizer = plan.withFinalizer;
  let removeError: unknown;
  if (plan.removeFinalizerFrom.length > 0) {
    context.finalizers.expectRemoved(
      key,
      plan.removeFinalizerFrom.map((p) => p.metadata.uid ?? ""),
    );
    await Promise.all(
      plan.removeFinalizerFrom.map(async (pod) => {
        const uid = pod.metadata.uid ?? "";
        const patch = removeFinalizerPatch(pod);
        if (patch === undefined) return;
        try {
          await context.client.patch(
            podsResource,
            pod.metadata.namespace ?? "",
            pod.metadata.name ?? "",
            "strategic",
            patch,
          );
        } catch (error: unknown) {
          context.finalizers.observed(key, uid);
          if (!isNotFound(error)) {
            removeError ??= error;
            return;
          }
        }
        withFinalizer.delete(uid);
      }),
    );
  }
  const current = job.status ?? {};
  if (cleanUncounted(current, withFinalizer)) needsFlush = true;
  if (removeError !== undefined) {
    if (needsFlush) await writeStatus(context, job);
    throw removeError;
  }
  let finishedNow = false;
  const finished = plan.finished;
  if (!plan.reachedMax && finished !== undefined) {
    const left = current.uncountedTerminatedPods ?? {};
    const pending = (left.succeeded ?? []).length + (left.failed ?? []).length;
    if (pending === 0 && (current.terminating ?? 0) === 0) {
      const result = ensureJobCondition(
        (current.conditions ?? []) as JobCondition[],
        finished.type,
        "True",
        finished.reason ?? "",
        finished.message ?? "",
        now,
      );
      current.conditions = result.conditions;
      if (finished.type === "Complete") {
        current.completionTime =
          findJobCondition(current.conditions, "Complete")?.lastTransitionTime ?? rfc3339(now);
      }
      finishedNow = true;
      needsFlush = true;
    }
  }
  if (!needsFlush) return;
  const written = await writeStatus(context, job);
  if (finishedNow && finished !== undefined) recordFinished(context, written, finished);
}

/** `recordJobFinished`: the events users see when a Job ends. */
function recordFinished(context: JobContext, job: Job, finished: JobCondition): void {
  const involved = referenceTo(job, jobsResource);
  if (finished.type === "Complete") {
    const completions = job.spec.completions;
    if (completions !== undefined && (job.status?.succeeded ?? 0) > completions) {
      context.events.event(
        involved,
        "Warning",
        "TooManySucceededPods",
        "Too many succeeded pods running after completion count reached",
      );
    }
    context.events.event(involved, "Normal", "Completed", "Job completed");
    return;
  }
  context.events.event(involved, "Warning", finished.reason ?? "", finished.message ?? "");
}

/** `syncOrphanPod`: removes the tracking finalizer from a pod no unfinished Job owns. */
async function syncOrphanPod(context: JobContext, podKey: string): Promise<ReconcileResult> {
  const { namespace, name } = splitKey(podKey);
  const pod = context.pods.lister.get(namespace, name);
  if (pod === undefined) return done;
  const ref = controllerRefOf(pod);
  if (ref !== undefined) {
    if (ref.kind !== jobIdentity.kind || ref.apiVersion !== jobIdentity.apiVersion) return done;
    const job = context.jobs.lister.get(namespace, ref.name);
    const owner = job !== undefined && job.metadata.uid === ref.uid ? job : undefined;
    if (owner !== undefined && externalManager(owner) !== undefined) return done;
    if (owner !== undefined && !isJobFinished(owner)) return done;
  }
  const patch = removeFinalizerPatch(pod);
  if (patch === undefined) return done;
  try {
    await context.client.patch(podsResource, namespace, name, "strategic", patch);
  } catch (error: unknown) {
    if (!isNotFound(error)) throw error;
  }
  return done;
}
