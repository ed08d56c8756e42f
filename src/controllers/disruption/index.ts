// The disruption controller: PodDisruptionBudget status and stale DisruptionTarget cleanup.
export {
  budgetsSelecting,
  type DisruptionControllerDeps,
  type DisruptionControllerOptions,
  newDisruptionController,
} from "./controller.ts";
export {
  type DisruptionMetrics,
  newDisruptionMetrics,
  noDisruptionMetrics,
  type ReconcileMode,
} from "./metrics.ts";
export type { ScaleReader } from "./rest-mapper.ts";
