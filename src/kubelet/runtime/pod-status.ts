/**
 * The API status of a pod from its runtime record, as the kubelet's `generateAPIPodStatus` and
 * status manager build it: container statuses, phase, the kubelet-owned conditions (with
 * transition times kept while their status holds), IPs, start time and QoS class.
 */
import {
  type ContainerState as ApiContainerState,
  type ContainerStatus,
  type Pod,
  type PodCondition,
  type PodStatus,
  qosClassOf,
} from "../../api/index.ts";
import { type DeepReadonly, formatDuration, rfc3339 } from "../../util/index.ts";
import { containerIdOf, imageIdOf, normalizeImage } from "./image.ts";
import { getPhase, hasAnyRegularContainerStarted } from "./phase.ts";
import type { ContainerRecord, PodRecord, Terminated } from "./pod-record.ts";

/** Conditions the kubelet owns; others in the old status are kept as they are. */
export const kubeletOwnedConditions: ReadonlySet<string> = new Set([
  "PodReadyToStartContainers",
  "Initialized",
  "Ready",
  "ContainersReady",
  "PodScheduled",
]);

/** What the status needs besides the pod and its record. */
export interface StatusContext {
  readonly now: number;
  readonly hostIP: string;
  /** The sandbox's IP; `undefined` before the sandbox exists. */
  readonly podIP: string | undefined;
  /** When the kubelet accepted the pod (`status.startTime`), RFC 3339. */
  readonly startTime: string;
  /** Why the kubelet failed the pod itself (`DeadlineExceeded`), shown as the pod's reason. */
  readonly failure?: { readonly reason: string; readonly message: string };
}

type Condition = Omit<PodCondition, "lastTransitionTime" | "lastProbeTime">;

function terminatedState(t: Terminated, uid: string, name: string): ApiContainerState {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: rfc3339(new Date(t.startedAt)),
      finishedAt: rfc3339(new Date(t.finishedAt)),
      containerID: containerIdOf(uid, name, t.instance),
    },
  };
}

function containerStatus(
  pod: DeepReadonly<Pod>,
  c: ContainerRecord,
  waitingReason: string,
  now: number,
): ContainerStatus {
  const uid = pod.metadata.uid ?? "";
  const name = c.plan.name;
  const image = normalizeImage(c.plan.image);
  const base = {
    name,
    image,
    restartCount: c.restartCount,
    lastState: c.lastTerminated === undefined ? {} : terminatedState(c.lastTerminated, uid, name),
  };
  switch (c.state.kind) {
    case "waiting":
      return {
        ...base,
        imageID: "",
        state: { waiting: { reason: waitingReason } },
        ready: false,
        started: false,
      };
    case "backoff": {
      const podRef = `${pod.metadata.name ?? ""}_${pod.metadata.namespace ?? ""}(${uid})`;
      const message = `back-off ${formatDuration(c.backoff.delayMs)} restarting failed container=${name} pod=${podRef}`;
      return {
        ...base,
        imageID: imageIdOf(c.plan.image),
        ...(c.lastTerminated === undefined
          ? {}
          : { containerID: containerIdOf(uid, name, c.lastTerminated.instance) }),
        state: { waiting: { reason: "CrashLoopBackOff", message } },
        ready: false,
        started: false,
      };
    }
    case "running": {
      const since = now - c.state.startedAt;
      const started = since >= c.plan.startedAfterMs;
      return {
        ...base,
        imageID: imageIdOf(c.plan.image),
        containerID: containerIdOf(uid, name, c.restartCount),
        state: { running: { startedAt: rfc3339(new Date(c.state.startedAt)) } },
        ready: c.plan.kind !== "init" && started && since >= c.plan.readyAfterMs,
        started,
      };
    }
    case "terminated":
      return {
        ...base,
        imageID: imageIdOf(c.plan.image),
        containerID: containerIdOf(uid, name, c.state.terminated.instance),
        state: terminatedState(c.state.terminated, uid, name),
        ready: c.plan.kind === "init" && c.state.terminated.exitCode === 0,
        started: false,
      };
  }
}

function goList(names: readonly string[]): string {
  return `[${names.join(" ")}]`;
}

function containersReady(
  pod: DeepReadonly<Pod>,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: string,
): Condition {
  const unready: string[] = [];
  for (const c of pod.spec.initContainers ?? []) {
    if (c.restartPolicy !== "Always") continue;
    if (initStatuses.find((s) => s.name === c.name)?.ready !== true) unready.push(c.name);
  }
  for (const c of pod.spec.containers ?? []) {
    if (statuses.find((s) => s.name === c.name)?.ready !== true) unready.push(c.name);
  }
  if (phase === "Succeeded")
    return { type: "ContainersReady", status: "False", reason: "PodCompleted" };
  if (phase === "Failed") return { type: "ContainersReady", status: "False", reason: "PodFailed" };
  if (unready.length > 0) {
    return {
      type: "ContainersReady",
      status: "False",
      reason: "ContainersNotReady",
      message: `containers with unready status: ${goList(unready)}`,
    };
  }
  return { type: "ContainersReady", status: "True" };
}

function podReady(
  pod: DeepReadonly<Pod>,
  ready: Condition,
  conditions: readonly DeepReadonly<PodCondition>[],
): Condition {
  if (ready.status !== "True") {
    return {
      type: "Ready",
      status: ready.status,
      ...(ready.reason === undefined ? {} : { reason: ready.reason }),
      ...(ready.message === undefined ? {} : { message: ready.message }),
    };
  }
  const messages: string[] = [];
  for (const gate of pod.spec.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (c === undefined) {
      messages.push(
        `corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`,
      );
    } else if (c.status !== "True") {
      messages.push(
        `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`,
      );
    }
  }
  if (messages.length > 0) {
    return {
      type: "Ready",
      status: "False",
      reason: "ReadinessGatesNotReady",
      message: messages.join(", "),
    };
  }
  return { type: "Ready", status: "True" };
}

function initialized(
  pod: DeepReadonly<Pod>,
  initStatuses: readonly ContainerStatus[],
  all: readonly ContainerStatus[],
  phase: string,
): Condition {
  const incomplete: string[] = [];
  for (const c of pod.spec.initContainers ?? []) {
    const s = initStatuses.find((x) => x.name === c.name);
    const done = c.restartPolicy === "Always" ? s?.started === true : s?.ready === true;
    if (!done) incomplete.push(c.name);
  }
  if (phase === "Succeeded") return { type: "Initialized", status: "True", reason: "PodCompleted" };
  if (hasAnyRegularContainerStarted(pod.spec, all) || incomplete.length === 0) {
    return { type: "Initialized", status: "True" };
  }
  return {
    type: "Initialized",
    status: "False",
    reason: "ContainersNotInitialized",
    message: `containers with incomplete status: ${goList(incomplete)}`,
  };
}

/**
 * Keeps the old `lastTransitionTime` of a condition whose status did not change; stamps `now`
 * otherwise. Conditions not owned by the kubelet come first, unchanged.
 */
export function mergeConditions(
  old: readonly DeepReadonly<PodCondition>[],
  generated: readonly Condition[],
  now: number,
  observedGeneration: number | undefined,
): PodCondition[] {
  const out: PodCondition[] = [];
  for (const c of old) {
    if (!kubeletOwnedConditions.has(c.type)) out.push(structuredClone(c) as PodCondition);
  }
  for (const c of generated) {
    const previous = old.find((o) => o.type === c.type);
    const since =
      previous !== undefined && previous.status === c.status && previous.lastTransitionTime
        ? previous.lastTransitionTime
        : rfc3339(new Date(now));
    out.push({
      type: c.type,
      ...(observedGeneration === undefined ? {} : { observedGeneration }),
      status: c.status,
      lastProbeTime: null,
      lastTransitionTime: since,
      ...(c.reason === undefined ? {} : { reason: c.reason }),
      ...(c.message === undefined ? {} : { message: c.message }),
    });
  }
  return out;
}

/** The full status the kubelet writes for a pod it runs. */
export function renderPodStatus(
  pod: DeepReadonly<Pod>,
  record: PodRecord,
  ctx: StatusContext,
): PodStatus {
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const waitingReason = hasInit ? "PodInitializing" : "ContainerCreating";
  const initStatuses: ContainerStatus[] = [];
  const statuses: ContainerStatus[] = [];
  for (const c of record.containers) {
    const s = containerStatus(pod, c, waitingReason, ctx.now);
    if (c.plan.kind === "app") statuses.push(s);
    else initStatuses.push(s);
  }
  const phase = record.terminalPhase ?? getPhase(pod.spec, initStatuses, statuses, record.stopped);
  const old = pod.status?.conditions ?? [];
  const ready = containersReady(pod, initStatuses, statuses, phase);
  const generated: Condition[] = [
    {
      type: "PodReadyToStartContainers",
      status: record.sandboxReady && !record.stopped ? "True" : "False",
    },
    initialized(pod, initStatuses, [...initStatuses, ...statuses], phase),
    podReady(pod, ready, old),
    ready,
    { type: "PodScheduled", status: "True" },
  ];
  const generation = pod.metadata.generation;
  const podIP = record.sandboxReady ? ctx.podIP : undefined;
  return {
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    phase,
    ...(ctx.failure === undefined
      ? {}
      : { reason: ctx.failure.reason, message: ctx.failure.message }),
    conditions: mergeConditions(old, generated, ctx.now, generation),
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    ...(podIP === undefined ? {} : { podIP, podIPs: [{ ip: podIP }] }),
    startTime: ctx.startTime,
    ...(hasInit ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: statuses,
    qosClass: pod.status?.qosClass ?? qosClassOf(pod),
  };
}

/**
 * The status of a pod the kubelet refused (upstream `rejectPod`): phase Failed, the admission
 * reason and `Pod was rejected: <message>`. The status manager's merge keeps only conditions
 * the kubelet does not own, so PodScheduled goes.
 */
export function rejectedPodStatus(
  pod: DeepReadonly<Pod>,
  reason: string,
  message: string,
  startTime: string,
): PodStatus {
  const generation = pod.metadata.generation;
  const kept = (pod.status?.conditions ?? [])
    .filter((c) => !kubeletOwnedConditions.has(c.type))
    .map((c) => structuredClone(c) as PodCondition);
  return {
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    phase: "Failed",
    ...(kept.length === 0 ? {} : { conditions: kept }),
    reason,
    message: `Pod was rejected: ${message}`,
    startTime,
    qosClass: pod.status?.qosClass ?? qosClassOf(pod),
  };
}
