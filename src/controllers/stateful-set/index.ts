// The StatefulSet controller: its constructor and the pure decisions tests and tools may reuse.
export {
  newStatefulSetController,
  type StatefulSetControllerDeps,
  type StatefulSetControllerOptions,
} from "./controller.ts";
export {
  identityMatches,
  parentAndOrdinal,
  podIndexLabel,
  podNameLabel,
  revisionLabel,
} from "./identity.ts";
export {
  planStatefulSet,
  type Revision,
  type StatefulSetPlan,
  type StatefulSetPlanInput,
  type StatefulSetStep,
} from "./plan.ts";
export { newStatefulSetRevision, statefulSetRevisions } from "./revision.ts";
export { computeStatefulSetStatus, countReplicas, type ReplicaCounts } from "./status.ts";
