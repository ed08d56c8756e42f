// The public surface of policy/v1.
export { validateCondition, validateConditions } from "./conditions-validation.ts";
export {
  decodeEviction,
  type Eviction,
  evictionApiVersions,
  validateEviction,
} from "./eviction.ts";
export { defaultPodDisruptionBudget, podDisruptionBudgetKind, policyV1Kinds } from "./kinds.ts";
export {
  type BudgetScope,
  disruptionAllowedCondition,
  effectiveBudgetScope,
  insufficientPodsReason,
  type PodDisruptionBudget,
  type PodDisruptionBudgetSpec,
  type PodDisruptionBudgetStatus,
  sufficientPodsReason,
  syncFailedReason,
  type UnhealthyPodEvictionPolicy,
} from "./pod-disruption-budget.ts";
export {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetSpec,
  validatePodDisruptionBudgetStatus,
  validatePodDisruptionBudgetUpdate,
} from "./pod-disruption-budget-validation.ts";
export { policyName, policyV1beta1EvictionDefinitions, policyV1Definitions } from "./schema.ts";
