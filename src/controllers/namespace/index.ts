export {
  type ContentDeletionResult,
  computeNamespaceConditions,
  type NamespaceCondition,
  namespaceConditionTypes,
  remainingRequeueMs,
} from "./conditions.ts";
export {
  finalizeByUpdate,
  type NamespaceControllerDeps,
  type NamespaceControllerOptions,
  type NamespaceFinalizer,
  newNamespaceController,
} from "./controller.ts";
