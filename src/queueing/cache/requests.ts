/** What one pod of a PodSet requests, as the pod itself would compute it. */
import { type KueueWorkload, type Pod, podRequests } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The per-pod requests of a PodSet (millicores for cpu). */
export function podSetRequests(
  podSet: DeepReadonly<KueueWorkload["spec"]["podSets"][number]>,
): Map<string, number> {
  const pod = { metadata: {}, spec: podSet.template.spec } as unknown as DeepReadonly<Pod>;
  return podRequests(pod);
}
