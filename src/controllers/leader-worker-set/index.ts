// The LeaderWorkerSet controller: its constructor and the pure decisions tests and tools may reuse.
export {
  type LeaderWorkerSetControllerDeps,
  type LeaderWorkerSetControllerOptions,
  newLeaderWorkerSetController,
} from "./controller.ts";
export { groupKey, templateRevisionKey } from "./hash.ts";
export {
  leaderPodName,
  podGroupName,
  podGroupTemplateName,
  workerPodName,
  workloadName,
} from "./identity.ts";
export { type LeaderWorkerSetPlan, planLeaderWorkerSet } from "./plan.ts";
export { newGroupPod, newGroupPods } from "./pods.ts";
export { desiredPodGroup, desiredWorkload, groupPolicy } from "./scheduling.ts";
export { computeLeaderWorkerSetStatus, leaderSelector } from "./status.ts";
export { leaderWorkerSetsResource } from "./sync.ts";
