export {
  newReplicaSetController,
  type ReplicaSetControllerDeps,
  type ReplicaSetControllerOptions,
} from "./controller.ts";
export {
  type ReplicaSetKind,
  type ReplicaSetView,
  replicaSetKind,
  replicationControllerKind,
} from "./kinds.ts";
export { slowStartBatch } from "./slow-start.ts";
export { computeReplicaSetStatus, type ReplicaSetFacts } from "./status.ts";
