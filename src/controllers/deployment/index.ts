export {
  type DeploymentControllerDeps,
  type DeploymentControllerOptions,
  newDeploymentController,
} from "./controller.ts";
export {
  maxSurge,
  maxUnavailable,
  minAvailable,
  newReplicaSetReplicas,
  resolveFenceposts,
  scaledValue,
} from "./fenceposts.ts";
export { podTemplateHashLabel } from "./hash.ts";
export {
  findActiveOrLatest,
  isScalingEvent,
  oldPodsRunning,
  planHistoryCleanup,
  planNewReplicaSetScale,
  planOldReplicaSetsScaleDown,
  planProportionalScale,
  planRecreateScaleDown,
  type ScaleStep,
} from "./plan.ts";
export {
  desiredReplicasAnnotation,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  maxReplicasAnnotation,
  revisionAnnotation,
  revisionHistoryAnnotation,
} from "./replica-sets.ts";
export {
  calculateStatus,
  computePausedConditions,
  computeRolloutStatus,
  type RolloutStatus,
} from "./status.ts";
