/**
 * NodePorts (PreFilter, Filter): a pod's host ports must be free on the node (same protocol and
 * port on the same address, or on 0.0.0.0, conflict).
 */
import {
  type AnyPlugin,
  actionType,
  type CycleState,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type HostPort,
  PodInfo,
  type PodObject,
  type PreFilterPlugin,
  podInfoFor,
  preFilterSuccess,
  type SignPlugin,
  type StateData,
  signedWith,
  signerKeys,
  skip,
  stateKey,
  success,
  unschedulable,
} from "../../framework/index.ts";

export const name = "NodePorts";
export const errReason = "node(s) didn't have free ports for the requested pod ports";

class PortsState implements StateData {
  readonly ports: readonly HostPort[];
  constructor(ports: readonly HostPort[]) {
    this.ports = ports;
  }
  clone(): PortsState {
    return this;
  }
}

const preFilterKey = stateKey<PortsState>(`PreFilter${name}`);

function overlaps(a: readonly HostPort[], b: readonly HostPort[]): boolean {
  for (const x of a) {
    for (const y of b) {
      if (x.port !== y.port || x.protocol !== y.protocol) continue;
      if (x.ip === y.ip || x.ip === "0.0.0.0" || y.ip === "0.0.0.0") return true;
    }
  }
  return false;
}

export function newNodePorts(): AnyPlugin {
  return {
    name,
    signPod(podInfo) {
      return signedWith({ key: signerKeys.hostPorts, value: podInfo.hostPorts });
    },
    preFilter(state: CycleState, pod: PodObject) {
      const ports = podInfoFor(state, pod).hostPorts;
      if (ports.length === 0) return { status: skip };
      state.write(preFilterKey, new PortsState(ports));
      return preFilterSuccess;
    },
    filter(state, _pod, nodeInfo) {
      const ports = state.read(preFilterKey)?.ports ?? [];
      for (const port of ports) {
        if (nodeInfo.usedPorts.conflicts(port)) return unschedulable(errReason);
      }
      return success;
    },
    eventsToRegister() {
      return [
        {
          event: { resource: eventResource.pod, actionType: actionType.delete },
          queueingHintFn: (pod, oldObj) => {
            const deleted = oldObj as PodObject | undefined;
            if (deleted === undefined || (deleted.spec.nodeName ?? "") === "") return "QueueSkip";
            return overlaps(new PodInfo(pod).hostPorts, new PodInfo(deleted).hostPorts)
              ? "Queue"
              : "QueueSkip";
          },
        },
        { event: { resource: eventResource.node, actionType: actionType.add } },
      ];
    },
  } satisfies PreFilterPlugin & FilterPlugin & SignPlugin & EnqueueExtensions;
}
