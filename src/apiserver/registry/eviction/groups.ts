/**
 * The group-scoped eviction decision (gantry, after the KEP-5682 draft): an eviction is judged
 * by what it does to the pod's group. Keeping the group at or above its minCount costs no
 * budget; breaking a healthy group costs one unit; a pod of an already unhealthy group follows
 * the unhealthy-pod policy. Pure: the caller reads the snapshot.
 */
import {
  ApiError,
  countPodGroups,
  isPodHealthyForGroup,
  type LabelSelector,
  matchesLabels,
  type Pod,
  type PodDisruptionBudget,
  type PodGroupSource,
  podGroupMembership,
  selectorFromLabelSelector,
} from "../../../api/index.ts";

/** What a group-scoped decision reads: the namespace's pods and group objects. */
export interface GroupSnapshot {
  readonly pods: readonly Pod[];
  readonly source: PodGroupSource;
}

export type GroupDecision =
  /** No selected pod belongs to a group: decide per pod, as the controller falls back. */
  | { readonly kind: "perPod" }
  /** The pod's PodGroup, Workload or template is missing: deny (fail safe). */
  | { readonly kind: "missing"; readonly message: string }
  /** The group stays at or above minCount (or the pod does not count toward it). */
  | { readonly kind: "free" }
  /** The group is already broken and the policy lets the pod go without budget. */
  | { readonly kind: "unhealthy" }
  /** The eviction breaks a healthy group, or the policy requires budget: spend one unit. */
  | { readonly kind: "spend" };

/** How long an entry of `disruptedPods` counts (the controller's DeletionTimeout). */
const deletionTimeoutMs = 2 * 60 * 1000;

function selected(selector: LabelSelector | undefined, pods: readonly Pod[]): Pod[] {
  let expr: ReturnType<typeof selectorFromLabelSelector>;
  try {
    expr = selectorFromLabelSelector(selector);
  } catch (error: unknown) {
    // An invalid selector selects nothing, as everywhere else.
    if (error instanceof ApiError) return [];
    throw error;
  }
  return pods.filter((p) => matchesLabels(expr, p.metadata.labels ?? {}));
}

export function decideForGroups(
  pdb: PodDisruptionBudget,
  pod: Pod,
  snapshot: GroupSnapshot,
  now: Date,
): GroupDecision {
  const disrupted: Record<string, string> = {};
  for (const [name, time] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    if (Date.parse(time) + deletionTimeoutMs > now.getTime()) disrupted[name] = time;
  }
  const pods = selected(pdb.spec.selector, snapshot.pods);
  if (pods.every((p) => p.spec?.workloadRef === undefined)) return { kind: "perPod" };
  // Only the pod's own group matters: count the pods that share its workloadRef.
  const ref = pod.spec?.workloadRef;
  const mates = pods.filter((p) => {
    const other = p.spec?.workloadRef;
    if (ref === undefined || other === undefined)
      return p === pod || p.metadata.name === pod.metadata.name;
    return (
      other.name === ref.name &&
      other.podGroupName === ref.podGroupName &&
      other.podGroup === ref.podGroup &&
      other.podGroupReplicaKey === ref.podGroupReplicaKey
    );
  });
  const counts = countPodGroups(mates, snapshot.source, disrupted);
  const membership = podGroupMembership(pod, snapshot.source);
  if (membership.kind === "missing") return { kind: "missing", message: membership.message };
  const key = counts.groupOfPod.get(pod.metadata.name ?? "");
  const group = key === undefined ? undefined : counts.groups.get(key);
  if (group !== undefined && group.healthyPods >= group.minCount) {
    if (!isPodHealthyForGroup(pod, disrupted)) return { kind: "free" };
    return group.healthyPods - 1 >= group.minCount ? { kind: "free" } : { kind: "spend" };
  }
  if (pdb.spec.unhealthyPodEvictionPolicy === "AlwaysAllow") return { kind: "unhealthy" };
  // Evicting a pod of a broken group leaves the number of healthy groups as it is, so it is
  // free while the budget is met. Unlike per-pod budgets this includes desiredHealthy 0: the
  // budget's units are groups, and spending one on a broken group would strand its pods.
  const status = pdb.status;
  if (status !== undefined && status.currentHealthy >= status.desiredHealthy) {
    return { kind: "unhealthy" };
  }
  return { kind: "spend" };
}
