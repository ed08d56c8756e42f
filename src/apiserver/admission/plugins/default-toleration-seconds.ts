/**
 * DefaultTolerationSeconds (upstream's plugin/pkg/admission/defaulttolerationseconds): a new pod
 * that does not tolerate `node.kubernetes.io/not-ready` and `node.kubernetes.io/unreachable`
 * NoExecute taints gets tolerations of both for 300 seconds. It runs after Priority and before
 * the webhooks (Kueue's pod webhooks see the tolerations, as upstream's do).
 */
import type { KubeObject } from "../../../api/index.ts";
import { type AdmissionPlugin, admit } from "../admission.ts";

export const name = "DefaultTolerationSeconds";

/** `tolerationsOf(pod)` is the pod's tolerations with the defaults added (api's `defaultTolerations`). */
export function newDefaultTolerationSeconds(
  tolerationsOf: (pod: KubeObject) => unknown[],
): AdmissionPlugin {
  return {
    name,
    handles: (a) =>
      a.operation === "CREATE" && a.group === "" && a.resource === "pods" && a.subresource === "",
    mutate(a) {
      const pod = a.object;
      if (pod === undefined) return admit;
      const spec = (pod["spec"] ?? {}) as { tolerations?: unknown[] };
      spec.tolerations = tolerationsOf(pod);
      return admit;
    },
  };
}
