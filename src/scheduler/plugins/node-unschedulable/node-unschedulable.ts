/**
 * NodeUnschedulable (Filter): a cordoned node (`spec.unschedulable: true`) takes only pods that
 * tolerate the `node.kubernetes.io/unschedulable:NoSchedule` taint.
 */
import { type Node, type Taint, tolerationsTolerateTaint } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type PodObject,
  type SignPlugin,
  signedWith,
  signerKeys,
  success,
  unresolvable,
} from "../../framework/index.ts";

export const name = "NodeUnschedulable";
export const errReasonUnschedulable = "node(s) were unschedulable";
export const taintNodeUnschedulable = "node.kubernetes.io/unschedulable";

const unschedulableTaint: Taint = { key: taintNodeUnschedulable, effect: "NoSchedule" };

function toleratesUnschedulable(pod: PodObject): boolean {
  return tolerationsTolerateTaint(pod.spec.tolerations, unschedulableTaint);
}

export function newNodeUnschedulable(): AnyPlugin {
  return {
    name,
    signPod(podInfo) {
      return signedWith({ key: signerKeys.tolerations, value: podInfo.pod.spec.tolerations ?? [] });
    },
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.unschedulable) return success;
      if (toleratesUnschedulable(pod)) return success;
      return unresolvable(errReasonUnschedulable);
    },
    eventsToRegister() {
      return [
        {
          event: {
            resource: eventResource.node,
            actionType: actionType.add | actionType.updateNodeTaint,
          },
          queueingHintFn: (_pod, oldObj, newObj) => {
            const node = newObj as DeepReadonly<Node> | undefined;
            if (node === undefined || node.spec?.unschedulable === true) return "QueueSkip";
            const old = oldObj as DeepReadonly<Node> | undefined;
            // An add of a schedulable node, or an uncordon.
            return old === undefined || old.spec?.unschedulable === true ? "Queue" : "QueueSkip";
          },
        },
        {
          event: { resource: eventResource.pod, actionType: actionType.updatePodToleration },
          queueingHintFn: (pod, _oldObj, newObj) => {
            const updated = newObj as PodObject | undefined;
            if (updated === undefined || updated.metadata.uid !== pod.metadata.uid) {
              return "QueueSkip";
            }
            return toleratesUnschedulable(updated) ? "Queue" : "QueueSkip";
          },
        },
      ];
    },
  } satisfies FilterPlugin & SignPlugin & EnqueueExtensions;
}
