/**
 * The drain planner behind `gantry drain-plan` and the dashboard's Disruption view: for every
 * pod on a node, the budget that governs it, whether it can be evicted now, and which pod group
 * its eviction would break; and an eviction order that keeps groups whole (pods of groups
 * already broken, or that break anyway, go first). Pure: callers read the objects themselves.
 */

import { isPodReady } from "../core/v1/pod-helpers.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import { ApiError } from "../errors.ts";
import { countPodGroups, type PodGroupSource, podGroupMembership } from "../helpers/pod-groups.ts";
import { matches, selectorFromLabelSelector } from "../meta/labels/selector.ts";
import type { LabelSelector } from "../meta/types.ts";
import type { PodGroup } from "../scheduling/v1alpha1/pod-group.ts";
import type { Workload } from "../scheduling/v1alpha1/workload.ts";
import { effectiveBudgetScope, type PodDisruptionBudget } from "./v1/pod-disruption-budget.ts";

/** One pod's line of the plan. */
export interface PlannedEviction {
  readonly namespace: string;
  readonly name: string;
  /** The governing budget, `""` for none. */
  readonly pdb: string;
  /** yes: no budget spent; budget: spends one unit that is there; no: would be refused. */
  readonly evictable: "yes" | "budget" | "no";
  /** The pod's group (`podgroup/NAME`, `workload/W/G/KEY`), `""` when it has none. */
  readonly group: string;
  /** True when this eviction takes a healthy group below its minCount. */
  readonly breaksGroup: boolean;
  readonly reason: string;
}

/** What the planner reads: the node's pods and, per namespace, budgets, pods and groups. */
export interface DrainPlanInput {
  readonly nodePods: readonly Pod[];
  readonly budgets: readonly PodDisruptionBudget[];
  readonly pods: readonly Pod[];
  readonly workloads: readonly Workload[];
  readonly podGroups: readonly PodGroup[];
}

/** Whether `selector` selects `pod`; a selector that does not parse selects nothing. */
export function budgetSelects(selector: LabelSelector | undefined, pod: Pod): boolean {
  try {
    return matches(selectorFromLabelSelector(selector), pod.metadata.labels ?? {});
  } catch (error: unknown) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** Group resolution over the Workloads and PodGroups of one namespace. */
export function podGroupSourceOf(
  workloads: readonly Workload[],
  podGroups: readonly PodGroup[],
  namespace: string,
): PodGroupSource {
  const inNs = <T extends { metadata: { namespace?: string } }>(list: readonly T[]) =>
    list.filter((o) => (o.metadata.namespace ?? "") === namespace);
  const nsWorkloads = inNs(workloads);
  const groups = inNs(podGroups);
  return {
    workload: (name) => nsWorkloads.find((w) => w.metadata.name === name),
    podGroup: (name) => groups.find((g) => g.metadata.name === name),
    podGroupsOf: (workload, template) =>
      groups.filter(
        (g) => g.spec.workloadRef.name === workload && g.spec.podGroupTemplateName === template,
      ),
  };
}

/** Rank in the proposed order: bypassing pods, broken groups, free surplus, then breakers. */
function rankOf(plan: PlannedEviction): number {
  if (plan.pdb === "") return 0;
  if (plan.reason.startsWith("group already broken")) return 1;
  if (!plan.breaksGroup && plan.evictable === "yes") return 2;
  return plan.breaksGroup ? 4 : 3;
}

/** The plan for the node's pods, in the proposed eviction order. Pure. */
export function planDrain(input: DrainPlanInput): PlannedEviction[] {
  const plans: PlannedEviction[] = [];
  for (const pod of input.nodePods) {
    const namespace = pod.metadata.namespace ?? "";
    const name = pod.metadata.name ?? "";
    const base = { namespace, name, group: "", breaksGroup: false };
    const phase = pod.status?.phase;
    if (
      phase === "Pending" ||
      phase === "Succeeded" ||
      phase === "Failed" ||
      pod.metadata.deletionTimestamp !== undefined
    ) {
      plans.push({
        ...base,
        pdb: "",
        evictable: "yes",
        reason: "pending, finished or terminating",
      });
      continue;
    }
    const budgets = input.budgets.filter(
      (b) => (b.metadata.namespace ?? "") === namespace && budgetSelects(b.spec.selector, pod),
    );
    const budget = budgets[0];
    if (budget === undefined) {
      plans.push({ ...base, pdb: "", evictable: "yes", reason: "no budget" });
      continue;
    }
    const pdb = budget.metadata.name ?? "";
    if (budgets.length > 1) {
      plans.push({ ...base, pdb, evictable: "no", reason: "more than one budget" });
      continue;
    }
    const allowed = budget.status?.disruptionsAllowed ?? 0;
    const spend = (reason: string, more: Partial<PlannedEviction> = {}): PlannedEviction => ({
      ...base,
      ...more,
      pdb,
      evictable: allowed > 0 ? "budget" : "no",
      reason:
        allowed > 0 ? `${reason}: spends 1 of ${allowed}` : `${reason}: no disruptions allowed`,
    });
    if (effectiveBudgetScope(budget.spec) !== "PodGroup") {
      plans.push(spend(isPodReady(pod) ? "ready pod" : "unready pod"));
      continue;
    }
    const source = podGroupSourceOf(input.workloads, input.podGroups, namespace);
    const selected = input.pods.filter(
      (p) => (p.metadata.namespace ?? "") === namespace && budgetSelects(budget.spec.selector, p),
    );
    const counts = countPodGroups(selected, source, budget.status?.disruptedPods ?? {});
    const membership = podGroupMembership(pod, source);
    if (membership.kind === "missing") {
      plans.push({ ...base, pdb, evictable: "no", reason: membership.message });
      continue;
    }
    const key = counts.groupOfPod.get(name) ?? "";
    const group = counts.groups.get(key);
    if (group === undefined || group.healthyPods < group.minCount) {
      plans.push({ ...base, pdb, group: key, evictable: "yes", reason: "group already broken" });
      continue;
    }
    if (!isPodReady(pod) || group.healthyPods - 1 >= group.minCount) {
      plans.push({
        ...base,
        pdb,
        group: key,
        evictable: "yes",
        reason: `group keeps ${group.healthyPods - (isPodReady(pod) ? 1 : 0)} of minCount ${group.minCount}`,
      });
      continue;
    }
    plans.push(spend(`breaks group ${key}`, { group: key, breaksGroup: true }));
  }
  return plans
    .map((plan, index) => ({ plan, index }))
    .sort(
      (a, b) =>
        rankOf(a.plan) - rankOf(b.plan) ||
        a.plan.group.localeCompare(b.plan.group) ||
        a.index - b.index,
    )
    .map(({ plan }) => plan);
}
