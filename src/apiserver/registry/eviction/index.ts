// The eviction subresource's decision: budgets, groups, the DisruptionTarget condition, delete.

export { type EvictionDepsInput, newEvictionDeps } from "./deps.ts";
export {
  budgetViolationMessage,
  type EvictionDeps,
  type EvictionRequest,
  type EvictionResult,
  evictPod,
  mergeDryRun,
} from "./eviction.ts";
export { decideForGroups, type GroupDecision, type GroupSnapshot } from "./groups.ts";
