// The public surface of controllers/: the controller manager cmd composes, and the pure
// decisions other components and tests may reuse. Named exports only; see README.md.

export {
  type ControllerManager,
  type ControllerManagerDeps,
  type ControllerManagerOptions,
  type ControllerName,
  controllerNames,
  newControllerManager,
} from "./controller-manager.ts";
export {
  computeRolloutStatus,
  newDeploymentController,
  podTemplateHashLabel,
  resolveFenceposts,
  revisionAnnotation,
} from "./deployment/index.ts";
export {
  type DisruptionMetrics,
  newDisruptionController,
  newDisruptionMetrics,
  noDisruptionMetrics,
} from "./disruption/index.ts";
export {
  type Controller,
  computeHash,
  type EventRecorder,
  Expectations,
  newEventRecorder,
  type ReconcileResult,
  TerminalError,
} from "./framework/index.ts";
export { newGarbageCollector } from "./garbage-collector/index.ts";
export { newLeaderWorkerSetController } from "./leader-worker-set/index.ts";
export { finalizeByUpdate, newNamespaceController } from "./namespace/index.ts";
export {
  newReplicaSetController,
  replicaSetKind,
  replicationControllerKind,
} from "./replica-set/index.ts";
