/**
 * The ScheduleAnyway half of PodTopologySpread: nodes in domains with fewer matching pods score
 * higher. Counts per domain are weighted by log(number of domains + 2) so small topologies are not
 * drowned by big ones, plus `maxSkew - 1` to tolerate small skews (upstream's scoring.go).
 */
import { requiredNodeAffinity } from "../../../api/index.ts";
import {
  maxNodeScore,
  type NodeInfo,
  type NodeScore,
  type PodObject,
  type StateData,
} from "../../framework/index.ts";
import {
  type Constraint,
  countMatchingPods,
  hostnameLabel,
  nodeHasAllTopologyKeys,
  nodeIncluded,
} from "./constraints.ts";

export class ScoreState implements StateData {
  readonly constraints: readonly Constraint[];
  /** Feasible nodes missing a topology key: scored 0. */
  readonly ignoredNodes: ReadonlySet<string>;
  /** Per constraint: topology value → matching pods (hostname constraints count per node). */
  readonly counts: readonly Map<string, number>[];
  readonly weights: readonly number[];

  constructor(
    constraints: readonly Constraint[],
    ignoredNodes: ReadonlySet<string>,
    counts: readonly Map<string, number>[],
    weights: readonly number[],
  ) {
    this.constraints = constraints;
    this.ignoredNodes = ignoredNodes;
    this.counts = counts;
    this.weights = weights;
  }

  clone(): ScoreState {
    return this;
  }
}

/**
 * Builds the score state: the domains of the feasible `filtered` nodes, and their matching pod
 * counts taken over `allNodes`.
 */
export function computeScoreState(
  pod: PodObject,
  constraints: readonly Constraint[],
  filtered: readonly NodeInfo[],
  allNodes: readonly NodeInfo[],
): ScoreState {
  const ignored = new Set<string>();
  const counts = constraints.map(() => new Map<string, number>());
  const sizes = constraints.map(() => 0);
  for (const nodeInfo of filtered) {
    const node = nodeInfo.node;
    if (node === undefined || !nodeHasAllTopologyKeys(node, constraints)) {
      ignored.add(nodeInfo.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey === hostnameLabel) return;
      const value = node.metadata.labels?.[c.topologyKey] ?? "";
      const m = counts[i] as Map<string, number>;
      if (!m.has(value)) {
        m.set(value, 0);
        sizes[i] = (sizes[i] ?? 0) + 1;
      }
    });
  }
  const weights = constraints.map((c, i) => {
    const size = c.topologyKey === hostnameLabel ? filtered.length - ignored.size : (sizes[i] ?? 0);
    return Math.log(size + 2);
  });
  const requiredAffinity = requiredNodeAffinity(pod);
  const namespace = pod.metadata.namespace ?? "";
  for (const nodeInfo of allNodes) {
    const node = nodeInfo.node;
    if (node === undefined || !nodeHasAllTopologyKeys(node, constraints)) continue;
    constraints.forEach((c, i) => {
      if (c.topologyKey === hostnameLabel) return;
      if (!nodeIncluded(c, pod, node, requiredAffinity)) return;
      const value = node.metadata.labels?.[c.topologyKey] ?? "";
      const m = counts[i] as Map<string, number>;
      const current = m.get(value);
      if (current === undefined) return;
      m.set(value, current + countMatchingPods(nodeInfo.pods, c.selector, namespace));
    });
  }
  return new ScoreState(constraints, ignored, counts, weights);
}

/** The raw score: matching pods in the node's domains, weighted; lower is better. */
export function scoreNode(state: ScoreState, pod: PodObject, nodeInfo: NodeInfo): number {
  if (state.ignoredNodes.has(nodeInfo.name)) return 0;
  const labels = nodeInfo.node?.metadata.labels;
  const namespace = pod.metadata.namespace ?? "";
  let score = 0;
  state.constraints.forEach((c, i) => {
    const value = labels?.[c.topologyKey];
    if (value === undefined) return;
    const count =
      c.topologyKey === hostnameLabel
        ? countMatchingPods(nodeInfo.pods, c.selector, namespace)
        : (state.counts[i]?.get(value) ?? 0);
    score += count * (state.weights[i] ?? 0) + (c.maxSkew - 1);
  });
  return Math.round(score);
}

/** Reverses into [0, 100]: the emptiest domain gets 100; ignored nodes get 0. */
export function normalizeScores(state: ScoreState, scores: NodeScore[]): void {
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  for (const s of scores) {
    if (state.ignoredNodes.has(s.name)) continue;
    if (s.score < min) min = s.score;
    if (s.score > max) max = s.score;
  }
  for (const s of scores) {
    if (state.ignoredNodes.has(s.name)) {
      s.score = 0;
    } else if (max === 0) {
      s.score = maxNodeScore;
    } else {
      s.score = Math.trunc((maxNodeScore * (max + min - s.score)) / max);
    }
  }
}
