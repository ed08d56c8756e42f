/** Upstream's `getPhase`: a pod's phase from its spec and container statuses. */
import type { ContainerStatus, PodPhase, PodSpec } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

type Statuses = readonly DeepReadonly<ContainerStatus>[];

function statusOf(statuses: Statuses, name: string): DeepReadonly<ContainerStatus> | undefined {
  return statuses.find((s) => s.name === name);
}

/** Whether any regular container has ever started (upstream `HasAnyRegularContainerStarted`). */
export function hasAnyRegularContainerStarted(
  spec: DeepReadonly<PodSpec>,
  statuses: Statuses,
): boolean {
  for (const c of spec.containers ?? []) {
    const s = statusOf(statuses, c.name);
    if (s === undefined) continue;
    if (s.state?.running !== undefined || s.state?.terminated !== undefined) return true;
    if (s.lastState?.terminated !== undefined) return true;
  }
  return false;
}

/**
 * The phase of a pod. `initStatuses` and `statuses` are the init and regular container
 * statuses; `podIsTerminal` is set once the kubelet has stopped the pod for good.
 */
export function getPhase(
  spec: DeepReadonly<PodSpec>,
  initStatuses: Statuses,
  statuses: Statuses,
  podIsTerminal: boolean,
): PodPhase {
  let pendingRestartable = 0;
  let pendingRegular = 0;
  let failedInitialization = 0;
  for (const c of spec.initContainers ?? []) {
    const s = statusOf(initStatuses, c.name);
    if (c.restartPolicy === "Always") {
      if (s?.state?.running === undefined) pendingRestartable++;
      continue;
    }
    if (s === undefined || s.state?.running !== undefined) pendingRegular++;
    else if (s.state?.terminated !== undefined) {
      if (s.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (s.state?.waiting !== undefined) {
      const last = s.lastState?.terminated;
      if (last !== undefined) {
        if (last.exitCode !== 0) failedInitialization++;
      } else pendingRegular++;
    } else pendingRegular++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.containers ?? []) {
    const s = statusOf(statuses, c.name);
    if (s === undefined) unknown++;
    else if (s.state?.running !== undefined) running++;
    else if (s.state?.terminated !== undefined) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting !== undefined) {
      if (s.lastState?.terminated !== undefined) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInitialization > 0 && spec.restartPolicy === "Never") return "Failed";
  const allStatuses = [...initStatuses, ...statuses];
  if (
    pendingRegular > 0 ||
    (pendingRestartable > 0 && !hasAnyRegularContainerStarted(spec, allStatuses)) ||
    waiting > 0
  ) {
    return "Pending";
  }
  if (running > 0 && unknown === 0) return "Running";
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? "Succeeded" : "Failed";
    if (spec.restartPolicy === "Always") return "Running";
    if (stopped === succeeded) return "Succeeded";
    if (spec.restartPolicy === "Never") return "Failed";
    return "Running";
  }
  return "Pending";
}
