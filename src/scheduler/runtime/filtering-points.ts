/**
 * The extension points up to scoring (upstream's PreEnqueue, PreFilter, PreFilter extensions,
 * PostFilter and PreScore runners): how each plugin's answer combines into the point's status.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  asStatus,
  type CycleState,
  isRejected,
  isSuccess,
  type NodeInfo,
  type NodeToStatusReader,
  type PodInfo,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreEnqueuePlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type Status,
  statusMessage,
  success,
  unresolvable,
  unschedulable,
  withPlugin,
} from "../framework/index.ts";
import { failure } from "./scoring.ts";

/** The outcome of PreFilter: the status, and the nodes worth filtering (undefined: all). */
export interface PreFilterOutcome {
  readonly status: Status;
  readonly nodeNames?: ReadonlySet<string>;
  /** Plugins that narrowed the node set (for the "didn't satisfy plugin(s)" message). */
  readonly pluginsWithNodes: readonly string[];
}

/**
 * PreFilter: Skip disables the plugin's Filter; UnschedulableAndUnresolvable stops at once;
 * Unschedulable lets the remaining plugins run (preemption needs their state); node sets are
 * intersected, and an empty intersection rejects the pod.
 */
export function runPreFilter(
  plugins: readonly PreFilterPlugin[],
  state: CycleState,
  pod: DeepReadonly<Pod>,
  nodes: readonly NodeInfo[],
): PreFilterOutcome {
  let nodeNames: Set<string> | undefined;
  const pluginsWithNodes: string[] = [];
  let rejected: Status | undefined;
  for (const plugin of plugins) {
    let result: ReturnType<PreFilterPlugin["preFilter"]>;
    try {
      result = plugin.preFilter(state, pod, nodes);
    } catch (error: unknown) {
      result = { status: asStatus(error) };
    }
    const { status } = result;
    if (status.code === "Skip") {
      state.skipFilterPlugins.add(plugin.name);
      continue;
    }
    if (!isSuccess(status)) {
      const attributed = withPlugin(status, plugin.name);
      if (status.code === "UnschedulableAndUnresolvable")
        return { status: attributed, pluginsWithNodes };
      if (status.code === "Unschedulable") {
        rejected = attributed;
        continue;
      }
      return {
        status: failure(`running PreFilter plugin "${plugin.name}"`, status, plugin.name),
        pluginsWithNodes,
      };
    }
    if (result.nodeNames === undefined) continue;
    pluginsWithNodes.push(plugin.name);
    nodeNames =
      nodeNames === undefined
        ? new Set(result.nodeNames)
        : new Set([...nodeNames].filter((n) => result.nodeNames?.has(n)));
    if (nodeNames.size === 0) {
      const message =
        pluginsWithNodes.length === 1
          ? `node(s) didn't satisfy plugin ${pluginsWithNodes[0]}`
          : `node(s) didn't satisfy plugin(s) [${pluginsWithNodes.join(" ")}] simultaneously`;
      return { status: unresolvable(message), nodeNames, pluginsWithNodes };
    }
  }
  return {
    status: rejected ?? success,
    ...(nodeNames === undefined ? {} : { nodeNames }),
    pluginsWithNodes,
  };
}

export function runPreFilterExtension(
  plugins: readonly PreFilterPlugin[],
  op: "addPod" | "removePod",
  state: CycleState,
  podToSchedule: DeepReadonly<Pod>,
  podInfo: PodInfo,
  nodeInfo: NodeInfo,
): Status {
  for (const plugin of plugins) {
    const ext = plugin.preFilterExtensions;
    if (ext === undefined || state.skipFilterPlugins.has(plugin.name)) continue;
    let status: Status;
    try {
      status = ext[op](state, podToSchedule, podInfo, nodeInfo);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (!isSuccess(status)) {
      const what = op === "addPod" ? "AddPod" : "RemovePod";
      return failure(`running ${what} on PreFilter plugin "${plugin.name}"`, status, plugin.name);
    }
  }
  return success;
}

/**
 * PostFilter: the first success or unresolvable answer wins; otherwise the rejections' reasons
 * are joined, keeping the last meaningful nomination.
 */
export async function runPostFilter(
  plugins: readonly PostFilterPlugin[],
  state: CycleState,
  pod: DeepReadonly<Pod>,
  statuses: NodeToStatusReader,
): Promise<PostFilterResult> {
  let nominating: PostFilterResult["nominatingInfo"];
  const reasons: string[] = [];
  let rejector = "";
  for (const plugin of plugins) {
    let result: PostFilterResult;
    try {
      result = await plugin.postFilter(state, pod, statuses);
    } catch (error: unknown) {
      result = { status: asStatus(error) };
    }
    const { status } = result;
    if (isSuccess(status)) return result;
    if (status.code === "UnschedulableAndUnresolvable") {
      return { ...result, status: withPlugin(status, plugin.name) };
    }
    if (!isRejected(status))
      return {
        status: withPlugin(asStatus(status.error ?? new Error(statusMessage(status))), plugin.name),
      };
    if (result.nominatingInfo !== undefined && result.nominatingInfo.mode !== "Noop") {
      nominating = result.nominatingInfo;
    }
    reasons.push(...status.reasons);
    if (rejector === "") rejector = plugin.name;
  }
  const status = withPlugin(unschedulable(...reasons), rejector);
  return nominating === undefined ? { status } : { status, nominatingInfo: nominating };
}

/** PreScore: Skip disables the plugin's Score for the cycle. */
export function runPreScore(
  plugins: readonly PreScorePlugin[],
  state: CycleState,
  pod: DeepReadonly<Pod>,
  nodes: readonly NodeInfo[],
): Status {
  for (const plugin of plugins) {
    let status: Status;
    try {
      status = plugin.preScore(state, pod, nodes);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (status.code === "Skip") {
      state.skipScorePlugins.add(plugin.name);
      continue;
    }
    if (!isSuccess(status)) {
      return failure(`running PreScore plugin "${plugin.name}"`, status, plugin.name);
    }
  }
  return success;
}

/** PreEnqueue: the first plugin that does not let the pod in gates it. */
export function runPreEnqueue(
  plugins: readonly PreEnqueuePlugin[],
  pod: DeepReadonly<Pod>,
): { status: Status; plugin: string } {
  for (const plugin of plugins) {
    let status: Status;
    try {
      status = plugin.preEnqueue(pod);
    } catch (error: unknown) {
      status = asStatus(error);
    }
    if (!isSuccess(status)) return { status: withPlugin(status, plugin.name), plugin: plugin.name };
  }
  return { status: success, plugin: "" };
}
