/** Puts a controller's pod fixture in one of the lifecycle states plan tests use. */
import type { Pod } from "../../api/index.ts";

export type PodFixtureState =
  | "ready"
  | "pending"
  | "running"
  | "failed"
  | "succeeded"
  | "terminating";

const ready = {
  type: "Ready",
  status: "True" as const,
  lastTransitionTime: "2024-06-01T11:00:00Z",
};

/**
 * Sets `pod`'s status (and, for "terminating", its deletionTimestamp) for `state`: "ready" is
 * Running with Ready=True, "running" Running without conditions, "terminating" ready and deleted.
 */
export function setPodState(pod: Pod, state: PodFixtureState): Pod {
  switch (state) {
    case "ready":
      pod.status = { phase: "Running", conditions: [ready] };
      break;
    case "terminating":
      pod.status = { phase: "Running", conditions: [ready] };
      pod.metadata.deletionTimestamp = "2024-06-01T11:59:00Z";
      break;
    case "pending":
      pod.status = { phase: "Pending" };
      break;
    case "running":
      pod.status = { phase: "Running" };
      break;
    case "failed":
      pod.status = { phase: "Failed" };
      break;
    case "succeeded":
      pod.status = { phase: "Succeeded" };
      break;
  }
  return pod;
}
