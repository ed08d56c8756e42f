/** The pod states the StatefulSet rules read (upstream's stateful_set_utils.go). Pure. */
import { isPodReady, type Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { isPodAvailable } from "../framework/index.ts";

/** `isCreated`: the API server has the pod (it has a phase). */
export function isCreated(pod: DeepReadonly<Pod>): boolean {
  return (pod.status?.phase ?? "") !== "";
}

/** `isRunningAndReady`: phase Running and the Ready condition True. */
export function isRunningAndReady(pod: DeepReadonly<Pod>): boolean {
  return pod.status?.phase === "Running" && isPodReady(pod);
}

/** `isFailed` or `isSucceeded`: the pod has finished and must be replaced. */
export function isFinished(pod: DeepReadonly<Pod>): boolean {
  return pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded";
}

/** `isTerminating`: the pod has a deletionTimestamp. */
export function isTerminating(pod: DeepReadonly<Pod>): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/** `isHealthy`: Running, Ready and not being deleted. */
export function isHealthy(pod: DeepReadonly<Pod>): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod);
}

/** `isUnavailable`: not healthy, or not yet Ready for `minReadySeconds`. */
export function isUnavailable(pod: DeepReadonly<Pod>, minReadySeconds: number, now: Date): boolean {
  return !isHealthy(pod) || !isPodAvailable(pod, minReadySeconds, now);
}
