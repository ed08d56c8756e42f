// The DaemonSet controller: its constructor and the pure decisions tests and tools may reuse.
export {
  type DaemonSetControllerDeps,
  type DaemonSetControllerOptions,
  newDaemonSetController,
} from "./controller.ts";
export {
  addDaemonPodTolerations,
  type NodeVerdict,
  nodeShouldRunDaemonPod,
  pinToNode,
  targetNodeName,
} from "./placement.ts";
export { type NodeActions, planManage, planRollingUpdate } from "./plan.ts";
export { revisionHashLabel } from "./revision.ts";
export { computeDaemonSetStatus } from "./status.ts";
