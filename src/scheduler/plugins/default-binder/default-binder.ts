/** DefaultBinder (Bind): binds the pod through the `pods/binding` subresource. */
import { podsResource } from "../../../client/index.ts";
import {
  type AnyPlugin,
  asStatus,
  type BindPlugin,
  type Handle,
  success,
} from "../../framework/index.ts";

export const name = "DefaultBinder";

export function newDefaultBinder(handle: Handle): AnyPlugin {
  return {
    name,
    async bind(_state, pod, nodeName) {
      const namespace = pod.metadata.namespace ?? "";
      const podName = pod.metadata.name ?? "";
      const binding = {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: podName, namespace, uid: pod.metadata.uid },
        target: { apiVersion: "v1", kind: "Node", name: nodeName },
      };
      try {
        await handle.client.createSubresource(podsResource, namespace, podName, "binding", binding);
        return success;
      } catch (error: unknown) {
        return asStatus(error);
      }
    },
  } satisfies BindPlugin;
}
