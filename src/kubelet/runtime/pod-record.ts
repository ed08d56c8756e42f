/**
 * The emulated container runtime of one pod as a pure state machine: `advancePod(record, now)`
 * applies every transition due by `now` (sandbox ready, init containers in order, exits,
 * restarts with back-off, stop), and `nextWakeAt` says when the next one is due. Times are
 * epoch milliseconds; records are immutable values.
 */
import type { RestartPolicy } from "../../api/index.ts";
import { type BackoffEntry, backoffWait, nextBackoff, noBackoff } from "./backoff.ts";
import type { ContainerKind, ContainerPlan, PodPlan } from "./plan.ts";

/** A finished container instance. `instance` is the restart count it ran under. */
export interface Terminated {
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly exitCode: number;
  readonly reason: string;
  readonly instance: number;
}

/** Where one container is. */
export type ContainerState =
  /** Never started; starts at `startAt` once that is known. */
  | { readonly kind: "waiting"; readonly startAt: number | undefined }
  /** Exited and waits out its back-off (CrashLoopBackOff) until `restartAt`. */
  | { readonly kind: "backoff"; readonly restartAt: number }
  | { readonly kind: "running"; readonly startedAt: number }
  | { readonly kind: "terminated"; readonly terminated: Terminated };

export interface ContainerRecord {
  readonly plan: ContainerPlan;
  readonly state: ContainerState;
  readonly restartCount: number;
  readonly lastTerminated: Terminated | undefined;
  readonly backoff: BackoffEntry;
}

export type TerminalPhase = "Succeeded" | "Failed";

export interface PodRecord {
  readonly restartPolicy: RestartPolicy;
  /** When the sandbox is up (PodReadyToStartContainers) and the first container may start. */
  readonly sandboxAt: number;
  readonly sandboxReady: boolean;
  /** Init containers (and sidecars) in spec order, then app containers. */
  readonly containers: readonly ContainerRecord[];
  /** When the kubelet stops every container (deletion, or a terminal phase set by someone else). */
  readonly stopAt: number | undefined;
  /** Every container is down and the sandbox is gone. */
  readonly stopped: boolean;
  /** Set once the pod is done; never changes afterwards. */
  readonly terminalPhase: TerminalPhase | undefined;
}

/** Exit code and reason of a container the kubelet stops with SIGTERM. */
export const stopSignalExit = { exitCode: 143, reason: "Error" } as const;

/** A new record for a pod admitted at `admittedAt`. */
export function newPodRecord(
  plan: PodPlan,
  restartPolicy: RestartPolicy,
  admittedAt: number,
): PodRecord {
  return {
    restartPolicy,
    sandboxAt: admittedAt + plan.startDelayMs,
    sandboxReady: false,
    containers: plan.containers.map((p) => ({
      plan: p,
      state: { kind: "waiting", startAt: undefined },
      restartCount: 0,
      lastTerminated: undefined,
      backoff: noBackoff,
    })),
    stopAt: undefined,
    stopped: false,
    terminalPhase: undefined,
  };
}

function isInitPhase(kind: ContainerKind): boolean {
  return kind !== "app";
}

function shouldRestart(kind: ContainerKind, policy: RestartPolicy, exitCode: number): boolean {
  switch (kind) {
    case "sidecar":
      return true;
    case "init":
      return policy !== "Never" && exitCode !== 0;
    case "app":
      return policy === "Always" || (policy === "OnFailure" && exitCode !== 0);
  }
}

function min(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/** When the container's next own transition is due. */
function containerEventAt(c: ContainerRecord): number | undefined {
  switch (c.state.kind) {
    case "waiting":
      return c.state.startAt;
    case "backoff":
      return c.state.restartAt;
    case "running":
      return c.plan.runForMs === undefined ? undefined : c.state.startedAt + c.plan.runForMs;
    case "terminated":
      return undefined;
  }
}

function nextEventAt(r: PodRecord): number | undefined {
  if (r.stopped) return undefined;
  let t = r.stopAt;
  if (!r.sandboxReady) return min(t, r.sandboxAt);
  for (const c of r.containers) t = min(t, containerEventAt(c));
  return t;
}

/** A mutable working copy used inside one `advancePod` call. */
interface Work {
  restartPolicy: RestartPolicy;
  sandboxAt: number;
  sandboxReady: boolean;
  containers: ContainerRecord[];
  stopAt: number | undefined;
  stopped: boolean;
  terminalPhase: TerminalPhase | undefined;
}

function schedule(w: Work, index: number, at: number): void {
  const c = w.containers[index];
  if (c === undefined || c.state.kind !== "waiting" || c.state.startAt !== undefined) return;
  w.containers[index] = { ...c, state: { kind: "waiting", startAt: at } };
}

/** Schedules whatever comes after init-phase container `index` (or the first one for -1). */
function scheduleNext(w: Work, index: number, at: number): void {
  const next = w.containers[index + 1];
  if (next === undefined) return;
  if (isInitPhase(next.plan.kind)) {
    schedule(w, index + 1, at);
    return;
  }
  w.containers.forEach((c, i) => {
    if (c.plan.kind === "app") schedule(w, i, at);
  });
}

function terminate(c: ContainerRecord, at: number, exitCode: number, reason: string): Terminated {
  const startedAt = c.state.kind === "running" ? c.state.startedAt : at;
  return { startedAt, finishedAt: at, exitCode, reason, instance: c.restartCount };
}

function stopContainer(c: ContainerRecord, at: number, clean: boolean): ContainerRecord {
  const state = c.state;
  if (state.kind === "running") {
    const exit = clean ? { exitCode: 0, reason: "Completed" } : stopSignalExit;
    return {
      ...c,
      state: { kind: "terminated", terminated: terminate(c, at, exit.exitCode, exit.reason) },
    };
  }
  if (state.kind === "backoff") {
    // The last instance already exited; it is reported as the container's final state.
    return c.lastTerminated === undefined
      ? { ...c, state: { kind: "waiting", startAt: undefined } }
      : {
          ...c,
          state: { kind: "terminated", terminated: c.lastTerminated },
          lastTerminated: undefined,
        };
  }
  if (state.kind === "waiting") return { ...c, state: { kind: "waiting", startAt: undefined } };
  return c;
}

/** Brings down every container at `at` (SIGTERM, or a clean exit for sidecars at pod end). */
function stopAll(w: Work, at: number, clean: boolean): void {
  w.containers = w.containers.map((c) => stopContainer(c, at, clean));
  w.stopped = true;
}

/** Phase of a pod whose containers are all down (upstream getPhase with podIsTerminal). */
function finalPhase(containers: readonly ContainerRecord[]): TerminalPhase {
  const apps = containers.filter((c) => c.plan.kind === "app");
  let stopped = 0;
  let succeeded = 0;
  for (const c of apps) {
    if (c.state.kind !== "terminated") continue;
    stopped++;
    if (c.state.terminated.exitCode === 0) succeeded++;
  }
  return stopped > 0 && stopped === apps.length && stopped === succeeded ? "Succeeded" : "Failed";
}

/** After an app container settles: the pod is done once no app container runs or will. */
function checkCompletion(w: Work, at: number): void {
  const apps = w.containers.filter((c) => c.plan.kind === "app");
  if (!apps.every((c) => c.state.kind === "terminated")) return;
  w.terminalPhase = finalPhase(w.containers);
  stopAll(w, at, true);
}

function exitContainer(w: Work, index: number, at: number): void {
  const c = w.containers[index];
  if (c === undefined) return;
  const code = c.plan.exitCode;
  const t = terminate(c, at, code, code === 0 ? "Completed" : "Error");
  if (shouldRestart(c.plan.kind, w.restartPolicy, code)) {
    const wait = backoffWait(c.backoff, at, at);
    w.containers[index] =
      wait === 0
        ? {
            ...c,
            state: { kind: "running", startedAt: at },
            restartCount: c.restartCount + 1,
            lastTerminated: t,
            backoff: nextBackoff(c.backoff, at),
          }
        : { ...c, state: { kind: "backoff", restartAt: at + wait }, lastTerminated: t };
    return;
  }
  w.containers[index] = { ...c, state: { kind: "terminated", terminated: t } };
  if (c.plan.kind === "init") {
    if (code === 0) scheduleNext(w, index, at);
    else {
      // Only reached with restartPolicy Never: initialization failed for good.
      w.terminalPhase = "Failed";
      stopAll(w, at, true);
    }
  } else if (c.plan.kind === "app") {
    checkCompletion(w, at);
  }
}

function startContainer(w: Work, index: number, at: number): void {
  const c = w.containers[index];
  if (c === undefined) return;
  w.containers[index] = { ...c, state: { kind: "running", startedAt: at } };
  if (c.plan.kind === "sidecar") scheduleNext(w, index, at + c.plan.startedAfterMs);
}

function restartContainer(w: Work, index: number, at: number): void {
  const c = w.containers[index];
  if (c === undefined) return;
  w.containers[index] = {
    ...c,
    state: { kind: "running", startedAt: at },
    restartCount: c.restartCount + 1,
    backoff: nextBackoff(c.backoff, at),
  };
}

/** Applies every transition due at exactly `t`, in a fixed order. */
function step(w: Work, t: number): void {
  if (!w.sandboxReady && w.sandboxAt <= t && (w.stopAt === undefined || w.stopAt > t)) {
    w.sandboxReady = true;
    scheduleNext(w, -1, t);
  }
  if (w.sandboxReady) {
    for (let i = 0; i < w.containers.length && !w.stopped; i++) {
      const c = w.containers[i];
      if (c === undefined || containerEventAt(c) !== t) continue;
      if (c.state.kind === "running") exitContainer(w, i, t);
      else if (c.state.kind === "backoff") restartContainer(w, i, t);
      else if (c.state.kind === "waiting") startContainer(w, i, t);
    }
  }
  if (!w.stopped && w.stopAt !== undefined && w.stopAt <= t) {
    stopAll(w, t, false);
    w.terminalPhase ??= finalPhase(w.containers);
  }
}

const maxSteps = 100_000;

/** Applies every transition due by `now`. Pure: returns a new record. */
export function advancePod(record: PodRecord, now: number): PodRecord {
  const w: Work = { ...record, containers: [...record.containers] };
  for (let steps = 0; ; steps++) {
    if (steps > maxSteps) {
      throw new RangeError(`Cannot advance pod: more than ${maxSteps} transitions are due`);
    }
    const t = nextEventAt(w);
    if (t === undefined || t > now) break;
    step(w, t);
  }
  return w;
}

/**
 * `computePodActions` for containers whose spec changed (on a pod only `image` may): a running
 * container is killed and started again at once with its new plan, whatever the restart policy
 * (upstream: "Restart regardless of the restart policy because the container spec changed").
 * Containers that are not running just take the new plan for their next start. Returns the
 * names of the containers restarted.
 */
export function replaceContainerPlans(
  record: PodRecord,
  plans: readonly ContainerPlan[],
  at: number,
): { record: PodRecord; restarted: string[] } {
  if (record.stopped || record.stopAt !== undefined) return { record, restarted: [] };
  const restarted: string[] = [];
  const containers = record.containers.map((c) => {
    const plan = plans.find((p) => p.name === c.plan.name && p.kind === c.plan.kind);
    if (plan === undefined || plan.image === c.plan.image) return c;
    if (c.state.kind !== "running") return { ...c, plan };
    restarted.push(c.plan.name);
    return {
      ...c,
      plan,
      state: { kind: "running", startedAt: at },
      restartCount: c.restartCount + 1,
      lastTerminated: terminate(c, at, stopSignalExit.exitCode, stopSignalExit.reason),
    } satisfies ContainerRecord;
  });
  return restarted.length === 0 && containers.every((c, i) => c === record.containers[i])
    ? { record, restarted }
    : { record: { ...record, containers }, restarted };
}

/** Asks the runtime to stop every container at `at` (the earliest request wins). */
export function requestStop(record: PodRecord, at: number): PodRecord {
  if (record.stopped) return record;
  const stopAt = min(record.stopAt, at);
  return stopAt === record.stopAt ? record : { ...record, stopAt };
}

/** Someone else set a terminal phase: keep it, and stop the containers at `stopAt`. */
export function forceTerminal(record: PodRecord, phase: TerminalPhase, stopAt: number): PodRecord {
  if (record.terminalPhase !== undefined) return record;
  return { ...requestStop(record, stopAt), terminalPhase: phase };
}

/**
 * When the record next changes or its rendered status does (a probe delay passing), strictly
 * after `now`; `undefined` when nothing more will happen without outside input.
 */
export function nextWakeAt(record: PodRecord, now: number): number | undefined {
  let t = nextEventAt(record);
  if (!record.stopped) {
    for (const c of record.containers) {
      if (c.state.kind !== "running") continue;
      for (const after of [c.plan.startedAfterMs, c.plan.readyAfterMs]) {
        const at = c.state.startedAt + after;
        if (at > now) t = min(t, at);
      }
    }
  }
  return t !== undefined && t <= now ? now : t;
}

/** Whether the pod is finished: terminal and every container down. */
export function isPodFinished(record: PodRecord): boolean {
  return record.stopped && record.terminalPhase !== undefined;
}
