// The controller framework: what every controller in controllers/ builds on.

export { type ClaimRequest, claimObjects, recheckNotDeleting } from "./claim.ts";
export {
  findCondition,
  removeCondition,
  type StatusCondition,
  setCondition,
} from "./conditions.ts";
export {
  type Controller,
  type ControllerDefinition,
  defineController,
  describe,
  done,
  earliest,
  type InformerEvent,
  type MapToKeys,
  newControllerQueue,
  type ReconcileResult,
  requeueAfter,
  runWorkers,
  TerminalError,
  terminal,
  type Watch,
  type WorkerPoolOptions,
  watch,
} from "./controller.ts";
export type { ControllerDeps } from "./deps.ts";
export {
  type DiscoveryResult,
  newResourceDiscovery,
  type ResourceDiscovery,
  resourceOfCrd,
} from "./discovery.ts";
export {
  findPort,
  headlessServiceLabel,
  isHeadless,
  lastChangeTriggerTimeAnnotation,
  podIpv4,
  podReference,
  sameLabels,
  shouldPodBeInEndpoints,
  shouldSetHostname,
  TriggerTimeTracker,
} from "./endpoints.ts";
export {
  type EventBroadcaster,
  type EventRecorder,
  type EventRecorderDeps,
  type EventRecorderOptions,
  type EventType,
  type FlushableEventRecorder,
  newEventBroadcaster,
  newEventRecorder,
  referenceTo,
} from "./events.ts";
export { Expectations, type ExpectationsOptions, expectationsTimeoutMs } from "./expectations.ts";
export { removeFinalizer } from "./finalizers.ts";
export {
  computeHash,
  fnv32,
  fnv32a,
  goJson,
  hashControllerRevision,
  safeEncodeString,
  shortHash,
} from "./hashing.ts";
export {
  type CreatedRevision,
  controllerRevisionHashLabel,
  controllerRevisionName,
  createControllerRevision,
  equalRevision,
  newControllerRevision,
  nextRevision,
  sortRevisions,
  templateOfRevision,
  templatePatch,
  updateRevisionNumber,
} from "./history.ts";
export { controllerUidIndex, controllerUidIndexFunc, ensureIndex, splitKey } from "./indexes.ts";
export {
  adoptPatch,
  type ClaimDecision,
  controllerRefOf,
  decideClaim,
  isControlledBy,
  newControllerRef,
  type OwnerIdentity,
  releasePatch,
} from "./owner-refs.ts";
export { podFromTemplate } from "./pod-template.ts";
export {
  compareForDeletion,
  isPodActive,
  isPodAvailable,
  isPodTerminating,
  msUntilAvailable,
  podDeletionCost,
  podDeletionCostAnnotation,
  podReadyTime,
  podsToDelete,
  type RankedPod,
} from "./pods.ts";
export { updateStatusIfChanged } from "./status.ts";
