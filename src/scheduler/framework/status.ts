/**
 * The outcome of a plugin at an extension point, as upstream's `framework.Status`: a code, the
 * human-readable reasons (what `kubectl describe` shows), the plugin that produced it and, for
 * `Error`, the failure. Statuses are immutable values; `success` is a shared constant so the hot
 * path (filter on thousands of nodes) allocates nothing when a node fits.
 */

/**
 * - `Success`: the plugin ran and the pod may proceed.
 * - `Error`: an internal failure; the pod goes to the backoff queue, no preemption.
 * - `Unschedulable`: the node does not fit now, but preemption might make room.
 * - `UnschedulableAndUnresolvable`: the node does not fit and preemption cannot help.
 * - `Wait`: a permit plugin holds the pod (gang scheduling); see `WaitingPod`.
 * - `Skip`: the plugin has nothing to do for this pod (PreFilter/PreScore/Bind): its later
 *   extension points are skipped for the cycle.
 * - `Pending`: the pod waits for something outside the scheduler; it is retried as soon as a
 *   queueing hint says so, without backoff.
 */
export type Code =
  | "Success"
  | "Error"
  | "Unschedulable"
  | "UnschedulableAndUnresolvable"
  | "Wait"
  | "Skip"
  | "Pending";

export interface Status {
  readonly code: Code;
  /** Why, in Kubernetes' wording; `statusMessage` joins them with ", ". */
  readonly reasons: readonly string[];
  /** The plugin that returned it; "" until the runtime fills it in. */
  readonly plugin: string;
  /** The failure behind an `Error` status (or the FitError behind a rejection). */
  readonly error?: Error;
}

/** The shared Success status. */
export const success: Status = Object.freeze({ code: "Success", reasons: [], plugin: "" });

/** The shared Skip status. */
export const skip: Status = Object.freeze({ code: "Skip", reasons: [], plugin: "" });

/** A status with the given code and reasons. */
export function newStatus(code: Code, ...reasons: string[]): Status {
  if (code === "Success" && reasons.length === 0) return success;
  if (code === "Skip" && reasons.length === 0) return skip;
  return { code, reasons, plugin: "" };
}

/** The node does not fit now; preemption may help. */
export function unschedulable(...reasons: string[]): Status {
  return { code: "Unschedulable", reasons, plugin: "" };
}

/** The node does not fit and preemption cannot help. */
export function unresolvable(...reasons: string[]): Status {
  return { code: "UnschedulableAndUnresolvable", reasons, plugin: "" };
}

/** A permit plugin asks the pod to wait. */
export function waitStatus(...reasons: string[]): Status {
  return { code: "Wait", reasons, plugin: "" };
}

/** The pod waits for something outside the scheduler. */
export function pendingStatus(...reasons: string[]): Status {
  return { code: "Pending", reasons, plugin: "" };
}

/** An `Error` status carrying `error` (anything thrown is wrapped in an Error). */
export function asStatus(error: unknown): Status {
  const err = error instanceof Error ? error : new Error(String(error));
  return { code: "Error", reasons: [err.message], plugin: "", error: err };
}

/** The same status attributed to `plugin`. */
export function withPlugin(status: Status, plugin: string): Status {
  if (status.plugin === plugin) return status;
  return { ...status, plugin };
}

/** The same code with `error`'s message as the only reason (upstream's `WithError`). */
export function withError(status: Status, error: Error): Status {
  return { code: status.code, reasons: [error.message], plugin: status.plugin, error };
}

export function isSuccess(status: Status): boolean {
  return status.code === "Success";
}

/** Unschedulable, UnschedulableAndUnresolvable or Pending: the pod was turned away, not failed. */
export function isRejected(status: Status): boolean {
  return (
    status.code === "Unschedulable" ||
    status.code === "UnschedulableAndUnresolvable" ||
    status.code === "Pending"
  );
}

/** The reasons joined with ", " (upstream's `Message()`). */
export function statusMessage(status: Status): string {
  const { reasons } = status;
  if (reasons.length === 1) return reasons[0] ?? "";
  return reasons.join(", ");
}

/** The failure a non-success status stands for, as an Error. */
export function statusError(status: Status): Error {
  return status.error ?? new Error(statusMessage(status));
}

/**
 * Formats milliseconds as Go's `time.Duration.String()` does (`5m0s`, `1.5s`, `250ms`, `0s`), for
 * messages that quote durations in upstream's wording.
 */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${trim(rest)}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = trim(rest / 1000);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(9)));
}
