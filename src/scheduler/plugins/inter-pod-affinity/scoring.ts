/**
 * The preferred half of InterPodAffinity (upstream's scoring.go): each existing pod adds to the
 * topology pair of its node the weights of the incoming pod's preferred terms it matches
 * (anti-affinity subtracts), the weights of its own preferred terms that select the incoming pod,
 * and `hardPodAffinityWeight` for each of its required affinity terms that selects it.
 */
import type { Node } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AffinityTerm,
  affinityTermMatches,
  maxNodeScore,
  type NodeInfo,
  type NodeScore,
  type PodInfo,
  type PodObject,
  type StateData,
  type WeightedAffinityTerm,
} from "../../framework/index.ts";

type Labels = Readonly<Record<string, string>> | undefined;

export class ScoreState implements StateData {
  /** topology key → value → score. */
  readonly topologyScore = new Map<string, Map<string, number>>();

  clone(): ScoreState {
    return this;
  }

  add(term: AffinityTerm, weight: number, node: DeepReadonly<Node>): void {
    const value = node.metadata.labels?.[term.topologyKey];
    if (value === undefined) return;
    let values = this.topologyScore.get(term.topologyKey);
    if (values === undefined) {
      values = new Map();
      this.topologyScore.set(term.topologyKey, values);
    }
    values.set(value, (values.get(value) ?? 0) + weight);
  }
}

function processTerms(
  state: ScoreState,
  terms: readonly WeightedAffinityTerm[],
  pod: PodObject,
  nsLabels: Labels,
  node: DeepReadonly<Node>,
  sign: number,
): void {
  for (const term of terms) {
    if (affinityTermMatches(term, pod, nsLabels)) state.add(term, term.weight * sign, node);
  }
}

export interface ScoreInputs {
  readonly incoming: PodInfo;
  /** Labels of the incoming pod's namespace. */
  readonly namespaceLabels: Labels;
  /** Labels of an existing pod's namespace. */
  readonly namespaceLabelsOf: (namespace: string) => Labels;
  readonly hardPodAffinityWeight: number;
}

/**
 * Walks `nodes` (every node when the incoming pod has preferred terms, otherwise only nodes with
 * affinity pods) and accumulates the topology scores.
 */
export function computeScoreState(inputs: ScoreInputs, nodes: readonly NodeInfo[]): ScoreState {
  const { incoming, namespaceLabels, hardPodAffinityWeight } = inputs;
  const hasConstraints =
    incoming.preferredAffinityTerms.length > 0 || incoming.preferredAntiAffinityTerms.length > 0;
  const state = new ScoreState();
  for (const nodeInfo of nodes) {
    const node = nodeInfo.node;
    if (node === undefined || Object.keys(node.metadata.labels ?? {}).length === 0) continue;
    const pods = hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
    for (const existing of pods) {
      if (hasConstraints) {
        const existingNs = inputs.namespaceLabelsOf(existing.pod.metadata.namespace ?? "");
        processTerms(state, incoming.preferredAffinityTerms, existing.pod, existingNs, node, 1);
        processTerms(
          state,
          incoming.preferredAntiAffinityTerms,
          existing.pod,
          existingNs,
          node,
          -1,
        );
      }
      if (hardPodAffinityWeight > 0) {
        for (const term of existing.requiredAffinityTerms) {
          if (affinityTermMatches(term, incoming.pod, namespaceLabels)) {
            state.add(term, hardPodAffinityWeight, node);
          }
        }
      }
      processTerms(state, existing.preferredAffinityTerms, incoming.pod, namespaceLabels, node, 1);
      processTerms(
        state,
        existing.preferredAntiAffinityTerms,
        incoming.pod,
        namespaceLabels,
        node,
        -1,
      );
    }
  }
  return state;
}

/** The sum of the topology scores of the node's pairs. */
export function scoreNode(state: ScoreState, nodeInfo: NodeInfo): number {
  const labels = nodeInfo.node?.metadata.labels;
  if (labels === undefined) return 0;
  let score = 0;
  for (const [key, values] of state.topologyScore) {
    const value = labels[key];
    if (value !== undefined) score += values.get(value) ?? 0;
  }
  return score;
}

/** Scales into [0, 100] between the lowest and the highest score. */
export function normalizeScores(state: ScoreState, scores: NodeScore[]): void {
  if (state.topologyScore.size === 0) return;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of scores) {
    if (s.score > max) max = s.score;
    if (s.score < min) min = s.score;
  }
  const diff = max - min;
  for (const s of scores) {
    s.score = diff > 0 ? Math.trunc((maxNodeScore * (s.score - min)) / diff) : 0;
  }
}
