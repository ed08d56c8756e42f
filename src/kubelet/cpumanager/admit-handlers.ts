/**
 * The CPU manager as the fleet's admit handler factory: every node gets a `CpuManager` for its
 * kubelet settings and machine (the topology the kubelet discovers from its own `/spec/`).
 */
import type {
  AdmitHandlerFactory,
  NodeContext,
  PodAdmitHandler,
} from "../admission/admit-handler.ts";
import { type CheckpointStore, CpuManager } from "./cpu-manager.ts";
import { discoverTopology } from "./topology/discover.ts";

/** Options of `newCpuManagerAdmitHandlers`. */
export interface CpuManagerAdmitOptions {
  /**
   * The node's `cpu_manager_state` store; `undefined` (or returning `undefined`) keeps the state
   * in memory only. @default none
   */
  readonly checkpoints?: (nodeName: string) => CheckpointStore | undefined;
}

/**
 * Builds each node's CPU manager. Nodes with the `none` policy and no checkpoint get no handler.
 * Throws `CpuManagerError` (upstream's message) for a node whose kubelet would not start, such as
 * a checkpoint written by another policy.
 */
export function newCpuManagerAdmitHandlers(
  options: CpuManagerAdmitOptions = {},
): AdmitHandlerFactory {
  return (node: NodeContext): readonly PodAdmitHandler[] => {
    const checkpoint = options.checkpoints?.(node.nodeName);
    if (node.kubelet.cpuManagerPolicy === "none" && checkpoint === undefined) return [];
    const manager = CpuManager.open({
      kubelet: node.kubelet,
      topology: discoverTopology(node.machine.nodes),
      ...(checkpoint === undefined ? {} : { checkpoint }),
    });
    return manager.policy === undefined ? [] : [manager];
  };
}
