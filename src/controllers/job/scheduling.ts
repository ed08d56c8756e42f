/**
 * A Job's gang-scheduling objects (KEP-5547, as the Kubernetes 1.37 Job controller compiles
 * them): whether the controller manages them, with which policy, what they are named and what
 * they contain. Pure.
 */
import {
  gangSchedulingAnnotation,
  type Job,
  type OwnerReference,
  type Pod,
  type PodGroup,
  type PodGroupPolicy,
  type Workload,
  type WorkloadReference,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { controllerRefOf, newControllerRef, shortHash } from "../framework/index.ts";

const jobIdentity = { apiVersion: "batch/v1", kind: "Job" } as const;
const workloadApiVersion = "scheduling.k8s.io/v1alpha1";
/** `validation.DNS1123SubdomainMaxLength` and `DNS1123LabelMaxLength`. */
const maxSubdomain = 253;
const maxLabel = 63;

type J = DeepReadonly<Job>;

/**
 * What the Job controller does about a Job's scheduling objects:
 * - `manage`: create (when the Job has not started) or reuse a Workload and a PodGroup with
 *   `policy`, and stamp the Job's pods with them;
 * - `skip`: nothing, because the Job did not ask (`NotRequested`), its pod template already names
 *   a group the user manages (`UserManaged`), or another controller owns the Job and therefore
 *   its Workload (`ParentManaged`; a CronJob's Jobs stay standalone, as upstream).
 */
export type JobSchedulingDecision =
  | { readonly action: "manage"; readonly policy: PodGroupPolicy }
  | { readonly action: "skip"; readonly reason: "NotRequested" | "UserManaged" | "ParentManaged" };

/** A gang's `minCount` defaults to `parallelism`, clamped to at least 1 (a suspended Job may have 0). */
function defaultMinCount(job: J): number {
  return Math.max(1, job.spec.parallelism ?? 1);
}

/**
 * `shouldManageWorkloadForJob` plus the policy `workloadbuilder` compiles: `spec.scheduling`
 * wins (an unset policy is basic; a gang without `minCount` takes `parallelism`); without it,
 * `scheduling.gantry.dev/gang: "true"` asks for a gang of `parallelism`. A Job with neither gets
 * no objects (upstream 1.37 would give it a basic Workload: gantry only builds them on request).
 */
export function decideJobScheduling(job: J): JobSchedulingDecision {
  if (job.spec.template.spec?.workloadRef !== undefined) {
    return { action: "skip", reason: "UserManaged" };
  }
  const parent = controllerRefOf(job);
  if (parent !== undefined && !(parent.apiVersion === "batch/v1" && parent.kind === "CronJob")) {
    return { action: "skip", reason: "ParentManaged" };
  }
  const scheduling = job.spec.scheduling;
  if (scheduling !== undefined) {
    const gang = scheduling.schedulingPolicy?.gang;
    if (gang === undefined) return { action: "manage", policy: { basic: {} } };
    return {
      action: "manage",
      policy: { gang: { minCount: gang.minCount ?? defaultMinCount(job) } },
    };
  }
  if (job.metadata.annotations?.[gangSchedulingAnnotation] === "true") {
    return { action: "manage", policy: { gang: { minCount: defaultMinCount(job) } } };
  }
  return { action: "skip", reason: "NotRequested" };
}

/**
 * Whether the controller may still create the objects (upstream's `isNewJob`, minus the
 * heuristics for Jobs that predate the feature): no pod of the Job exists and none has been
 * counted. A Job that has started only reuses what it finds, so its pods never change group.
 */
export function canCreateSchedulingObjects(job: J, pods: readonly unknown[]): boolean {
  return pods.length === 0 && (job.status?.succeeded ?? 0) === 0 && (job.status?.failed ?? 0) === 0;
}

/** The first `max` characters of `name`, without trailing `-` or `.` (they cannot precede `-`). */
function truncate(name: string, max: number): string {
  return name.length <= max ? name : name.slice(0, max).replace(/[-.]+$/, "");
}

/**
 * `computeWorkloadName`: `<job-name>-<hash>`, the hash being FNV-1a of the Job's uid as
 * `hashutil.DeepHashObject` prints it (`(types.UID)<uid>`), so it matches a real cluster's name
 * and a Job recreated under the same name gets a new Workload.
 */
export function workloadName(job: J): string {
  const hash = shortHash(`(types.UID)${job.metadata.uid ?? ""}`);
  return `${truncate(job.metadata.name ?? "", maxSubdomain - hash.length - 1)}-${hash}`;
}

/**
 * `podGroupTemplateName`: `<job-name>-pgt-0`. Upstream does not shorten it; gantry cuts the Job
 * name so the template stays a valid DNS label for Job names over 57 characters.
 */
export function podGroupTemplateName(job: J): string {
  const suffix = "-pgt-0";
  return `${truncate(job.metadata.name ?? "", maxLabel - suffix.length)}${suffix}`;
}

/**
 * `computePodGroupName`: `<workload>-<template>-<hash>` with the hash FNV-1a of both names; when
 * too long, each part keeps up to half the room and a short part lends the rest to the other.
 */
export function podGroupName(workload: string, template: string): string {
  const hash = shortHash(`${workload}${template}`);
  const room = maxSubdomain - hash.length - 2;
  let wl = workload;
  let tpl = template;
  if (wl.length + tpl.length > room) {
    const half = Math.floor(room / 2);
    if (wl.length <= half) tpl = tpl.slice(0, room - wl.length);
    else if (tpl.length <= half) wl = wl.slice(0, room - tpl.length);
    else {
      wl = wl.slice(0, room - half);
      tpl = tpl.slice(0, half);
    }
  }
  return `${wl}-${tpl}-${hash}`;
}

/**
 * The Workload the controller creates for `job`: controlled by the Job, `spec.controllerRef`
 * naming it, and one template with `policy`.
 */
export function desiredWorkload(job: J, policy: PodGroupPolicy): Workload {
  return {
    apiVersion: workloadApiVersion,
    kind: "Workload",
    metadata: {
      name: workloadName(job),
      namespace: job.metadata.namespace ?? "",
      ownerReferences: [newControllerRef(job, jobIdentity)],
    },
    spec: {
      controllerRef: { apiGroup: "batch", kind: "Job", name: job.metadata.name ?? "" },
      podGroupTemplates: [{ name: podGroupTemplateName(job), policy: structuredClone(policy) }],
    },
  };
}

/**
 * The PodGroup instantiating `workload`'s single template: controlled by the Job, and owned
 * (not controlled) by the Workload as well, as upstream's `createPodGroup` for a root Job.
 * Undefined when the Workload does not have exactly one template (an unsupported shape).
 */
export function desiredPodGroup(job: J, workload: DeepReadonly<Workload>): PodGroup | undefined {
  const templates = workload.spec.podGroupTemplates ?? [];
  const template = templates[0];
  if (templates.length !== 1 || template === undefined) return undefined;
  const name = workload.metadata.name ?? "";
  const workloadOwner: OwnerReference = {
    apiVersion: workloadApiVersion,
    kind: "Workload",
    name,
    uid: workload.metadata.uid ?? "",
  };
  return {
    apiVersion: workloadApiVersion,
    kind: "PodGroup",
    metadata: {
      name: podGroupName(name, template.name),
      namespace: job.metadata.namespace ?? "",
      ownerReferences: [newControllerRef(job, jobIdentity), workloadOwner],
    },
    spec: { workloadRef: { name }, podGroupTemplateName: template.name },
  };
}

/** What the Job's pods carry: `spec.workloadRef` naming the Workload and the PodGroup. */
export function podWorkloadRef(podGroup: DeepReadonly<PodGroup>): WorkloadReference {
  return { name: podGroup.spec.workloadRef.name, podGroupName: podGroup.metadata.name ?? "" };
}

/**
 * The group an existing pod of the Job was stamped with, if any: the truth while the informers
 * have not yet caught up with objects created a moment ago.
 */
export function workloadRefFromPods(
  pods: readonly DeepReadonly<Pod>[],
): WorkloadReference | undefined {
  for (const pod of pods) {
    const ref = pod.spec?.workloadRef;
    if (ref?.podGroupName !== undefined) return { name: ref.name, podGroupName: ref.podGroupName };
  }
  return undefined;
}
