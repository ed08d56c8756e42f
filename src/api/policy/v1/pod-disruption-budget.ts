/** Wire types of `policy/v1` PodDisruptionBudget, mirroring the JSON exactly. */
import type { IntOrString } from "../../core/v1/pod-template.ts";
import type { Condition, LabelSelector, ObjectMeta } from "../../meta/types.ts";

export type UnhealthyPodEvictionPolicy = "IfHealthyBudget" | "AlwaysAllow";

/**
 * gantry's extension for group-aware budgets (KEP-5682 draft): `Pod` counts individual pods as
 * today; `PodGroup` counts pod-group replicas.
 */
export type BudgetScope = "Pod" | "PodGroup";

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: UnhealthyPodEvictionPolicy;
  /** gantry: the first KEP-5682 draft's switch; `true` means `budgetScope: PodGroup`. */
  usePodGroups?: boolean;
  /** gantry: the current KEP-5682 draft's field. Unset means `Pod`. */
  budgetScope?: BudgetScope;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name → the time the eviction API accepted its eviction. */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
  [field: string]: unknown;
}

/** The condition the disruption controller maintains, and its reasons. */
export const disruptionAllowedCondition = "DisruptionAllowed";
export const sufficientPodsReason = "SufficientPods";
export const insufficientPodsReason = "InsufficientPods";
export const syncFailedReason = "SyncFailed";

/**
 * The scope a budget counts in: `PodGroup` when `budgetScope` says so or `usePodGroups` is true,
 * else `Pod`. Validation rejects budgets where the two disagree.
 */
export function effectiveBudgetScope(spec: Readonly<PodDisruptionBudgetSpec>): BudgetScope {
  if (spec.budgetScope !== undefined) return spec.budgetScope;
  return spec.usePodGroups === true ? "PodGroup" : "Pod";
}
