/** NodeName (Filter): a pod that names a node (`spec.nodeName`) fits only that node. */
import type { Node } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type SignPlugin,
  signedWith,
  signerKeys,
  success,
  unresolvable,
} from "../../framework/index.ts";

export const name = "NodeName";
export const errReason = "node(s) didn't match the requested node name";

export function newNodeName(): AnyPlugin {
  return {
    name,
    signPod(podInfo) {
      return signedWith({ key: signerKeys.nodeName, value: podInfo.pod.spec.nodeName ?? "" });
    },
    filter(_state, pod, nodeInfo) {
      const wanted = pod.spec.nodeName ?? "";
      if (wanted === "" || wanted === nodeInfo.name) return success;
      return unresolvable(errReason);
    },
    eventsToRegister() {
      return [
        {
          event: { resource: eventResource.node, actionType: actionType.add },
          queueingHintFn: (pod, _oldObj, newObj) =>
            (newObj as DeepReadonly<Node> | undefined)?.metadata.name === pod.spec.nodeName
              ? "Queue"
              : "QueueSkip",
        },
      ];
    },
  } satisfies FilterPlugin & SignPlugin & EnqueueExtensions;
}
