/**
 * The synchronous heart of a scheduling cycle (upstream's `schedulePod`): PreFilter, Filter over
 * enough nodes, PreScore and Score, then the pick of the best node. No I/O and no awaits, so
 * thousands of nodes are examined without yielding.
 */
import type { Pod } from "../api/index.ts";
import type { DeepReadonly, Random } from "../util/index.ts";
import type { Snapshot } from "./cache/index.ts";
import {
  type CycleState,
  Diagnosis,
  isRejected,
  isSuccess,
  type NodeInfo,
  type Status,
  statusError,
  unresolvable,
} from "./framework/index.ts";
import type { BatchMemo, Framework, ScoreReuse } from "./runtime/index.ts";

/** Below this many nodes every node is filtered (upstream's `minFeasibleNodesToFind`). */
export const minFeasibleNodesToFind = 100;
/** The adaptive percentage never drops below this (upstream's `minFeasibleNodesPercentageToFind`). */
export const minFeasibleNodesPercentageToFind = 5;

/**
 * How many feasible nodes are enough: all below 100 nodes; otherwise `percentage` of them (the
 * adaptive default is 50% minus 1% per 125 nodes, at least 5%), but at least 100.
 */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let p = percentage;
  if (p <= 0) {
    p = 50 - Math.trunc(numAllNodes / 125);
    if (p < minFeasibleNodesPercentageToFind) p = minFeasibleNodesPercentageToFind;
  }
  const n = Math.trunc((numAllNodes * Math.min(p, 100)) / 100);
  return n < minFeasibleNodesToFind ? minFeasibleNodesToFind : n;
}

export interface FilterOutcome {
  readonly feasible: NodeInfo[];
  readonly diagnosis: Diagnosis;
  /** An internal error (a plugin failed): the attempt ends with SchedulerError. */
  readonly error?: Error;
  /**
   * With a memo: where each feasible node sits in the snapshot's node list, so Score can reuse
   * its answers too (see `prioritizeAndSelect`). Undefined when the memo was not used.
   */
  readonly positions?: number[];
}

export interface NodeSelection {
  /** Where the next filter pass starts, so every node gets its turn across pods. */
  nextStartNodeIndex: number;
  readonly percentageOfNodesToScore: number;
}

function passFilters(
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  nodes: readonly NodeInfo[],
  diagnosis: Diagnosis,
  selection: NodeSelection,
  allNodeCount: number,
  batch: BatchMemo | undefined,
): { feasible: NodeInfo[]; positions?: number[]; error?: Error } {
  const total = nodes.length;
  let wanted = numFeasibleNodesToFind(
    fw.percentageOfNodesToScore || selection.percentageOfNodesToScore,
    total,
  );
  if (!fw.hasScorePlugins) wanted = 1;
  const feasible: NodeInfo[] = [];
  const start = selection.nextStartNodeIndex % Math.max(total, 1);
  const filters = fw.activeFilterPlugins(state);
  // Without nominated pods anywhere, each node needs one Filter pass and no lookup.
  const withNominated = fw.hasNominatedPods();
  // Nominated pods make a node's answer depend on the pod's priority: nothing is reused then.
  // Answers are kept by position in `nodes` (the snapshot's list: see findNodesThatFitPod).
  const memo = withNominated || filters.length === 0 ? undefined : batch;
  const positions: number[] | undefined = memo === undefined ? undefined : [];
  let processed = 0;
  for (let i = 0; i < total && feasible.length < wanted; i++) {
    let at = start + i;
    if (at >= total) at -= total;
    const nodeInfo = nodes[at] as NodeInfo;
    processed++;
    if (filters.length === 0) {
      feasible.push(nodeInfo);
      continue;
    }
    let status = memo?.filterStatus(at, nodeInfo);
    if (status === undefined) {
      status = withNominated
        ? fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo, filters)
        : fw.runFilterPlugins(state, pod, nodeInfo, filters);
      if (memo !== undefined && (isSuccess(status) || isRejected(status))) {
        memo.recordFilter(at, nodeInfo, status);
      }
    }
    if (isSuccess(status)) {
      feasible.push(nodeInfo);
      positions?.push(at);
    } else if (isRejected(status)) {
      diagnosis.nodeToStatus.set(nodeInfo.name, status);
      diagnosis.addPluginStatus(status);
    } else {
      selection.nextStartNodeIndex = (start + processed) % Math.max(allNodeCount, 1);
      return { feasible, error: statusError(status) };
    }
  }
  selection.nextStartNodeIndex = (start + processed) % Math.max(allNodeCount, 1);
  return positions === undefined ? { feasible } : { feasible, positions };
}

/**
 * PreFilter, then Filter: the nominated node first, then the others from where we left off. With
 * `batch` (a memo started for this pod's signature), Filter answers of unchanged nodes are reused.
 */
export function findNodesThatFitPod(
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  snapshot: Snapshot,
  selection: NodeSelection,
  batch?: BatchMemo,
): FilterOutcome {
  const diagnosis = new Diagnosis();
  const allNodes = snapshot.list();
  const pre = fw.runPreFilterPlugins(state, pod, allNodes);
  if (!isSuccess(pre.status)) {
    if (!isRejected(pre.status)) {
      return { feasible: [], diagnosis, error: statusError(pre.status) };
    }
    diagnosis.nodeToStatus.setAbsentNodesStatus(pre.status);
    diagnosis.preFilterMsg = pre.status.reasons.join(", ");
    diagnosis.addPluginStatus(pre.status);
    return { feasible: [], diagnosis };
  }

  const nominated = pod.status?.nominatedNodeName ?? "";
  if (nominated !== "") {
    const nodeInfo = snapshot.get(nominated);
    if (nodeInfo !== undefined) {
      const result = passFilters(
        fw,
        state,
        pod,
        [nodeInfo],
        diagnosis,
        { nextStartNodeIndex: 0, percentageOfNodesToScore: 100 },
        1,
        undefined,
      );
      if (result.error === undefined && result.feasible.length > 0) {
        return { feasible: result.feasible, diagnosis };
      }
    }
  }

  let nodes = allNodes;
  // Answers are kept by position in the snapshot's list: a narrowed list goes without them.
  let memo = batch;
  if (pre.nodeNames !== undefined) {
    memo = undefined;
    const narrowed: NodeInfo[] = [];
    for (const name of pre.nodeNames) {
      const nodeInfo = snapshot.get(name);
      if (nodeInfo !== undefined) narrowed.push(nodeInfo);
    }
    nodes = narrowed;
    const plugins = [...pre.pluginsWithNodes].sort();
    diagnosis.nodeToStatus.setAbsentNodesStatus(
      unresolvable(`node(s) didn't satisfy plugin(s) [${plugins.join(" ")}]`),
    );
  }
  memo?.beginFilter(state, allNodes.length);
  const result = passFilters(fw, state, pod, nodes, diagnosis, selection, allNodes.length, memo);
  if (result.error !== undefined) {
    return { feasible: result.feasible, diagnosis, error: result.error };
  }
  return result.positions === undefined
    ? { feasible: result.feasible, diagnosis }
    : { feasible: result.feasible, diagnosis, positions: result.positions };
}

export type ScoreOutcome = { readonly host: string } | { readonly error: Error };

/**
 * PreScore and Score the feasible nodes and pick the highest total; ties are broken uniformly at
 * random (one draw of the injected Random among them: the distribution of upstream's reservoir
 * sampling). Without score plugins any node will do. With `reuse` (the memo and the positions
 * Filter reported), raw scores of unchanged nodes are reused (see `BatchMemo`).
 */
export function prioritizeAndSelect(
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  feasible: readonly NodeInfo[],
  random: Random,
  reuse?: ScoreReuse,
): ScoreOutcome {
  if (feasible.length === 1) return { host: (feasible[0] as NodeInfo).name };
  let totals: readonly number[];
  if (!fw.hasScorePlugins) {
    totals = feasible.map(() => 1);
  } else {
    const pre: Status = fw.runPreScorePlugins(state, pod, feasible);
    if (!isSuccess(pre)) return { error: statusError(pre) };
    const scored = fw.runScorePlugins(state, pod, feasible, reuse);
    if (!isSuccess(scored.status)) return { error: statusError(scored.status) };
    totals = scored.totals;
  }
  let best = Number.NEGATIVE_INFINITY;
  let ties = 0;
  for (let i = 0; i < feasible.length; i++) {
    const score = totals[i] ?? 0;
    if (score > best) {
      best = score;
      ties = 1;
    } else if (score === best) {
      ties++;
    }
  }
  // One draw picks among the ties: on an empty cluster hundreds of nodes tie, and a draw per
  // tie (upstream's reservoir) would cost a random number, boxed, for each.
  let pick = ties > 1 ? random.int(ties) : 0;
  for (let i = 0; i < feasible.length; i++) {
    if ((totals[i] ?? 0) !== best) continue;
    if (pick === 0) return { host: (feasible[i] as NodeInfo).name };
    pick--;
  }
  return { host: "" };
}
