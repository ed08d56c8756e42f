export {
  type GarbageCollectorDeps,
  type GarbageCollectorOptions,
  newGarbageCollector,
} from "./controller.ts";
export {
  blockingDependents,
  computeDependentAction,
  DependencyGraph,
  type DependentAction,
  foregroundDeletionFinalizer,
  type GraphNode,
  type ObjectIdentity,
  type OwnerState,
  orphanFinalizer,
} from "./graph.ts";
