/**
 * Keeping the right number of Job pods running (upstream's `manageJob`): delete the excess
 * (all of them while suspended), or create missing ones after the pod-failure backoff, in
 * slow-start batches, with the completion indexes still pending for Indexed Jobs.
 */
import { isPodReady, type Job, type Pod, type WorkloadReference } from "../../api/index.ts";
import {
  type Client,
  isNamespaceTerminating,
  isNotFound,
  jobsResource,
  keyOf,
  podsResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage } from "../../util/index.ts";
import {
  type EventRecorder,
  type Expectations,
  newControllerRef,
  podsToDelete,
  referenceTo,
} from "../framework/index.ts";
import { type BackoffRecord, remainingBackoffMs } from "./backoff.ts";
import { duplicatedIndexPods, firstPendingIndexes, type Intervals } from "./indexes.ts";
import { newJobPod, removeFinalizerPatch } from "./job-pods.ts";
import { isIndexed, isSuspended, onlyReplaceFailedPods } from "./job-state.ts";

/** Upstream's `MaxPodCreateDeletePerSync`. */
export const maxPodWritesPerSync = 500;

type J = DeepReadonly<Job>;
type P = DeepReadonly<Pod>;

export interface JobWrites {
  readonly client: Client;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly expectations: Expectations;
}

/**
 * How many pods should be active: parallelism, but never more than the completions left; for a
 * Job without completions, parallelism until the first success, then whatever still runs.
 */
export function wantActive(job: J, active: number, succeeded: number): number {
  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  if (completions === undefined) return succeeded > 0 ? active : parallelism;
  return Math.max(0, Math.min(completions - succeeded, parallelism));
}

/**
 * `activePodsForRemoval`: for Indexed Jobs pods with invalid or duplicate indexes first; then,
 * to reach `atLeast`, the pods least far along (upstream's ActivePods order).
 */
export function activePodsForRemoval(
  job: J,
  active: readonly P[],
  atLeast: number,
  now: Date,
): P[] {
  let remove: P[] = [];
  let left: P[] = [...active];
  if (isIndexed(job)) {
    const split = duplicatedIndexPods(active, job.spec.completions ?? 0, (group) =>
      podsToDelete(group, [], group.length - 1, now),
    );
    remove = split.remove;
    left = split.left;
  }
  if (remove.length < atLeast) {
    remove = [...remove, ...podsToDelete(left, [], atLeast - remove.length, now)];
  }
  return remove;
}

/** What manageJob changed, for the status. */
export interface ManageOutcome {
  active: number;
  ready: number;
  terminating: number;
  /** Sync again after this long (the pod-failure backoff). */
  retryAfterMs?: number;
}

/** The inputs manageJob reads. */
export interface ManageState {
  readonly key: string;
  readonly activePods: readonly P[];
  readonly succeeded: number;
  readonly succeededIndexes: Intervals;
  readonly terminating: number;
  readonly ready: number;
  readonly backoff: BackoffRecord;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly batchPeriodMs: number;
  /** The group new pods join (`spec.workloadRef`); undefined for pods without one. */
  readonly workloadRef?: WorkloadReference | undefined;
}

/** `manageJob`. Throws (after trying every write) when a create or delete failed. */
export async function manageJob(
  writes: JobWrites,
  job: J,
  state: ManageState,
): Promise<ManageOutcome> {
  const now = writes.clock.now();
  const outcome: ManageOutcome = {
    active: state.activePods.length,
    ready: state.ready,
    terminating: state.terminating,
  };
  if (isSuspended(job)) {
    const victims = activePodsForRemoval(job, state.activePods, state.activePods.length, now);
    await deleteJobPods(writes, job, state.key, victims, outcome);
    return outcome;
  }
  const want = wantActive(job, outcome.active, state.succeeded);
  const excess = Math.max(0, outcome.active - want);
  const victims = activePodsForRemoval(job, state.activePods, excess, now).slice(
    0,
    maxPodWritesPerSync,
  );
  if (victims.length > 0) {
    await deleteJobPods(writes, job, state.key, victims, outcome);
    return outcome;
  }
  const blocked = onlyReplaceFailedPods(job) ? state.terminating : 0;
  let diff = want - blocked - outcome.active;
  if (diff <= 0) return outcome;
  const wait = remainingBackoffMs(
    state.backoff,
    now.getTime(),
    state.backoffBaseMs,
    state.backoffMaxMs,
  );
  if (wait > 0) {
    outcome.retryAfterMs = Math.max(wait, state.batchPeriodMs);
    return outcome;
  }
  diff = Math.min(diff, maxPodWritesPerSync);
  let indexes: (number | undefined)[] = Array.from({ length: diff }, () => undefined);
  if (isIndexed(job)) {
    indexes = firstPendingIndexes(
      state.activePods,
      state.succeededIndexes,
      diff,
      job.spec.completions ?? 0,
    );
  }
  await createJobPods(writes, job, state.key, indexes, outcome, state.workloadRef);
  return outcome;
}

/** Creates one pod per entry of `indexes` in slow-start batches (1, 2, 4, …). */
async function createJobPods(
  writes: JobWrites,
  job: J,
  key: string,
  indexes: readonly (number | undefined)[],
  outcome: ManageOutcome,
  workloadRef: WorkloadReference | undefined,
): Promise<void> {
  const involved = referenceTo(job, jobsResource);
  const ref = newControllerRef(job, { apiVersion: "batch/v1", kind: "Job" });
  writes.expectations.expectCreations(key, indexes.length);
  outcome.active += indexes.length;
  const errors: unknown[] = [];
  let next = 0;
  for (let batch = Math.min(1, indexes.length); batch > 0; ) {
    const slice = indexes.slice(next, next + batch);
    next += slice.length;
    const results = await Promise.allSettled(
      slice.map(async (index) => {
        try {
          const created = await writes.client.create<Pod>(
            podsResource,
            newJobPod(job, ref, index, workloadRef),
          );
          writes.events.event(
            involved,
            "Normal",
            "SuccessfulCreate",
            `Created pod: ${created.metadata.name ?? ""}`,
          );
        } catch (error: unknown) {
          if (isNamespaceTerminating(error)) return;
          writes.expectations.creationObserved(key);
          outcome.active--;
          writes.events.event(
            involved,
            "Warning",
            "FailedCreate",
            `Error creating: ${errorMessage(error)}`,
          );
          throw error;
        }
      }),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed.length > 0) {
      errors.push(...failed.map((r) => r.reason));
      const skipped = indexes.length - next;
      outcome.active -= skipped;
      for (let i = 0; i < skipped; i++) writes.expectations.creationObserved(key);
      break;
    }
    batch = Math.min(2 * batch, indexes.length - next);
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * `deleteJobPods`: removes the tracking finalizer, then deletes, expecting the deletions.
 * Counts the removed (and removed Ready) pods into `outcome`.
 */
async function deleteJobPods(
  writes: JobWrites,
  job: J,
  key: string,
  pods: readonly P[],
  outcome: ManageOutcome,
): Promise<void> {
  if (pods.length === 0) return;
  const involved = referenceTo(job, jobsResource);
  writes.expectations.expectDeletions(key, pods.map(keyOf));
  const results = await Promise.allSettled(
    pods.map(async (pod) => {
      const name = pod.metadata.name ?? "";
      const namespace = pod.metadata.namespace ?? "";
      try {
        const patch = removeFinalizerPatch(pod);
        if (patch !== undefined) {
          await writes.client.patch(podsResource, namespace, name, "strategic", patch);
        }
        await writes.client.delete(podsResource, namespace, name);
        writes.events.event(involved, "Normal", "SuccessfulDelete", `Deleted pod: ${name}`);
      } catch (error: unknown) {
        writes.expectations.deletionObserved(key, keyOf(pod));
        if (!isNotFound(error)) {
          writes.events.event(
            involved,
            "Warning",
            "FailedDelete",
            `Error deleting: ${errorMessage(error)}`,
          );
          throw error;
        }
      }
      outcome.active--;
      outcome.terminating++;
      if (isPodReady(pod)) outcome.ready--;
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/**
 * `deleteActivePods` of a finishing Job: deletes every active pod, keeping finalizers (the
 * tracking step removes them). Returns how many (and how many Ready) went.
 */
export async function deleteActivePods(
  writes: JobWrites,
  pods: readonly P[],
): Promise<{ deleted: number; deletedReady: number; error?: unknown }> {
  let deleted = 0;
  let deletedReady = 0;
  let error: unknown;
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await writes.client.delete(
          podsResource,
          pod.metadata.namespace ?? "",
          pod.metadata.name ?? "",
        );
      } catch (e: unknown) {
        if (!isNotFound(e)) {
          error ??= e;
          return;
        }
      }
      deleted++;
      if (isPodReady(pod)) deletedReady++;
    }),
  );
  return error === undefined ? { deleted, deletedReady } : { deleted, deletedReady, error };
}
