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
import type { Framework } from "./runtime/index.ts";

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
): { feasible: NodeInfo[]; error?: Error } {
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
  let processed = 0;
  for (let i = 0; i < total && feasible.length < wanted; i++) {
    const nodeInfo = nodes[(start + i) % total] as NodeInfo;
    processed++;
    if (filters.length === 0) {
      feasible.push(nodeInfo);
      continue;
    }
    const status = withNominated
      ? fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo, filters)
      : fw.runFilterPlugins(state, pod, nodeInfo, filters);
    if (isSuccess(status)) {
      feasible.push(nodeInfo);
    } else if (isRejected(status)) {
      diagnosis.nodeToStatus.set(nodeInfo.name, status);
      diagnosis.addPluginStatus(status);
    } else {
      selection.nextStartNodeIndex = (start + processed) % Math.max(allNodeCount, 1);
      return { feasible, error: statusError(status) };
    }
  }
  selection.nextStartNodeIndex = (start + processed) % Math.max(allNodeCount, 1);
  return { feasible };
}

/** PreFilter, then Filter: the nominated node first, then the others from where we left off. */
export function findNodesThatFitPod(
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  snapshot: Snapshot,
  selection: NodeSelection,
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
      );
      if (result.error === undefined && result.feasible.length > 0) {
        return { feasible: result.feasible, diagnosis };
      }
    }
  }

  let nodes = allNodes;
  if (pre.nodeNames !== undefined) {
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
  const result = passFilters(fw, state, pod, nodes, diagnosis, selection, allNodes.length);
  return result.error === undefined
    ? { feasible: result.feasible, diagnosis }
    : { feasible: result.feasible, diagnosis, error: result.error };
}

export type ScoreOutcome = { readonly host: string } | { readonly error: Error };

/**
 * PreScore and Score the feasible nodes and pick the highest total; ties are broken uniformly at
 * random (reservoir sampling with the injected Random). Without score plugins any node will do.
 */
export function prioritizeAndSelect(
  fw: Framework,
  state: CycleState,
  pod: DeepReadonly<Pod>,
  feasible: readonly NodeInfo[],
  random: Random,
): ScoreOutcome {
  if (feasible.length === 1) return { host: (feasible[0] as NodeInfo).name };
  let totals: readonly number[];
  if (!fw.hasScorePlugins) {
    totals = feasible.map(() => 1);
  } else {
    const pre: Status = fw.runPreScorePlugins(state, pod, feasible);
    if (!isSuccess(pre)) return { error: statusError(pre) };
    const scored = fw.runScorePlugins(state, pod, feasible);
    if (!isSuccess(scored.status)) return { error: statusError(scored.status) };
    totals = scored.totals;
  }
  let best = Number.NEGATIVE_INFINITY;
  let host = "";
  let ties = 0;
  for (let i = 0; i < feasible.length; i++) {
    const score = totals[i] ?? 0;
    if (score > best) {
      best = score;
      host = (feasible[i] as NodeInfo).name;
      ties = 1;
    } else if (score === best) {
      ties++;
      if (random.int(ties) === 0) host = (feasible[i] as NodeInfo).name;
    }
  }
  return { host };
}
