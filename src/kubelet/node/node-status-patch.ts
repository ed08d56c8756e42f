/**
 * The kubelet's node status write: a strategic merge patch of `nodes/<name>/status` from the
 * status it last saw to the one it computed, as upstream's `PatchNodeStatus` sends it.
 */
import { type NodeStatus, semanticEqual } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { twoWayMergePatch } from "../internal/strategic-patch.ts";

/** NodeStatus lists merged by key (`patchStrategy:"merge"`); the others are atomic. */
const mergeKeys: Readonly<Record<string, string>> = { addresses: "type", conditions: "type" };

/**
 * The patch (`{status: …}`) taking `current` to `desired`, or `undefined` when they are the
 * same. Changed `addresses` are sent whole with `$patch: replace`, as upstream's
 * `fixupPatchForNodeStatusAddresses` does (their merge key, `type`, is not unique); a node's
 * first addresses merge by `type` as any keyed list.
 */
export function nodeStatusPatch(
  current: DeepReadonly<NodeStatus> | undefined,
  desired: NodeStatus,
): { readonly status: Record<string, unknown> } | undefined {
  const before = current ?? {};
  const replaceAddresses =
    (before.addresses ?? []).length > 0 &&
    desired.addresses !== undefined &&
    !semanticEqual(before.addresses, desired.addresses);
  const diffed = replaceAddresses ? { ...desired, addresses: before.addresses } : desired;
  const status = twoWayMergePatch(before, diffed, mergeKeys);
  if (replaceAddresses) status["addresses"] = [...(desired.addresses ?? []), { $patch: "replace" }];
  return Object.keys(status).length === 0 ? undefined : { status };
}
