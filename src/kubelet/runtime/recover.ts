/**
 * Rebuilds a pod's runtime record from the status a kubelet wrote earlier (after `gantry up`
 * restarts, or when a node changes hands): the status is the emulated runtime's checkpoint.
 */
import type { ContainerStatus, Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { initialBackoffMs, noBackoff } from "./backoff.ts";
import type { PodPlan } from "./plan.ts";
import type { ContainerRecord, ContainerState, PodRecord, Terminated } from "./pod-record.ts";

function time(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? fallback : ms;
}

function terminatedOf(
  t: DeepReadonly<NonNullable<NonNullable<ContainerStatus["state"]>["terminated"]>>,
  instance: number,
  now: number,
): Terminated {
  return {
    startedAt: time(t.startedAt, now),
    finishedAt: time(t.finishedAt, now),
    exitCode: t.exitCode,
    reason: t.reason ?? (t.exitCode === 0 ? "Completed" : "Error"),
    instance,
  };
}

/**
 * The record behind a status this emulator wrote, or `undefined` when the pod never got one
 * (no `startTime`: it still needs admission). Back-off history is not in the status, so a
 * container waiting in CrashLoopBackOff restarts 10 s after its last exit.
 */
export function recordFromStatus(
  pod: DeepReadonly<Pod>,
  plan: PodPlan,
  now: number,
): PodRecord | undefined {
  const status = pod.status;
  if (status?.startTime === undefined) return undefined;
  const statuses = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  const sandboxReady =
    status.conditions?.some(
      (c) => c.type === "PodReadyToStartContainers" && c.status === "True",
    ) === true ||
    statuses.some((s) => s.state?.running !== undefined || s.state?.terminated !== undefined);
  const containers: ContainerRecord[] = plan.containers.map((p) => {
    const s = statuses.find((x) => x.name === p.name);
    const restartCount = s?.restartCount ?? 0;
    const lastRaw = s?.lastState?.terminated;
    const last =
      lastRaw === undefined ? undefined : terminatedOf(lastRaw, Math.max(0, restartCount - 1), now);
    let state: ContainerState = { kind: "waiting", startAt: undefined };
    if (s?.state?.running !== undefined) {
      state = { kind: "running", startedAt: time(s.state.running.startedAt, now) };
    } else if (s?.state?.terminated !== undefined) {
      state = {
        kind: "terminated",
        terminated: terminatedOf(s.state.terminated, restartCount, now),
      };
    } else if (s?.state?.waiting?.reason === "CrashLoopBackOff" && last !== undefined) {
      state = { kind: "backoff", restartAt: Math.max(now, last.finishedAt + initialBackoffMs) };
    }
    return {
      plan: p,
      state,
      restartCount,
      lastTerminated: last,
      backoff: restartCount > 0 ? { delayMs: initialBackoffMs, updatedAt: now } : noBackoff,
    };
  });
  const phase = status.phase;
  const terminalPhase = phase === "Succeeded" || phase === "Failed" ? phase : undefined;
  const record: PodRecord = {
    restartPolicy: pod.spec.restartPolicy ?? "Always",
    sandboxAt: time(status.startTime, now) + plan.startDelayMs,
    sandboxReady,
    containers: rescheduleWaiting(containers, sandboxReady, now),
    stopAt: undefined,
    stopped: terminalPhase !== undefined && !containers.some((c) => c.state.kind === "running"),
    terminalPhase,
  };
  return record;
}

/** Starts, at `now`, the waiting containers whose turn has come (their predecessors are done). */
function rescheduleWaiting(
  containers: readonly ContainerRecord[],
  sandboxReady: boolean,
  now: number,
): ContainerRecord[] {
  if (!sandboxReady) return [...containers];
  let initDone = true;
  return containers.map((c) => {
    if (c.plan.kind !== "app") {
      const ready = initDone;
      const done =
        c.plan.kind === "sidecar"
          ? c.state.kind === "running"
          : c.state.kind === "terminated" && c.state.terminated.exitCode === 0;
      initDone = initDone && done;
      if (ready && c.state.kind === "waiting")
        return { ...c, state: { kind: "waiting", startAt: now } };
      return c;
    }
    if (initDone && c.state.kind === "waiting")
      return { ...c, state: { kind: "waiting", startAt: now } };
    return c;
  });
}
