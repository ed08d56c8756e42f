/**
 * SchedulingGates (PreEnqueue): a pod with `spec.schedulingGates` never enters the active queue.
 * It waits aside until an update removes its last gate (the API only allows removing gates).
 */
import {
  type AnyPlugin,
  actionType,
  type EnqueueExtensions,
  eventResource,
  type PodObject,
  type PreEnqueuePlugin,
  success,
  unresolvable,
} from "../../framework/index.ts";

export const name = "SchedulingGates";

/** `waiting for scheduling gates: [a b]`, with Go's formatting of a string slice. */
export function gatesReason(gates: readonly string[]): string {
  return `waiting for scheduling gates: [${gates.join(" ")}]`;
}

export function newSchedulingGates(): AnyPlugin {
  return {
    name,
    preEnqueue(pod: PodObject) {
      const gates = pod.spec.schedulingGates ?? [];
      if (gates.length === 0) return success;
      return unresolvable(gatesReason(gates.map((g) => g.name)));
    },
    eventsToRegister() {
      return [
        {
          event: {
            resource: eventResource.pod,
            actionType: actionType.updatePodSchedulingGatesEliminated,
          },
          // Only the pod's own update can remove its gates.
          queueingHintFn: (pod, _oldObj, newObj) =>
            (newObj as PodObject | undefined)?.metadata.uid === pod.metadata.uid
              ? "Queue"
              : "QueueSkip",
        },
      ];
    },
  } satisfies PreEnqueuePlugin & EnqueueExtensions;
}
