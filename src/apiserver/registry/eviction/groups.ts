/**
 * The group-scoped eviction decision (gantry, after the KEP-5682 draft): an eviction is judged
 * by what it does to the pod's group. Keeping the group at or above its minCount costs no
 * budget; breaking a healthy group costs one unit; a pod of an already unhealthy group follows
 * the unhealthy-pod policy. Pure: the caller reads the snapshot.
 */
import {
  ApiError,
  isPodHealthyForGroup,
  type LabelSelector,
  matchesLabels,
  type Pod,
  type PodDisruptionBudget,
  type PodGroupSource,
  podGroupMembership,
  selectorFromLabelSelector,
  tallyPodGroups,
} from "../../../api/index.ts";

/**
 * What a group-scoped decision reads, as of one moment: the pod's group mates and the group
 * objects, without listing the namespace's pods.
 */
export interface GroupSnapshot {
  /** The namespace's pods whose workloadRef equals `pod`'s (the pod itself among them). */
  mates(pod: Pod): readonly Pod[];
  /** Whether some pod of the namespace has a workloadRef and satisfies `selected`. */
  someGrouped(selected: (pod: Pod) => boolean): boolean;
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

/** The selector as a predicate: null selects nothing, `{}` everything, invalid nothing. */
function selectorPredicate(selector: LabelSelector | undefined): (pod: Pod) => boolean {
  let expr: ReturnType<typeof selectorFromLabelSelector>;
  try {
    expr = selectorFromLabelSelector(selector);
  } catch (error: unknown) {
    if (error instanceof ApiError) return () => false;
    throw error;
  }
  return (pod) => matchesLabels(expr, pod.metadata.labels ?? {});
}

/**
 * Decides an eviction of `pod` under the group-scoped `pdb`. Reads only the pod's own group
 * (its mates in `snapshot`), so the cost does not grow with the budget's other groups.
 */
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
  const selected = selectorPredicate(pdb.spec.selector);
  const ref = pod.spec?.workloadRef;
  if (ref === undefined && !snapshot.someGrouped(selected)) return { kind: "perPod" };
  const membership = podGroupMembership(pod, snapshot.source);
  if (membership.kind === "missing") return { kind: "missing", message: membership.message };
  // Only the pod's own group matters: a pod without a workloadRef is a group of its own.
  const mates =
    ref === undefined
      ? [pod]
      : snapshot.mates(pod).filter((p) => p.metadata.name !== pod.metadata.name && selected(p));
  if (ref !== undefined) mates.push(pod);
  const tally = tallyPodGroups(mates, snapshot.source, disrupted);
  const key = tally.groupOfPod.get(pod.metadata.name ?? "");
  const group = key === undefined ? undefined : tally.groups.get(key);
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
