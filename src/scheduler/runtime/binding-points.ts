/**
 * The extension points after a node is chosen (upstream's Reserve, Permit, WaitOnPermit, PreBind,
 * Bind, PostBind runners): how each plugin's answer combines into the point's status.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly, Logger } from "../../util/index.ts";
import {
  asStatus,
  type BindPlugin,
  type CycleState,
  isRejected,
  isSuccess,
  maxPermitTimeoutMs,
  type PermitPlugin,
  type PostBindPlugin,
  type PreBindPlugin,
  type ReservePlugin,
  type Status,
  skip,
  success,
  waitStatus,
  withPlugin,
} from "../framework/index.ts";
import { failure } from "./scoring.ts";
import type { WaitingPods } from "./waiting-pods.ts";

type PodObject = DeepReadonly<Pod>;

/** Reserve: the first failure wins; the caller then unreserves. */
export function runReserve(
  plugins: readonly ReservePlugin[],
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): Status {
  for (const plugin of plugins) {
    let status: Status;
    try {
      status = plugin.reserve(state, pod, nodeName);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (isSuccess(status)) continue;
    if (isRejected(status)) return withPlugin(status, plugin.name);
    return failure(`running Reserve plugin "${plugin.name}"`, status, plugin.name);
  }
  return success;
}

/** Unreserve in reverse order; failures are logged, never thrown. */
export function runUnreserve(
  plugins: readonly ReservePlugin[],
  logger: Logger,
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): void {
  for (let i = plugins.length - 1; i >= 0; i--) {
    const plugin = plugins[i] as ReservePlugin;
    try {
      plugin.unreserve(state, pod, nodeName);
    } catch (error: unknown) {
      logger.error("Unreserve failed", { plugin: plugin.name, error });
    }
  }
}

/**
 * Permit: a rejection wins at once; Waits collect per-plugin timeouts (capped at 15 minutes).
 * `waits` is set when the pod must wait.
 */
export function runPermit(
  plugins: readonly PermitPlugin[],
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): { status: Status; waits?: ReadonlyMap<string, number> } {
  const waits = new Map<string, number>();
  for (const plugin of plugins) {
    let result: ReturnType<PermitPlugin["permit"]>;
    try {
      result = plugin.permit(state, pod, nodeName);
    } catch (error: unknown) {
      result = { status: asStatus(error) };
    }
    const { status } = result;
    if (isSuccess(status)) continue;
    if (isRejected(status)) return { status: withPlugin(status, plugin.name) };
    if (status.code === "Wait") {
      const timeout = Math.min(result.timeoutMs ?? maxPermitTimeoutMs, maxPermitTimeoutMs);
      waits.set(plugin.name, timeout);
      continue;
    }
    return { status: failure(`running Permit plugin "${plugin.name}"`, status, plugin.name) };
  }
  if (waits.size === 0) return { status: success };
  const message = `one or more plugins asked to wait and no plugin rejected pod "${pod.metadata.name ?? ""}"`;
  return { status: waitStatus(message), waits };
}

/** Waits until the parked pod is allowed or rejected (success at once if it is not parked). */
export async function waitOnPermit(waitingPods: WaitingPods, pod: PodObject): Promise<Status> {
  const uid = pod.metadata.uid ?? "";
  const waiting = waitingPods.get(uid);
  if (waiting === undefined) return success;
  const status = await waiting.outcome;
  waitingPods.remove(uid);
  if (isSuccess(status) || isRejected(status)) return status;
  return failure("waiting on permit for pod", status, status.plugin);
}

/** PreBind: each in order; the first failure wins. */
export async function runPreBind(
  plugins: readonly PreBindPlugin[],
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): Promise<Status> {
  for (const plugin of plugins) {
    let status: Status;
    try {
      status = await plugin.preBind(state, pod, nodeName);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (isSuccess(status) || status.code === "Skip") continue;
    if (isRejected(status)) return withPlugin(status, plugin.name);
    return failure(`running PreBind plugin "${plugin.name}"`, status, plugin.name);
  }
  return success;
}

/** Bind: the first plugin that does not Skip decides; Skip when all skip. */
export async function runBind(
  plugins: readonly BindPlugin[],
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): Promise<Status> {
  for (const plugin of plugins) {
    let status: Status;
    try {
      status = await plugin.bind(state, pod, nodeName);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (status.code === "Skip") continue;
    if (isSuccess(status)) return status;
    if (isRejected(status)) return withPlugin(status, plugin.name);
    return failure(`running Bind plugin "${plugin.name}"`, status, plugin.name);
  }
  return skip;
}

/** PostBind: informational; failures are logged. */
export function runPostBind(
  plugins: readonly PostBindPlugin[],
  logger: Logger,
  state: CycleState,
  pod: PodObject,
  nodeName: string,
): void {
  for (const plugin of plugins) {
    try {
      plugin.postBind(state, pod, nodeName);
    } catch (error: unknown) {
      logger.error("PostBind failed", { plugin: plugin.name, error });
    }
  }
}
