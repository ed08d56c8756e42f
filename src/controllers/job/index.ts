// The Job and TTL-after-finished controllers, and the pure decisions tests and tools may reuse.
export {
  type BackoffRecord,
  nextBackoffRecord,
  remainingBackoffMs,
} from "./backoff.ts";
export {
  type JobControllerDeps,
  type JobControllerOptions,
  newJobController,
} from "./controller.ts";
export {
  completionIndexKey,
  firstPendingIndexes,
  formatIndexes,
  parseIndexes,
} from "./indexes.ts";
export { finishedCondition, isJobFinished, jobTrackingFinalizer } from "./job-state.ts";
export { activePodsForRemoval, wantActive } from "./manage.ts";
export { planTracking, type TrackingPlan } from "./tracking.ts";
export {
  newTtlAfterFinishedController,
  type TtlAfterFinishedControllerDeps,
  type TtlAfterFinishedControllerOptions,
  ttlExpiresAt,
} from "./ttl-after-finished.ts";
