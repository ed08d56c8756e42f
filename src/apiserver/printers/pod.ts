// kubectl's pod columns and STATUS/READY/RESTARTS logic (kubernetes pkg/printers/internalversion
// printPod), reading plain v1 JSON.

import { humanAge } from "./human-duration.ts";
import { ageColumn, column, nameColumn } from "./internal/columns.ts";
import { at, bool, isDeleting, list, nameOf, num, type Obj, obj, str } from "./internal/read.ts";
import type { PrintedRow, TablePrinter, TableRowCondition } from "./table.ts";

const columns = [
  nameColumn,
  column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
  column("Status", "string", "The aggregate status of the containers in this pod."),
  column(
    "Restarts",
    "string",
    "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
  ),
  ageColumn,
  column(
    "IP",
    "string",
    "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
    { priority: 1 },
  ),
  column(
    "Node",
    "string",
    "NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.",
    { priority: 1 },
  ),
  column(
    "Nominated Node",
    "string",
    "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.",
    { priority: 1 },
  ),
  column(
    "Readiness Gates",
    "string",
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    { priority: 1 },
  ),
] as const;

const succeededConditions: readonly TableRowCondition[] = [
  {
    type: "Completed",
    status: "True",
    reason: "Succeeded",
    message: "The pod has completed successfully.",
  },
];
const failedConditions: readonly TableRowCondition[] = [
  { type: "Completed", status: "True", reason: "Failed", message: "The pod failed." },
];

/** The status.reason the node lifecycle controller sets on pods of unreachable nodes. */
const nodeUnreachablePodReason = "NodeLost";

function conditionStatus(pod: Obj, type: string): string | undefined {
  const c = list(pod, "status", "conditions").find((x) => str(x, "type") === type);
  return c === undefined ? undefined : str(c, "status");
}

function isSchedulingGated(pod: Obj): boolean {
  const gatedCondition = list(pod, "status", "conditions").some(
    (c) => str(c, "type") === "PodScheduled" && str(c, "reason") === "SchedulingGated",
  );
  // The apiserver sets that condition on create when gates exist; gates can only be removed
  // afterwards, so an unbound pod that still has gates is gated too.
  const hasGates = list(pod, "spec", "schedulingGates").length > 0;
  return gatedCondition || (hasGates && str(pod, "spec", "nodeName") === "");
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** The later of `current` and the container's last termination time. */
function laterRestart(current: number | undefined, status: unknown): number | undefined {
  const finished = timeOf(at(status, "lastState", "terminated", "finishedAt"));
  if (finished === undefined) return current;
  return current === undefined || finished > current ? finished : current;
}

function terminatedText(terminated: Obj, prefix: string): string {
  const reason = str(terminated, "reason");
  if (reason !== "") return `${prefix}${reason}`;
  const signal = num(terminated, "signal");
  if (signal !== 0) return `${prefix}Signal:${signal}`;
  return `${prefix}ExitCode:${num(terminated, "exitCode")}`;
}

function readinessGates(pod: Obj): string {
  const gates = list(pod, "spec", "readinessGates");
  if (gates.length === 0) return "<none>";
  let trueCount = 0;
  for (const gate of gates) {
    if (conditionStatus(pod, str(gate, "conditionType")) === "True") trueCount++;
  }
  return `${trueCount}/${gates.length}`;
}

function podIp(pod: Obj): string {
  const first = list(pod, "status", "podIPs")[0];
  const ip = first === undefined ? str(pod, "status", "podIP") : str(first, "ip");
  return ip === "" ? "<none>" : ip;
}

/** `printPod`: one row of `kubectl get pods`. */
export function printPodRow(pod: Obj, now: Date): PrintedRow {
  const phase = str(pod, "status", "phase");
  let reason = str(pod, "status", "reason") || phase;
  if (isSchedulingGated(pod)) reason = "SchedulingGated";

  const initSpecs = list(pod, "spec", "initContainers");
  const restartableInit = new Set(
    initSpecs.filter((c) => str(c, "restartPolicy") === "Always").map((c) => str(c, "name")),
  );
  const total = list(pod, "spec", "containers").length + restartableInit.size;
  let ready = 0;
  let restarts = 0;
  let lastRestart: number | undefined;
  let sidecarRestarts = 0;
  let lastSidecarRestart: number | undefined;

  let initializing = false;
  const initStatuses = list(pod, "status", "initContainerStatuses");
  for (const [i, status] of initStatuses.entries()) {
    restarts += num(status, "restartCount");
    lastRestart = laterRestart(lastRestart, status);
    const sidecar = restartableInit.has(str(status, "name"));
    if (sidecar) {
      sidecarRestarts += num(status, "restartCount");
      lastSidecarRestart = laterRestart(lastSidecarRestart, status);
    }
    const terminated = at(status, "state", "terminated");
    const waitingReason = str(status, "state", "waiting", "reason");
    if (terminated !== undefined && num(terminated, "exitCode") === 0) continue;
    if (sidecar && bool(status, "started")) {
      if (bool(status, "ready")) ready++;
      continue;
    }
    if (terminated !== undefined) {
      reason = terminatedText(obj(terminated), "Init:");
    } else if (waitingReason !== "" && waitingReason !== "PodInitializing") {
      reason = `Init:${waitingReason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionStatus(pod, "Initialized") === "True") {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = list(pod, "status", "containerStatuses");
    for (let i = statuses.length - 1; i >= 0; i--) {
      const status = statuses[i];
      restarts += num(status, "restartCount");
      lastRestart = laterRestart(lastRestart, status);
      const waitingReason = str(status, "state", "waiting", "reason");
      const terminated = at(status, "state", "terminated");
      if (waitingReason !== "") {
        reason = waitingReason;
      } else if (terminated !== undefined) {
        reason = terminatedText(obj(terminated), "");
      } else if (bool(status, "ready") && at(status, "state", "running") !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === "Completed" && hasRunning) {
      reason = conditionStatus(pod, "Ready") === "True" ? "Running" : "NotReady";
    }
  }

  if (isDeleting(pod) && str(pod, "status", "reason") === nodeUnreachablePodReason) {
    reason = "Unknown";
  } else if (isDeleting(pod) && phase !== "Succeeded" && phase !== "Failed") {
    reason = "Terminating";
  }

  const restartsText =
    restarts !== 0 && lastRestart !== undefined
      ? `${restarts} (${humanAge(new Date(lastRestart).toISOString(), now)} ago)`
      : String(restarts);

  const nodeName = str(pod, "spec", "nodeName") || "<none>";
  const nominated = str(pod, "status", "nominatedNodeName") || "<none>";
  const cells = [
    nameOf(pod),
    `${ready}/${total}`,
    reason,
    restartsText,
    humanAge(at(pod, "metadata", "creationTimestamp"), now),
    podIp(pod),
    nodeName,
    nominated,
    readinessGates(pod),
  ];
  if (phase === "Succeeded") return { cells, conditions: succeededConditions };
  if (phase === "Failed") return { cells, conditions: failedConditions };
  return { cells };
}

/** Printer for core/v1 pods. */
export const podPrinter: TablePrinter = { columns, printRow: printPodRow };
