/**
 * Pure decisions over the pods of a Kueue pod group (pkg/controller/jobs/pod/pod_controller.go):
 * which pods are active, the order excess and replaced pods are picked in, the PodSets a group
 * builds, whether pods still match their Workload, when the group is finished, and which pods
 * are reclaimable. The reconciler (group-reconciler.ts) turns these into writes.
 */
import {
  admissionGate,
  isWorkloadFinished,
  type KueueWorkload,
  managedFinalizer,
  type Pod,
  type PodSet,
  type PodSpec,
  podGroupFastAdmissionAnnotation,
  podGroupServingAnnotation,
  podGroupSetsAnnotation,
  type ReclaimablePod,
  retriableInGroupAnnotation,
  roleHashAnnotation,
} from "../../api/index.ts";
import { type DeepReadonly, deepCopy } from "../../util/index.ts";
import { parsePodGroupSets, totalOfSets } from "./pod-group-sets.ts";
import { groupTotalCount } from "./pod-webhook.ts";
import { roleHash } from "./role-hash.ts";

type P = DeepReadonly<Pod>;
type W = DeepReadonly<KueueWorkload>;

/** Kueue's `errMsgIncorrectGroupRoleCount` (v1beta1: 8 PodSets). */
export const tooManyRolesMessage = "pod group can't include more than 8 roles";

/** The PodSet a pod of a group belongs to: the role-hash annotation, else the hash itself. */
export function roleOf(pod: P): string {
  return pod.metadata.annotations?.[roleHashAnnotation] ?? roleHash(pod.spec);
}

export function isGatedPod(pod: P): boolean {
  return (pod.spec.schedulingGates ?? []).some((g) => g.name === admissionGate);
}

export function isTerminatedPod(pod: P): boolean {
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

/** Gated or terminated: Kueue's `podSuspended`. */
export function isSuspendedGroupPod(pod: P): boolean {
  return isTerminatedPod(pod) || isGatedPod(pod);
}

/** Can still run, runs, or succeeded: not Failed, and not deleted before reaching a node. */
export function isRunnableOrSucceeded(pod: P): boolean {
  if (pod.metadata.deletionTimestamp !== undefined && (pod.spec.nodeName ?? "") === "") {
    return false;
  }
  return pod.status?.phase !== "Failed";
}

const hasFinalizer = (pod: P): boolean =>
  (pod.metadata.finalizers ?? []).includes(managedFinalizer);
const created = (pod: P): number => Date.parse(pod.metadata.creationTimestamp ?? "") || 0;
const byName = (a: P, b: P): number => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");

/** Kept first: pods with the finalizer, then ungated ones, then the oldest. The tail is excess. */
export function sortActivePods(pods: readonly P[]): P[] {
  return [...pods].sort((a, b) => {
    if (hasFinalizer(a) !== hasFinalizer(b)) return hasFinalizer(a) ? -1 : 1;
    if (isGatedPod(a) !== isGatedPod(b)) return isGatedPod(a) ? 1 : -1;
    return created(a) - created(b) || byName(a, b);
  });
}

/**
 * When the pod was last active: the earlier of its Failed transition (ContainersReady False,
 * reason PodFailed) and its deletion; `now` for either that has not happened.
 */
export function lastActiveTime(pod: P, now: Date): number {
  let failed = now.getTime();
  const ready = pod.status?.conditions?.find((c) => c.type === "ContainersReady");
  if (ready?.status === "False" && ready.reason === "PodFailed") {
    failed = Date.parse(ready.lastTransitionTime ?? "") || failed;
  }
  const deleted = Date.parse(pod.metadata.deletionTimestamp ?? "") || now.getTime();
  return Math.min(failed, deleted);
}

/**
 * Kept first: pods with the finalizer, then the most recently active, then the oldest. The tail
 * (pods already finalized, then the ones that failed first) is what replacements cover.
 */
export function sortInactivePods(pods: readonly P[], now: Date): P[] {
  return [...pods].sort((a, b) => {
    if (hasFinalizer(a) !== hasFinalizer(b)) return hasFinalizer(a) ? -1 : 1;
    const la = lastActiveTime(a, now);
    const lb = lastActiveTime(b, now);
    if (la !== lb) return lb - la;
    return created(a) - created(b) || byName(a, b);
  });
}

/** Fast admission: the annotation's presence (Kueue v0.14). */
export const isFastAdmission = (pod: P): boolean =>
  pod.metadata.annotations?.[podGroupFastAdmissionAnnotation] !== undefined;

/** Serving groups never finish and never report reclaimable pods. */
export const isServing = (pod: P): boolean =>
  pod.metadata.annotations?.[podGroupServingAnnotation] === "true";

/** The driver of a driver-creates-workers group (story 3), if any pod of the group is one. */
export function driverOf(pods: readonly P[]): P | undefined {
  return pods.find((p) => p.metadata.annotations?.[podGroupSetsAnnotation] !== undefined);
}

/**
 * The group's declared size: the sum of the driver's pod sets for a story-3 group, else the
 * total-count annotation of `pod`. A string is the error Kueue reports.
 */
export function totalCountOf(pod: P, driver: P | undefined): number | string {
  const sets = driver?.metadata.annotations?.[podGroupSetsAnnotation];
  if (sets !== undefined) {
    const parsed = parsePodGroupSets(sets);
    if (parsed.kind === "ok") return totalOfSets(parsed.sets);
    return `invalid '${podGroupSetsAnnotation}' annotation on the driver`;
  }
  return groupTotalCount(pod);
}

/**
 * One PodSet per role among the runnable-or-succeeded pods, named by the role, counting its
 * pods, with the first such pod's spec as template, sorted by name. With `fastTotal`, a single
 * PodSet of that many pods from the first runnable pod.
 */
export function constructGroupPodSets(pods: readonly P[], fastTotal?: number): PodSet[] {
  const runnable = pods.filter(isRunnableOrSucceeded);
  if (fastTotal !== undefined) {
    const first = runnable[0];
    if (first === undefined) return [];
    return [
      {
        name: roleOf(first),
        count: fastTotal,
        template: { spec: deepCopy(first.spec) as PodSpec },
      },
    ];
  }
  const sets = new Map<string, PodSet>();
  for (const pod of runnable) {
    const role = roleOf(pod);
    const set = sets.get(role);
    if (set !== undefined) set.count++;
    else
      sets.set(role, {
        name: role,
        count: 1,
        template: { spec: deepCopy(pod.spec) as PodSpec },
      });
  }
  return [...sets.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Kueue's `equivalentToWorkload`: every PodSet the pods make exists in the Workload, in the same
 * order, with no more pods than it declares (counts are not compared once it is Finished).
 */
export function equivalentToWorkload(workload: W, podSets: readonly PodSet[]): boolean {
  const finished = isWorkloadFinished(workload);
  const declared = workload.spec.podSets;
  if (!finished && declared.length < podSets.length) return false;
  let j = -1;
  for (const set of podSets) {
    for (j++; j < declared.length; j++) if (declared[j]?.name === set.name) break;
    const match = declared[j];
    if (match === undefined) return false;
    if (!finished && match.count < set.count) return false;
  }
  return true;
}

/** How the group's pods line up against its Workload (Kueue's `FindMatchingWorkloads`). */
export interface GroupMatch {
  /** False: the Workload no longer describes the pods and must be replaced. */
  readonly equivalent: boolean;
  /** The pods that make up the group now. */
  readonly kept: readonly P[];
  /** Active pods beyond their PodSet's count, youngest per role: finalized and deleted. */
  readonly excess: readonly P[];
  /** Failed or lost pods that replacements now cover: finalized. */
  readonly replaced: readonly P[];
  /** Pods of a role the Workload does not declare (driver groups only): deleted. */
  readonly unknownRole: readonly P[];
  /** Declared pods not observed (WaitingForReplacementPods). */
  readonly absent: number;
}

/**
 * Per PodSet of the Workload: active pods beyond the count are excess (youngest first, gated
 * before ungated, unfinalized before finalized); as many inactive pods as replacements cover
 * are replaced (first-failed first). `driverGroup`: pods of unknown roles are rejected and
 * missing workers are not "absent" (the driver has yet to create them).
 */
export function matchGroup(
  workload: W,
  pods: readonly P[],
  now: Date,
  driverGroup: boolean,
): GroupMatch {
  const active = pods.filter(isRunnableOrSucceeded);
  const inactive = pods.filter((p) => !isRunnableOrSucceeded(p));
  const kept: P[] = [];
  const excess: P[] = [];
  const replaced: P[] = [];
  let absent = 0;
  const roles = new Set<string>();
  for (const set of workload.spec.podSets) {
    roles.add(set.name);
    const roleActive = sortActivePods(active.filter((p) => roleOf(p) === set.name));
    const roleInactive = inactive.filter((p) => roleOf(p) === set.name);
    absent += Math.max(0, set.count - roleActive.length);
    const over = roleActive.length - set.count;
    kept.push(...roleActive.slice(0, roleActive.length - Math.max(0, over)));
    if (over > 0) excess.push(...roleActive.slice(roleActive.length - over));
    const covered = Math.min(
      roleInactive.length,
      roleInactive.length + roleActive.length - set.count,
    );
    if (covered > 0) {
      const sorted = sortInactivePods(roleInactive, now);
      kept.push(...sorted.slice(0, sorted.length - covered));
      replaced.push(...sorted.slice(sorted.length - covered));
    } else {
      kept.push(...roleInactive);
    }
  }
  const unknownRole = driverGroup ? active.filter((p) => !roles.has(roleOf(p))) : [];
  const equivalent = kept.length > 0 && equivalentToWorkload(workload, constructGroupPodSets(kept));
  return { equivalent, kept, excess, replaced, unknownRole, absent: driverGroup ? 0 : absent };
}

/**
 * Kueue's `Finished` for a group: every declared pod succeeded, or no pod is left running and
 * one is marked `retriable-in-group: "false"`; for a driver group also once the driver and every
 * worker it made have terminated. Serving groups never finish.
 */
export function groupFinished(
  pods: readonly P[],
  total: number,
  driver: P | undefined,
): { readonly finished: boolean; readonly success: boolean; readonly message: string } {
  const first = pods[0];
  if (first !== undefined && isServing(first)) {
    return { finished: false, success: true, message: "" };
  }
  const succeeded = pods.filter((p) => p.status?.phase === "Succeeded").length;
  const running = pods.some((p) => !isTerminatedPod(p));
  const unretriable = pods.some(
    (p) => p.metadata.annotations?.[retriableInGroupAnnotation] === "false",
  );
  const driverDone = driver !== undefined && isTerminatedPod(driver) && !running;
  const finished = succeeded === total || (!running && unretriable) || driverDone;
  // Kueue reports Succeeded even when an unretriable pod failed; a driver group follows its driver.
  const success = !(driverDone && driver?.status?.phase === "Failed" && succeeded !== total);
  return { finished, success, message: finished ? `Pods succeeded: ${succeeded}/${total}.` : "" };
}

/** Succeeded pods per role, in the order the roles first appear (non-serving groups). */
export function reclaimablePodsOf(pods: readonly P[]): ReclaimablePod[] {
  const first = pods[0];
  if (first !== undefined && isServing(first)) return [];
  const counts = new Map<string, number>();
  for (const pod of pods) {
    if (pod.status?.phase !== "Succeeded") continue;
    const role = roleOf(pod);
    counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => ({ name, count }));
}
