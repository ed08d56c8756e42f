/**
 * GangScheduling (PreEnqueue): a member of a gang enters the active queue only once its group can
 * be scheduled at all: its PodGroup, Workload and template (or, in the 1.35 form, its Workload
 * and embedded group) exist, the PodGroup belongs to the Workload the pod names, and at least
 * `minCount` members exist (pending, assumed or bound). Otherwise the pod stays Pending, never
 * rejected, and is re-checked only on the Add of what it waits for: the PodGroup, the Workload,
 * or another member (queueing hints; no polling). Placing the gang all-or-nothing is the group
 * cycle's job (see the scheduler's `schedule-group.ts`); this plugin only gates.
 */
import type { PodGroup, Workload } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  actionType,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  eventResource,
  type GroupRef,
  groupRefOf,
  type Handle,
  type PodObject,
  type PreEnqueuePlugin,
  type QueueingHint,
  success,
  unresolvable,
} from "../../framework/index.ts";

export const name = "GangScheduling";

/** Upstream's message while fewer than `minCount` members exist. */
export const waitingForMinCountMessage =
  "waiting for minCount pods from a gang to appear in scheduling queue";

function sameNamespace(ref: GroupRef, obj: unknown): boolean {
  return (obj as DeepReadonly<PodGroup> | undefined)?.metadata?.namespace === ref.namespace;
}

/** Queue when the added PodGroup is the one the pod names. */
export function podGroupAddedHint(pod: PodObject, _old: unknown, added: unknown): QueueingHint {
  const ref = groupRefOf(pod);
  if (ref?.kind !== "podGroup" || !sameNamespace(ref, added)) return "QueueSkip";
  return (added as DeepReadonly<PodGroup>).metadata.name === ref.podGroupName
    ? "Queue"
    : "QueueSkip";
}

/** Queue when the added Workload is the one the pod names. */
export function workloadAddedHint(pod: PodObject, _old: unknown, added: unknown): QueueingHint {
  const ref = groupRefOf(pod);
  if (ref === undefined || !sameNamespace(ref, added)) return "QueueSkip";
  return (added as DeepReadonly<Workload>).metadata.name === ref.workloadName
    ? "Queue"
    : "QueueSkip";
}

/** Queue when the added pod is another member of the same gang. */
export function memberAddedHint(pod: PodObject, _old: unknown, added: unknown): QueueingHint {
  const ref = groupRefOf(pod);
  const other = added as PodObject | undefined;
  if (ref === undefined || other?.spec === undefined) return "QueueSkip";
  if (other.metadata.uid === pod.metadata.uid) return "QueueSkip";
  return groupRefOf(other)?.key === ref.key ? "Queue" : "QueueSkip";
}

export function newGangScheduling(handle: Handle): PreEnqueuePlugin & EnqueueExtensions {
  return {
    name,
    preEnqueue(pod) {
      const groups = handle.podGroups;
      const ref = groups.groupOf(pod);
      if (ref === undefined) return success;
      const resolved = groups.resolve(ref);
      if (!resolved.ok) return unresolvable(resolved.reason);
      if (resolved.policy.kind === "basic") return success;
      if (groups.memberCount(ref.key) < resolved.policy.minCount) {
        return unresolvable(waitingForMinCountMessage);
      }
      return success;
    },
    eventsToRegister(): readonly ClusterEventWithHint[] {
      return [
        {
          event: { resource: eventResource.podGroup, actionType: actionType.add },
          queueingHintFn: podGroupAddedHint,
        },
        {
          event: { resource: eventResource.workload, actionType: actionType.add },
          queueingHintFn: workloadAddedHint,
        },
        {
          event: { resource: eventResource.pod, actionType: actionType.add },
          queueingHintFn: memberAddedHint,
        },
      ];
    },
  };
}
