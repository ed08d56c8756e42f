/**
 * Writes the node controllers share (upstream's controller_utils.go): taint swaps with the
 * node's resourceVersion as precondition, marking pods not Ready, node events, and the pods by
 * node index.
 */
import type { Node, Pod, Taint } from "../../api/index.ts";
import {
  type Client,
  type IndexFunc,
  isConflict,
  isNotFound,
  nodesResource,
  podsResource,
} from "../../client/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import { type EventRecorder, referenceTo } from "../framework/index.ts";
import { swapTaints } from "./taints.ts";

/** Upstream's `nodeNameKeyIndex`: pods by `spec.nodeName` (unscheduled pods not indexed). */
export const nodeNameIndex = "spec.nodeName";

export const podsOnNodeIndexFunc: IndexFunc<Pod> = (pod) => {
  const node = pod.spec.nodeName ?? "";
  return node === "" ? [] : [node];
};

/**
 * `SwapNodeControllerTaint`: adds `add` (timeAdded now) and removes `remove` with a patch that
 * carries the node's resourceVersion; on a conflict the node is read fresh and the swap retried
 * (up to 5 times). A vanished node is no error.
 */
export async function writeTaints(
  client: Client,
  cached: DeepReadonly<Node>,
  add: readonly Taint[],
  remove: readonly Taint[],
  now: Date,
): Promise<void> {
  let node: DeepReadonly<Node> = cached;
  for (let attempt = 0; ; attempt++) {
    const taints = swapTaints(node.spec?.taints ?? [], add, remove, now);
    if (taints === undefined) return;
    try {
      await client.patch(nodesResource, undefined, node.metadata.name ?? "", "merge", {
        metadata: { resourceVersion: node.metadata.resourceVersion },
        spec: { taints: taints.length === 0 ? null : taints },
      });
      return;
    } catch (error: unknown) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt >= 4) throw error;
    }
    try {
      node = await client.get<Node>(nodesResource, undefined, cached.metadata.name ?? "");
    } catch (error: unknown) {
      if (isNotFound(error)) return;
      throw error;
    }
  }
}

/** A Node event, as `RecordNodeEvent` / `RecordNodeStatusChange` record them. */
export function recordNodeEvent(
  events: EventRecorder,
  name: string,
  uid: string,
  reason: string,
  message: string,
): void {
  const ref = referenceTo({ metadata: { name, uid } }, { group: "", version: "v1", kind: "Node" });
  events.event(ref, "Normal", reason, message);
}

/**
 * `MarkPodsNotReady`: sets the Ready condition of every pod on `nodeName` to False (transition
 * now), with a `NodeNotReady` Warning on each. Resolves false when some write failed (the caller
 * retries on its next pass).
 */
export async function markPodsNotReady(
  client: Client,
  events: EventRecorder,
  pods: readonly DeepReadonly<Pod>[],
  nodeName: string,
  now: Date,
): Promise<boolean> {
  let ok = true;
  for (const cached of pods) {
    if (cached.spec.nodeName !== nodeName) continue;
    const ready = cached.status?.conditions?.find((c) => c.type === "Ready");
    if (ready === undefined || ready.status === "False") continue;
    const pod = structuredClone(cached) as Pod;
    const conditions = pod.status?.conditions ?? [];
    pod.status = {
      ...pod.status,
      conditions: conditions.map((c) =>
        c.type === "Ready" ? { ...c, status: "False", lastTransitionTime: rfc3339(now) } : c,
      ),
    };
    try {
      await client.updateStatus<Pod>(podsResource, pod);
    } catch (error: unknown) {
      if (isNotFound(error)) continue;
      ok = false;
      continue;
    }
    events.event(referenceTo(pod, podsResource), "Warning", "NodeNotReady", "Node is not ready");
  }
  return ok;
}
