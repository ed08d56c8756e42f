/**
 * The DoNotSchedule half of PodTopologySpread: PreFilter counts the matching pods per topology
 * domain; Filter rejects a node when placing the pod there would make the domain exceed the
 * global minimum by more than `maxSkew`.
 */
import { type Node, type NodeTest, requiredNodeAffinity } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import type { NodeInfo, PodObject, StateData } from "../../framework/index.ts";
import {
  type Constraint,
  countMatchingPods,
  nodeHasAllTopologyKeys,
  nodeIncluded,
} from "./constraints.ts";

export const errReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const errReasonNodeLabelNotMatch = `${errReasonConstraintsNotMatch} (missing required label)`;

interface Path {
  value: string;
  num: number;
}

/** The two domains with the fewest matching pods; [0] always holds the minimum. */
class CriticalPaths {
  readonly paths: [Path, Path] = [
    { value: "", num: Number.MAX_SAFE_INTEGER },
    { value: "", num: Number.MAX_SAFE_INTEGER },
  ];

  update(value: string, num: number): void {
    const [p0, p1] = this.paths;
    const existing = value === p0.value ? p0 : value === p1.value ? p1 : undefined;
    if (existing !== undefined) {
      existing.num = num;
      if (p0.num > p1.num) this.paths.reverse();
    } else if (num < p0.num) {
      this.paths[1] = { ...p0 };
      this.paths[0] = { value, num };
    } else if (num < p1.num) {
      this.paths[1] = { value, num };
    }
  }

  clone(): CriticalPaths {
    const copy = new CriticalPaths();
    copy.paths[0] = { ...this.paths[0] };
    copy.paths[1] = { ...this.paths[1] };
    return copy;
  }
}

export class FilterState implements StateData {
  readonly constraints: readonly Constraint[];
  readonly requiredAffinity: NodeTest;
  /** Per constraint: topology value → matching pods. */
  readonly counts: Map<string, number>[];
  readonly criticalPaths: CriticalPaths[];

  constructor(
    constraints: readonly Constraint[],
    requiredAffinity: NodeTest,
    counts: Map<string, number>[],
    criticalPaths: CriticalPaths[],
  ) {
    this.constraints = constraints;
    this.requiredAffinity = requiredAffinity;
    this.counts = counts;
    this.criticalPaths = criticalPaths;
  }

  /** The global minimum for the skew, 0 while fewer than `minDomains` domains exist. */
  minMatchNum(i: number): number {
    const constraint = this.constraints[i] as Constraint;
    if ((this.counts[i]?.size ?? 0) < constraint.minDomains) return 0;
    return this.criticalPaths[i]?.paths[0].num ?? 0;
  }

  clone(): FilterState {
    return new FilterState(
      this.constraints,
      this.requiredAffinity,
      this.counts.map((m) => new Map(m)),
      this.criticalPaths.map((p) => p.clone()),
    );
  }

  /** Adds (`delta` 1) or removes (-1) a pod on `node` from the counts (PreFilter extensions). */
  update(
    pod: PodObject,
    preemptor: PodObject,
    node: DeepReadonly<Node> | undefined,
    delta: number,
  ): void {
    if (node === undefined) return;
    if ((pod.metadata.namespace ?? "") !== (preemptor.metadata.namespace ?? "")) return;
    if (!nodeHasAllTopologyKeys(node, this.constraints)) return;
    for (let i = 0; i < this.constraints.length; i++) {
      const c = this.constraints[i] as Constraint;
      if (!c.selector.test(pod.metadata.labels)) continue;
      if (!nodeIncluded(c, preemptor, node, this.requiredAffinity)) continue;
      const value = node.metadata.labels?.[c.topologyKey] ?? "";
      const counts = this.counts[i] as Map<string, number>;
      const num = (counts.get(value) ?? 0) + delta;
      counts.set(value, num);
      this.criticalPaths[i]?.update(value, num);
    }
  }
}

/** Counts matching pods per domain over `nodes` (every node of the snapshot). */
export function computeFilterState(
  pod: PodObject,
  constraints: readonly Constraint[],
  nodes: readonly NodeInfo[],
): FilterState {
  const requiredAffinity = requiredNodeAffinity(pod);
  const counts = constraints.map(() => new Map<string, number>());
  const namespace = pod.metadata.namespace ?? "";
  for (const nodeInfo of nodes) {
    const node = nodeInfo.node;
    if (node === undefined || !nodeHasAllTopologyKeys(node, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i] as Constraint;
      if (!nodeIncluded(c, pod, node, requiredAffinity)) continue;
      const value = node.metadata.labels?.[c.topologyKey] ?? "";
      const m = counts[i] as Map<string, number>;
      m.set(value, (m.get(value) ?? 0) + countMatchingPods(nodeInfo.pods, c.selector, namespace));
    }
  }
  const criticalPaths = counts.map((m) => {
    const paths = new CriticalPaths();
    for (const [value, num] of m) paths.update(value, num);
    return paths;
  });
  return new FilterState(constraints, requiredAffinity, counts, criticalPaths);
}

/** Upstream's Filter: missing topology label → unresolvable; skew over maxSkew → unschedulable. */
export function filterNode(
  state: FilterState,
  pod: PodObject,
  nodeInfo: NodeInfo,
): "fits" | "missingLabel" | "skew" {
  const labels = nodeInfo.node?.metadata.labels;
  for (let i = 0; i < state.constraints.length; i++) {
    const c = state.constraints[i] as Constraint;
    const value = labels?.[c.topologyKey];
    if (value === undefined) return "missingLabel";
    const selfMatch = c.selector.test(pod.metadata.labels) ? 1 : 0;
    const matchNum = state.counts[i]?.get(value) ?? 0;
    const skew = matchNum + selfMatch - state.minMatchNum(i);
    if (skew > c.maxSkew) return "skew";
  }
  return "fits";
}
