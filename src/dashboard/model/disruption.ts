/**
 * The Disruption view's model: each PodDisruptionBudget with the scope it counts in (pods, or
 * pod groups for `usePodGroups` / `budgetScope: PodGroup`), its budget, the controller's status
 * (healthy / desired / expected / allowed) and, for group budgets, the groups that are below
 * their minCount now — counted with the same `countPodGroups` the controller and the eviction
 * subresource use.
 */
import {
  budgetSelects,
  countPodGroups,
  disruptionAllowedCondition,
  effectiveBudgetScope,
  type Pod,
  type PodDisruptionBudget,
  type PodGroup,
  podGroupSourceOf,
  type Workload,
} from "../../api/index.ts";

export interface BrokenGroup {
  readonly key: string;
  readonly healthy: number;
  readonly minCount: number;
}

export interface BudgetRow {
  readonly namespace: string;
  readonly name: string;
  readonly mode: "pods" | "groups";
  /** "minAvailable: 2", "maxUnavailable: 25%", or "none" */
  readonly budget: string;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expected: number;
  readonly allowed: number;
  /** The DisruptionAllowed condition's reason and message, when set. */
  readonly reason: string;
  readonly message: string;
  /** Pods the eviction API let go that the controller still counts as disrupted. */
  readonly disruptedPods: readonly string[];
  /** Group budgets only: groups below their minCount. */
  readonly brokenGroups: readonly BrokenGroup[];
  /** Group budgets only: the first missing Workload/PodGroup, when a pod names one. */
  readonly missing: string | undefined;
}

function budgetText(pdb: PodDisruptionBudget): string {
  if (pdb.spec.minAvailable !== undefined) return `minAvailable: ${pdb.spec.minAvailable}`;
  if (pdb.spec.maxUnavailable !== undefined) return `maxUnavailable: ${pdb.spec.maxUnavailable}`;
  return "none";
}

export function budgetRows(
  budgets: readonly PodDisruptionBudget[],
  pods: readonly Pod[],
  workloads: readonly Workload[],
  podGroups: readonly PodGroup[],
): BudgetRow[] {
  return budgets.map((pdb): BudgetRow => {
    const namespace = pdb.metadata.namespace ?? "";
    const mode = effectiveBudgetScope(pdb.spec) === "PodGroup" ? "groups" : "pods";
    const status = pdb.status;
    const condition = status?.conditions?.find((c) => c.type === disruptionAllowedCondition);
    let brokenGroups: BrokenGroup[] = [];
    let missing: string | undefined;
    if (mode === "groups") {
      const selected = pods.filter(
        (p) => (p.metadata.namespace ?? "") === namespace && budgetSelects(pdb.spec.selector, p),
      );
      const counts = countPodGroups(
        selected,
        podGroupSourceOf(workloads, podGroups, namespace),
        status?.disruptedPods ?? {},
      );
      brokenGroups = [...counts.groups.values()]
        .filter((g) => g.healthyPods < g.minCount)
        .map((g) => ({ key: g.key, healthy: g.healthyPods, minCount: g.minCount }))
        .sort((a, b) => a.key.localeCompare(b.key));
      missing = counts.missing;
    }
    return {
      namespace,
      name: pdb.metadata.name ?? "",
      mode,
      budget: budgetText(pdb),
      currentHealthy: status?.currentHealthy ?? 0,
      desiredHealthy: status?.desiredHealthy ?? 0,
      expected: status?.expectedPods ?? 0,
      allowed: status?.disruptionsAllowed ?? 0,
      reason: condition?.reason ?? "",
      message: condition?.message ?? "",
      disruptedPods: Object.keys(status?.disruptedPods ?? {}).sort(),
      brokenGroups,
      missing,
    };
  });
}
