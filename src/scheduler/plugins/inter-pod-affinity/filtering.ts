/**
 * The required half of InterPodAffinity (upstream's filtering.go): PreFilter counts, per topology
 * pair (`key`, `value`), the existing pods whose required anti-affinity selects the incoming pod,
 * and the existing pods that match the incoming pod's required affinity and anti-affinity terms.
 * Filter then checks a node's pairs against those counts.
 */
import type { Node } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AffinityTerm,
  affinityTermMatches,
  type NodeInfo,
  type PodInfo,
  type PodObject,
  podMatchesAllAffinityTerms,
  type SchedulerListers,
  type StateData,
} from "../../framework/index.ts";

type Labels = Readonly<Record<string, string>> | undefined;

export const errReasonExistingAntiAffinityRulesNotMatch =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const errReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const errReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

/** `(key, value)` → count; keys are `key + "\u0000" + value`. */
export class TopologyCounts {
  readonly #counts = new Map<string, number>();

  static pair(key: string, value: string): string {
    return `${key}\u0000${value}`;
  }

  get size(): number {
    return this.#counts.size;
  }

  get(key: string, value: string): number {
    return this.#counts.get(TopologyCounts.pair(key, value)) ?? 0;
  }

  /** Adds `delta` to the node's pair for `key` (nothing when the node lacks the label). */
  update(node: DeepReadonly<Node>, key: string, delta: number): void {
    const value = node.metadata.labels?.[key];
    if (value === undefined) return;
    const pair = TopologyCounts.pair(key, value);
    const next = (this.#counts.get(pair) ?? 0) + delta;
    if (next === 0) this.#counts.delete(pair);
    else this.#counts.set(pair, next);
  }

  /** Counts every term once when `pod` matches all of them (affinity: one pod satisfies all). */
  updateWithAffinityTerms(
    terms: readonly AffinityTerm[],
    pod: PodObject,
    node: DeepReadonly<Node>,
    delta: number,
  ): void {
    if (!podMatchesAllAffinityTerms(terms, pod)) return;
    for (const term of terms) this.update(node, term.topologyKey, delta);
  }

  /** Counts each term that selects `pod` (anti-affinity: any match repels). */
  updateWithAntiAffinityTerms(
    terms: readonly AffinityTerm[],
    pod: PodObject,
    nsLabels: Labels,
    node: DeepReadonly<Node>,
    delta: number,
  ): void {
    for (const term of terms) {
      if (affinityTermMatches(term, pod, nsLabels)) this.update(node, term.topologyKey, delta);
    }
  }

  /** Whether any of the node's labels is a pair with a positive count. */
  anyPositiveFor(node: DeepReadonly<Node>): boolean {
    if (this.#counts.size === 0) return false;
    const labels = node.metadata.labels ?? {};
    for (const key of Object.keys(labels)) {
      if ((this.#counts.get(TopologyCounts.pair(key, labels[key] ?? "")) ?? 0) > 0) return true;
    }
    return false;
  }

  clone(): TopologyCounts {
    const copy = new TopologyCounts();
    for (const [k, v] of this.#counts) copy.#counts.set(k, v);
    return copy;
  }
}

export class FilterState implements StateData {
  readonly podInfo: PodInfo;
  readonly namespaceLabels: Labels;
  /** Existing pods whose required anti-affinity selects the incoming pod. */
  readonly existingAntiAffinityCounts: TopologyCounts;
  /** Existing pods matching all of the incoming pod's required affinity terms. */
  readonly affinityCounts: TopologyCounts;
  /** Existing pods matching the incoming pod's required anti-affinity terms. */
  readonly antiAffinityCounts: TopologyCounts;

  constructor(
    podInfo: PodInfo,
    namespaceLabels: Labels,
    existing: TopologyCounts,
    affinity: TopologyCounts,
    anti: TopologyCounts,
  ) {
    this.podInfo = podInfo;
    this.namespaceLabels = namespaceLabels;
    this.existingAntiAffinityCounts = existing;
    this.affinityCounts = affinity;
    this.antiAffinityCounts = anti;
  }

  clone(): FilterState {
    return new FilterState(
      this.podInfo,
      this.namespaceLabels,
      this.existingAntiAffinityCounts.clone(),
      this.affinityCounts.clone(),
      this.antiAffinityCounts.clone(),
    );
  }

  /** Adds (1) or removes (-1) an existing pod on `node` (PreFilter extensions). */
  updateWithPod(podInfo: PodInfo, node: DeepReadonly<Node> | undefined, delta: number): void {
    if (node === undefined) return;
    const incoming = this.podInfo;
    this.existingAntiAffinityCounts.updateWithAntiAffinityTerms(
      podInfo.requiredAntiAffinityTerms,
      incoming.pod,
      this.namespaceLabels,
      node,
      delta,
    );
    this.affinityCounts.updateWithAffinityTerms(
      incoming.requiredAffinityTerms,
      podInfo.pod,
      node,
      delta,
    );
    this.antiAffinityCounts.updateWithAntiAffinityTerms(
      incoming.requiredAntiAffinityTerms,
      podInfo.pod,
      undefined,
      node,
      delta,
    );
  }
}

/**
 * Builds the counts. `withRequiredAntiAffinity` are the nodes running pods with required
 * anti-affinity; `all` every node (only walked when the incoming pod has required terms).
 */
export function computeFilterState(
  podInfo: PodInfo,
  listers: SchedulerListers,
  withRequiredAntiAffinity: readonly NodeInfo[],
  all: readonly NodeInfo[],
): FilterState {
  const pod = podInfo.pod;
  const nsLabels = listers.namespaceLabels(pod.metadata.namespace ?? "");
  const existing = new TopologyCounts();
  for (const nodeInfo of withRequiredAntiAffinity) {
    const node = nodeInfo.node;
    if (node === undefined) continue;
    for (const existingPod of nodeInfo.podsWithRequiredAntiAffinity) {
      existing.updateWithAntiAffinityTerms(
        existingPod.requiredAntiAffinityTerms,
        pod,
        nsLabels,
        node,
        1,
      );
    }
  }
  const affinity = new TopologyCounts();
  const anti = new TopologyCounts();
  const required = podInfo.requiredAffinityTerms;
  const requiredAnti = podInfo.requiredAntiAffinityTerms;
  if (required.length > 0 || requiredAnti.length > 0) {
    for (const nodeInfo of all) {
      const node = nodeInfo.node;
      if (node === undefined) continue;
      for (const existingPod of nodeInfo.pods) {
        affinity.updateWithAffinityTerms(required, existingPod.pod, node, 1);
        const podNs = listers.namespaceLabels(existingPod.pod.metadata.namespace ?? "");
        anti.updateWithAntiAffinityTerms(requiredAnti, existingPod.pod, podNs, node, 1);
      }
    }
  }
  return new FilterState(podInfo, nsLabels, existing, affinity, anti);
}

/**
 * Whether the node is in a domain that has a pod matching all required affinity terms. A pod
 * whose terms match no pod anywhere but that matches its own terms may start the group.
 */
export function satisfyPodAffinity(state: FilterState, node: DeepReadonly<Node>): boolean {
  const terms = state.podInfo.requiredAffinityTerms;
  let podsExist = true;
  for (const term of terms) {
    const value = node.metadata.labels?.[term.topologyKey];
    if (value === undefined) return false;
    if (state.affinityCounts.get(term.topologyKey, value) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return state.affinityCounts.size === 0 && podMatchesAllAffinityTerms(terms, state.podInfo.pod);
}

/** Whether no pod the incoming pod repels runs in the node's domains. */
export function satisfyPodAntiAffinity(state: FilterState, node: DeepReadonly<Node>): boolean {
  if (state.antiAffinityCounts.size === 0) return true;
  for (const term of state.podInfo.requiredAntiAffinityTerms) {
    const value = node.metadata.labels?.[term.topologyKey];
    if (value !== undefined && state.antiAffinityCounts.get(term.topologyKey, value) > 0) {
      return false;
    }
  }
  return true;
}

/** Whether no existing pod's anti-affinity repels the incoming pod from the node's domains. */
export function satisfyExistingPodsAntiAffinity(
  state: FilterState,
  node: DeepReadonly<Node>,
): boolean {
  return !state.existingAntiAffinityCounts.anyPositiveFor(node);
}
