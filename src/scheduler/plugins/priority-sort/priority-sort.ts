/**
 * PrioritySort (QueueSort): higher `spec.priority` first, then the pod that entered the queue
 * earlier.
 */
import {
  type AnyPlugin,
  podPriority,
  type QueuedPodInfo,
  type QueueSortPlugin,
} from "../../framework/index.ts";

export const name = "PrioritySort";

export function newPrioritySort(): AnyPlugin {
  return {
    name,
    less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
      const pa = podPriority(a.podInfo.pod);
      const pb = podPriority(b.podInfo.pod);
      return pa > pb || (pa === pb && a.timestamp < b.timestamp);
    },
  } satisfies QueueSortPlugin;
}
