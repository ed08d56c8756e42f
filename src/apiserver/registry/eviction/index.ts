// The eviction subresource's decision: budgets, groups, the DisruptionTarget condition, delete.

export {
  budgetsByLabelIndex,
  type EvictionDepsInput,
  evictionBudgetIndexes,
  evictionPodIndexes,
  groupedPodsIndex,
  newEvictionDeps,
  podsByWorkloadRefIndex,
} from "./deps.ts";
export {
  budgetViolationMessage,
  type EvictionDeps,
  type EvictionRequest,
  evictPod,
  mergeDryRun,
} from "./eviction.ts";
export { decideForGroups, type GroupDecision, type GroupSnapshot } from "./groups.ts";
export {
  type EvictionBudgetScope,
  type EvictionMetrics,
  type EvictionResult,
  evictionsMetricName,
  newEvictionMetrics,
  noEvictionMetrics,
} from "./metrics.ts";
