/** Topology spread constraints compiled for one pod, and the counting rules both phases share. */
import {
  ApiError,
  doNotScheduleTaints,
  findMatchingUntoleratedTaint,
  type LabelSelector,
  type LabelSelectorExpr,
  type Node,
  type NodeTest,
  nothing,
  selectorFromLabelSelector,
  type TopologySpreadConstraint,
} from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import type { PodInfo, PodObject } from "../../framework/index.ts";

export interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: LabelSelectorExpr;
  readonly minDomains: number;
  /** Honor (default): only nodes matching the pod's node affinity count as domains. */
  readonly nodeAffinityPolicy: "Honor" | "Ignore";
  /** Ignore (default); Honor: only nodes whose taints the pod tolerates count. */
  readonly nodeTaintsPolicy: "Honor" | "Ignore";
}

export const hostnameLabel = "kubernetes.io/hostname";

function compile(
  pod: PodObject,
  labelSelector: DeepReadonly<LabelSelector> | undefined,
  matchLabelKeys: readonly string[] | undefined,
): LabelSelectorExpr {
  let selector = labelSelector;
  const labels = pod.metadata.labels ?? {};
  const extra: { key: string; operator: "In"; values: string[] }[] = [];
  for (const key of matchLabelKeys ?? []) {
    const value = labels[key];
    if (value !== undefined) extra.push({ key, operator: "In", values: [value] });
  }
  if (extra.length > 0 && selector !== undefined) {
    selector = { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
  }
  try {
    return selectorFromLabelSelector(selector as LabelSelector | undefined);
  } catch (error: unknown) {
    if (error instanceof ApiError) return nothing();
    throw error;
  }
}

/** The pod's constraints with the given `whenUnsatisfiable`, compiled. */
export function constraintsOf(
  pod: PodObject,
  whenUnsatisfiable: "DoNotSchedule" | "ScheduleAnyway",
  defaults: readonly DeepReadonly<TopologySpreadConstraint>[] = [],
): Constraint[] {
  const own = pod.spec.topologySpreadConstraints ?? [];
  const source = own.length > 0 ? own : defaults;
  const out: Constraint[] = [];
  for (const c of source) {
    if (c.whenUnsatisfiable !== whenUnsatisfiable) continue;
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector: compile(pod, c.labelSelector, c.matchLabelKeys),
      minDomains: c.minDomains ?? 1,
      nodeAffinityPolicy: c.nodeAffinityPolicy ?? "Honor",
      nodeTaintsPolicy: c.nodeTaintsPolicy ?? "Ignore",
    });
  }
  return out;
}

/** Whether the node carries every constraint's topology key. */
export function nodeHasAllTopologyKeys(
  node: DeepReadonly<Node>,
  constraints: readonly Constraint[],
): boolean {
  const labels = node.metadata.labels;
  if (labels === undefined) return constraints.length === 0;
  for (const c of constraints) if (labels[c.topologyKey] === undefined) return false;
  return true;
}

/** Whether the node counts as a domain for the constraint under its inclusion policies. */
export function nodeIncluded(
  constraint: Constraint,
  pod: PodObject,
  node: DeepReadonly<Node>,
  requiredAffinity: NodeTest,
): boolean {
  if (constraint.nodeAffinityPolicy === "Honor" && !requiredAffinity(node)) return false;
  if (
    constraint.nodeTaintsPolicy === "Honor" &&
    findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, doNotScheduleTaints) !==
      undefined
  ) {
    return false;
  }
  return true;
}

/** Pods in `namespace` selected by `selector`, terminating pods excluded. */
export function countMatchingPods(
  pods: readonly PodInfo[],
  selector: LabelSelectorExpr,
  namespace: string,
): number {
  let count = 0;
  for (const info of pods) {
    const p = info.pod;
    if (p.metadata.deletionTimestamp !== undefined) continue;
    if ((p.metadata.namespace ?? "") !== namespace) continue;
    if (selector.test(p.metadata.labels)) count++;
  }
  return count;
}
