// The node lifecycle, taint eviction and pod GC (orphaned pods) controllers, and the pure
// decisions tests and tools may reuse.
export {
  type NodeLifecycleControllerDeps,
  type NodeLifecycleControllerOptions,
  newNodeLifecycleController,
  nodeLeaseNamespace,
} from "./controller.ts";
export {
  assessNodeHealth,
  type HealthAssessment,
  type HealthTimings,
  type NodeHealth,
} from "./health.ts";
export {
  isOutOfServiceTerminating,
  newPodGcController,
  outOfServiceTaintKey,
  type PodGcControllerDeps,
  type PodGcControllerOptions,
  terminatedPodsToDelete,
} from "./pod-gc.ts";
export {
  decideEviction,
  type EvictionDecision,
  minTolerationMs,
  newTaintEvictionController,
  type TaintEvictionControllerDeps,
  type TaintEvictionControllerOptions,
} from "./taint-eviction.ts";
export {
  noScheduleTaintChanges,
  notReadyNoExecute,
  swapTaints,
  unreachableNoExecute,
} from "./taints.ts";
export { computeZoneState, type ZoneState, zoneEvictionQps, zoneKey } from "./zones.ts";
