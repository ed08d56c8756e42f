/**
 * The Job controller: runs pods to `completions` with at most `parallelism` at once (Indexed
 * Jobs give each an index), retries failures with exponential backoff up to `backoffLimit`,
 * honours `suspend` and `activeDeadlineSeconds`, counts finished pods through the
 * `batch.kubernetes.io/job-tracking` finalizer, and reports SuccessCriteriaMet/Complete or
 * FailureTarget/Failed. A Job that opts in to gang scheduling (`spec.scheduling`, or the
 * `scheduling.gantry.dev/gang` annotation) gets a Workload and a PodGroup before its first pod,
 * and every pod joins that group. Upstream's pkg/controller/job.
 */
import {
  ApiError,
  type Job,
  type LabelSelector,
  matchesLabels,
  type OwnerReference,
  type Pod,
  type PodGroup,
  selectorFromLabelSelector,
  semanticEqual,
  type Workload,
} from "../../api/index.ts";
import {
  jobsResource,
  keyOf,
  podGroupsResource,
  podsResource,
  workloadsResource,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  controllerRefOf,
  defineController,
  Expectations,
  type InformerEvent,
  referenceTo,
  watch,
} from "../framework/index.ts";
import { BackoffStore, defaultPodFailureBackoffMs, maxPodFailureBackoffMs } from "./backoff.ts";
import { FinalizerExpectations } from "./finalizer-expectations.ts";
import {
  activeDeadlineRemainingMs,
  externalManager,
  hasTrackingFinalizer,
  isJobFinished,
} from "./job-state.ts";
import { type JobContext, jobIdentity, orphanPodPrefix, reconcileJob } from "./sync.ts";

export type JobControllerDeps = ControllerDeps;

export interface JobControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-job-syncs). @default 5 */
  readonly workers?: number;
  /** First delay before replacing a failed pod; doubles per failure. @default 10000 */
  readonly podFailureBackoffMs?: number;
  /** Cap of that delay. @default 600000 (upstream's MaxJobPodFailureBackOff, 10 min) */
  readonly maxPodFailureBackoffMs?: number;
  /** Pod events within this window are handled by one sync (syncJobBatchPeriod). @default 1000 */
  readonly batchPeriodMs?: number;
}

export function newJobController(
  deps: JobControllerDeps,
  options: JobControllerOptions = {},
): Controller {
  const jobs = deps.informers.forResource<Job>(jobsResource);
  const pods = deps.informers.forResource<Pod>(podsResource);
  const workloads = deps.informers.forResource<Workload>(workloadsResource);
  const podGroups = deps.informers.forResource<PodGroup>(podGroupsResource);
  const batchPeriodMs = options.batchPeriodMs ?? 1000;
  const context: JobContext = {
    client: deps.client,
    clock: deps.clock,
    events: deps.events,
    expectations: new Expectations(deps.clock),
    jobs,
    pods,
    workloads,
    podGroups,
    finalizers: new FinalizerExpectations(),
    backoff: new BackoffStore(),
    backoffBaseMs: options.podFailureBackoffMs ?? defaultPodFailureBackoffMs,
    backoffMaxMs: options.maxPodFailureBackoffMs ?? maxPodFailureBackoffMs,
    batchPeriodMs,
  };

  const ownerOf = (namespace: string, ref: DeepReadonly<OwnerReference>) => {
    if (ref.kind !== jobIdentity.kind) return undefined;
    const job = jobs.lister.get(namespace, ref.name);
    return job === undefined || job.metadata.uid !== ref.uid ? undefined : job;
  };

  const batched = (job: DeepReadonly<Job>): string[] => {
    controller.enqueueAfter(keyOf(job), batchPeriodMs);
    return [];
  };

  /** `getPodJobs`: Jobs whose selector matches an orphan pod. */
  const selecting = (pod: DeepReadonly<Pod>): string[] =>
    jobs.lister.list(pod.metadata.namespace ?? "").flatMap((job) => {
      try {
        const selector = selectorFromLabelSelector(job.spec.selector as LabelSelector | undefined);
        if (selector.kind === "requirements" && selector.requirements.length === 0) return [];
        if (matchesLabels(selector, pod.metadata.labels ?? {})) batched(job);
        return [];
      } catch (error: unknown) {
        if (error instanceof ApiError) return [];
        throw error;
      }
    });

  const orphan = (pod: DeepReadonly<Pod>): string[] =>
    hasTrackingFinalizer(pod) ? [`${orphanPodPrefix}${keyOf(pod)}`] : [];

  /** `deletePod`: a deletion (final, or a deletionTimestamp) seen for a Job's pod. */
  const deleted = (pod: DeepReadonly<Pod>, final: boolean): string[] => {
    const ref = controllerRefOf(pod);
    if (ref === undefined) return orphan(pod);
    const job = ownerOf(pod.metadata.namespace ?? "", ref);
    if (job === undefined || isJobFinished(job)) return orphan(pod);
    const key = keyOf(job);
    context.expectations.deletionObserved(key, keyOf(pod));
    if (final || !hasTrackingFinalizer(pod))
      context.finalizers.observed(key, pod.metadata.uid ?? "");
    return batched(job);
  };

  const mapPod = (event: InformerEvent<Pod>): readonly string[] => {
    const pod = event.object;
    const namespace = pod.metadata.namespace ?? "";
    switch (event.type) {
      case "delete":
        return deleted(pod, true);
      case "add": {
        if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod, false);
        const ref = controllerRefOf(pod);
        if (ref === undefined) return [...orphan(pod), ...selecting(pod)];
        const job = ownerOf(namespace, ref);
        if (job === undefined) return [];
        context.expectations.creationObserved(keyOf(job));
        return batched(job);
      }
      case "update": {
        const old = event.oldObject;
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
        if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod, false);
        const removed = !hasTrackingFinalizer(pod);
        const ref = controllerRefOf(pod);
        const oldRef = controllerRefOf(old);
        const refChanged = !semanticEqual(ref ?? null, oldRef ?? null);
        const keys: string[] = [];
        const touch = (r: DeepReadonly<OwnerReference>): void => {
          const job = ownerOf(namespace, r);
          if (job === undefined) return;
          if (removed) context.finalizers.observed(keyOf(job), pod.metadata.uid ?? "");
          batched(job);
        };
        if (refChanged && oldRef !== undefined) touch(oldRef);
        if (ref !== undefined) {
          touch(ref);
          return keys;
        }
        keys.push(...orphan(pod));
        const labelsChanged = !semanticEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
        if (labelsChanged || refChanged) keys.push(...selecting(pod));
        return keys;
      }
    }
  };

  /** `cleanupPodFinalizers`: the pods of a finished or deleted Job still holding the finalizer. */
  const finalizerCleanup = (job: DeepReadonly<Job>): string[] =>
    pods.lister
      .list(job.metadata.namespace ?? "")
      .filter((p) => controllerRefOf(p)?.uid === job.metadata.uid && hasTrackingFinalizer(p))
      .map((p) => `${orphanPodPrefix}${keyOf(p)}`);

  /** A Workload or PodGroup event wakes the Job that controls the object. */
  const mapOwned = (
    event: InformerEvent<Workload> | InformerEvent<PodGroup>,
  ): readonly string[] => {
    const object = event.object;
    const ref = controllerRefOf(object);
    if (ref === undefined) return [];
    const job = ownerOf(object.metadata.namespace ?? "", ref);
    return job === undefined ? [] : batched(job);
  };

  const mapJob = (event: InformerEvent<Job>): readonly string[] => {
    const job = event.object;
    const key = keyOf(job);
    switch (event.type) {
      case "add":
        return [key];
      case "delete":
        return [key, ...finalizerCleanup(job)];
      case "update": {
        const old = event.oldObject;
        const keys = old.metadata.generation === job.metadata.generation ? batched(job) : [key];
        if (isJobFinished(job)) keys.push(...finalizerCleanup(job));
        const deadline = job.spec.activeDeadlineSeconds;
        if (
          externalManager(job) === undefined &&
          deadline !== undefined &&
          deadline !== old.spec.activeDeadlineSeconds
        ) {
          const left = activeDeadlineRemainingMs(job, deps.clock.now());
          if (left !== undefined) controller.enqueueAfter(key, Math.max(0, left));
        }
        return keys;
      }
    }
  };

  const controller: Controller = defineController<Job>({
    name: "job",
    primary: jobs,
    primaryToKeys: mapJob,
    secondary: [watch(pods, mapPod), watch(workloads, mapOwned), watch(podGroups, mapOwned)],
    reconcile: (key) => reconcileJob(context, key),
    onTerminal: (key, error) => {
      const job = jobs.indexer.get(key);
      if (job !== undefined) {
        deps.events.event(referenceTo(job, jobsResource), "Warning", "FailedSync", error.message);
      }
    },
    workers: options.workers ?? 5,
    clock: deps.clock,
    logger: deps.logger,
  });
  return controller;
}
