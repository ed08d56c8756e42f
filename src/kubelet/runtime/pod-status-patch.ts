/**
 * The kubelet's pod status write: a strategic merge patch of `pods/<name>/status` carrying the
 * pod's uid as a precondition, as upstream's status manager sends it (`PatchPodStatus`).
 */
import type { PodStatus } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { twoWayMergePatch } from "../internal/strategic-patch.ts";

/** PodStatus lists merged by key (`patchStrategy:"merge"`); container statuses are atomic. */
const mergeKeys: Readonly<Record<string, string>> = {
  conditions: "type",
  hostIPs: "ip",
  podIPs: "ip",
  resourceClaimStatuses: "name",
};

/**
 * The patch taking the pod's `current` status to `desired`: `{metadata: {uid}, status: …}`
 * (upstream `preparePatchBytesForPodStatus`), or `undefined` when nothing changed.
 */
export function podStatusPatch(
  uid: string,
  current: DeepReadonly<PodStatus> | undefined,
  desired: PodStatus,
): { readonly metadata: { readonly uid: string }; readonly status: object } | undefined {
  const status = twoWayMergePatch(current, desired, mergeKeys);
  return Object.keys(status).length === 0 ? undefined : { metadata: { uid }, status };
}
