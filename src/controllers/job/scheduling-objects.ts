/**
 * Finding or creating a Job's Workload and PodGroup before its pods (upstream's
 * `ensureWorkloadAndPodGroup`). Objects are found by their controller reference to the Job,
 * never by name; they are created only while the Job has no pods; and they are never changed or
 * deleted here: the garbage collector removes them with the Job.
 */
import type { Job, Pod, PodGroup, Workload, WorkloadReference } from "../../api/index.ts";
import {
  type Client,
  isAlreadyExists,
  isNamespaceTerminating,
  jobsResource,
  podGroupsResource,
  type SharedInformer,
  workloadsResource,
} from "../../client/index.ts";
import { type DeepReadonly, errorMessage } from "../../util/index.ts";
import { type EventRecorder, isControlledBy, referenceTo } from "../framework/index.ts";
import {
  canCreateSchedulingObjects,
  decideJobScheduling,
  desiredPodGroup,
  desiredWorkload,
  podWorkloadRef,
  workloadRefFromPods,
} from "./scheduling.ts";

export interface SchedulingObjectsContext {
  readonly client: Client;
  readonly events: EventRecorder;
  readonly workloads: SharedInformer<Workload>;
  readonly podGroups: SharedInformer<PodGroup>;
}

type J = DeepReadonly<Job>;

/**
 * The `spec.workloadRef` the Job's new pods get, or undefined for pods without a group (the Job
 * did not opt in, manages its group itself, started before its objects existed, or its objects
 * are ambiguous). Idempotent. Throws when a create fails, so that no pod precedes its group.
 */
export async function ensureSchedulingObjects(
  context: SchedulingObjectsContext,
  job: J,
  pods: readonly DeepReadonly<Pod>[],
): Promise<WorkloadReference | undefined> {
  const decision = decideJobScheduling(job);
  if (decision.action === "skip") return undefined;
  const namespace = job.metadata.namespace ?? "";
  const involved = referenceTo(job, jobsResource);
  const canCreate = canCreateSchedulingObjects(job, pods);

  const workloads = context.workloads.lister
    .list(namespace)
    .filter((w) => isControlledBy(w, job) && w.metadata.deletionTimestamp === undefined);
  if (workloads.length > 1) {
    context.events.event(
      involved,
      "Warning",
      "AmbiguousWorkload",
      `Found ${workloads.length} Workloads referencing Job ${job.metadata.name ?? ""}, falling back to normal scheduling for job ${namespace}/${job.metadata.name ?? ""}`,
    );
    return undefined;
  }
  let workload: DeepReadonly<Workload> | undefined = workloads[0];
  if (workload === undefined) {
    // Created a moment ago and not yet in the cache: the pods say which group.
    const fromPods = workloadRefFromPods(pods);
    if (fromPods !== undefined || !canCreate) return fromPods;
    workload = await createWorkload(context, job, desiredWorkload(job, decision.policy));
    if (workload === undefined) return undefined;
  }

  const name = workload.metadata.name ?? "";
  const groups = context.podGroups.lister
    .list(namespace)
    .filter(
      (g) =>
        isControlledBy(g, job) &&
        g.spec.workloadRef?.name === name &&
        g.metadata.deletionTimestamp === undefined,
    );
  if (groups.length > 1) {
    context.events.event(
      referenceTo(workload, workloadsResource),
      "Warning",
      "AmbiguousPodGroup",
      `Found ${groups.length} PodGroups referencing Workload ${name}, falling back to normal scheduling for job ${namespace}/${job.metadata.name ?? ""}`,
    );
    return undefined;
  }
  const group = groups[0];
  if (group !== undefined) return podWorkloadRef(group);
  const fromPods = workloadRefFromPods(pods);
  if (fromPods !== undefined || !canCreate) return fromPods;
  const desired = desiredPodGroup(job, workload);
  if (desired === undefined) return undefined;
  const created = await createPodGroup(context, job, desired);
  return created === undefined ? undefined : podWorkloadRef(created);
}

/**
 * Creates the Job's Workload. When the name is taken (the cache is behind), the stored object is
 * used if the Job controls it. Undefined when the namespace is being deleted.
 */
async function createWorkload(
  context: SchedulingObjectsContext,
  job: J,
  desired: Workload,
): Promise<DeepReadonly<Workload> | undefined> {
  const involved = referenceTo(job, jobsResource);
  const jobName = job.metadata.name ?? "";
  try {
    const created = await context.client.create<Workload>(workloadsResource, desired);
    context.events.event(
      involved,
      "Normal",
      "WorkloadCreated",
      `Created Workload ${created.metadata.name ?? ""} for Job ${jobName}`,
    );
    return created;
  } catch (error: unknown) {
    if (isNamespaceTerminating(error)) return undefined;
    if (isAlreadyExists(error)) {
      const stored = await context.client.get<Workload>(
        workloadsResource,
        desired.metadata.namespace ?? "",
        desired.metadata.name ?? "",
      );
      if (isControlledBy(stored, job)) return stored;
    }
    context.events.event(
      involved,
      "Warning",
      "FailedWorkloadCreate",
      `Failed to create Workload for Job ${jobName}: ${errorMessage(error)}`,
    );
    throw error;
  }
}

/** Creates the Job's PodGroup, reusing a stored one the Job controls when the name is taken. */
async function createPodGroup(
  context: SchedulingObjectsContext,
  job: J,
  desired: PodGroup,
): Promise<DeepReadonly<PodGroup> | undefined> {
  try {
    const created = await context.client.create<PodGroup>(podGroupsResource, desired);
    context.events.event(
      referenceTo(job, jobsResource),
      "Normal",
      "PodGroupCreated",
      `Created PodGroup ${created.metadata.name ?? ""} for Job ${job.metadata.name ?? ""}`,
    );
    return created;
  } catch (error: unknown) {
    if (isNamespaceTerminating(error)) return undefined;
    if (!isAlreadyExists(error)) throw error;
    const stored = await context.client.get<PodGroup>(
      podGroupsResource,
      desired.metadata.namespace ?? "",
      desired.metadata.name ?? "",
    );
    if (isControlledBy(stored, job)) return stored;
    throw error;
  }
}
