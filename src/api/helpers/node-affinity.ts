/**
 * Node selection as upstream's `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`: a pod's
 * `nodeSelector` and required node affinity (what the scheduler filters on and the kubelet admits
 * with), and the weights of its preferred terms. Selectors are compiled once into predicates so a
 * scheduling cycle can test thousands of nodes without re-reading the pod.
 */
import type { DeepReadonly } from "../../util/index.ts";
import type { Node } from "../core/v1/node-types.ts";
import type {
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PreferredSchedulingTerm,
} from "../core/v1/pod-template.ts";
import type { Pod } from "../core/v1/pod-types.ts";

/** A compiled node predicate. */
export type NodeTest = (node: DeepReadonly<Node>) => boolean;

type Labels = Readonly<Record<string, string>> | undefined;
type RequirementTest = (labels: Labels) => boolean;

/** The only field a `matchFields` requirement may name. */
export const nodeNameField = "metadata.name";

const int64 = /^[+-]?[0-9]+$/;

function parseInt64(text: string | undefined): bigint | undefined {
  if (text === undefined || !int64.test(text)) return undefined;
  const parsed = BigInt(text);
  return parsed >= -(1n << 63n) && parsed < 1n << 63n ? parsed : undefined;
}

/**
 * One `matchExpressions` requirement as a label test, or `undefined` when it is malformed (wrong
 * value count, a non-integer for `Gt`/`Lt`, an unknown operator): upstream drops such a term.
 */
function compileLabelRequirement(
  requirement: DeepReadonly<NodeSelectorRequirement>,
): RequirementTest | undefined {
  const { key } = requirement;
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In": {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      return (labels) => {
        const v = labels?.[key];
        return v !== undefined && set.has(v);
      };
    }
    case "NotIn": {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      return (labels) => {
        const v = labels?.[key];
        return v === undefined || !set.has(v);
      };
    }
    case "Exists":
      return values.length === 0 ? (labels) => labels?.[key] !== undefined : undefined;
    case "DoesNotExist":
      return values.length === 0 ? (labels) => labels?.[key] === undefined : undefined;
    case "Gt":
    case "Lt": {
      const bound = values.length === 1 ? parseInt64(values[0]) : undefined;
      if (bound === undefined) return undefined;
      const greater = requirement.operator === "Gt";
      return (labels) => {
        const v = parseInt64(labels?.[key]);
        if (v === undefined) return false;
        return greater ? v > bound : v < bound;
      };
    }
    default:
      return undefined;
  }
}

/** One `matchFields` requirement: `metadata.name` `In`/`NotIn` exactly one value. */
function compileFieldRequirement(
  requirement: DeepReadonly<NodeSelectorRequirement>,
): ((name: string) => boolean) | undefined {
  const values = requirement.values ?? [];
  if (values.length !== 1) return undefined;
  const wanted = values[0] ?? "";
  const field = requirement.key;
  const fieldValue = (name: string): string => (field === nodeNameField ? name : "");
  switch (requirement.operator) {
    case "In":
      return (name) => fieldValue(name) === wanted;
    case "NotIn":
      return (name) => fieldValue(name) !== wanted;
    default:
      return undefined;
  }
}

/**
 * A node selector term as a predicate: every expression and every field requirement must hold.
 * An empty term selects no node. `undefined` when the term is malformed (it then selects nothing).
 */
export function compileNodeSelectorTerm(
  term: DeepReadonly<NodeSelectorTerm>,
): NodeTest | undefined {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return undefined;
  const labelTests: RequirementTest[] = [];
  for (const requirement of expressions) {
    const test = compileLabelRequirement(requirement);
    if (test === undefined) return undefined;
    labelTests.push(test);
  }
  const fieldTests: ((name: string) => boolean)[] = [];
  for (const requirement of fields) {
    const test = compileFieldRequirement(requirement);
    if (test === undefined) return undefined;
    fieldTests.push(test);
  }
  return (node) => {
    const labels = node.metadata.labels;
    for (const test of labelTests) if (!test(labels)) return false;
    if (fieldTests.length > 0) {
      const name = node.metadata.name ?? "";
      for (const test of fieldTests) if (!test(name)) return false;
    }
    return true;
  };
}

const matchNone: NodeTest = () => false;
const matchAll: NodeTest = () => true;

/** A NodeSelector as a predicate: its terms are ORed; malformed terms select nothing. */
export function compileNodeSelector(selector: DeepReadonly<NodeSelector>): NodeTest {
  const terms: NodeTest[] = [];
  for (const term of selector.nodeSelectorTerms ?? []) {
    const test = compileNodeSelectorTerm(term);
    if (test !== undefined) terms.push(test);
  }
  if (terms.length === 0) return matchNone;
  if (terms.length === 1) return terms[0] ?? matchNone;
  return (node) => {
    for (const test of terms) if (test(node)) return true;
    return false;
  };
}

/** Whether the node's labels include every `key: value` of a pod's `spec.nodeSelector`. */
export function compileNodeSelectorLabels(
  nodeSelector: Readonly<Record<string, string>> | undefined,
): NodeTest {
  const entries = Object.entries(nodeSelector ?? {});
  if (entries.length === 0) return matchAll;
  return (node) => {
    const labels = node.metadata.labels;
    if (labels === undefined) return false;
    for (const [key, value] of entries) if (labels[key] !== value) return false;
    return true;
  };
}

/**
 * Upstream's `GetRequiredNodeAffinity(pod).Match`: the node must satisfy the pod's `nodeSelector`
 * and, when set, its `requiredDuringSchedulingIgnoredDuringExecution` node affinity.
 */
export function requiredNodeAffinity(pod: DeepReadonly<Pod>): NodeTest {
  const labels = compileNodeSelectorLabels(pod.spec.nodeSelector);
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) return labels;
  const affinity = compileNodeSelector(required);
  if (labels === matchAll) return affinity;
  return (node) => labels(node) && affinity(node);
}

/** Whether the pod's nodeSelector and required node affinity admit the node. */
export function podMatchesNodeSelectorAndAffinity(
  pod: DeepReadonly<Pod>,
  node: DeepReadonly<Node>,
): boolean {
  return requiredNodeAffinity(pod)(node);
}

/**
 * Preferred scheduling terms as a scorer: the sum of the weights of the terms the node matches
 * (upstream's `PreferredSchedulingTerms.Score`). Terms with weight 0 or malformed terms count
 * for nothing.
 */
export function compilePreferredSchedulingTerms(
  terms: readonly DeepReadonly<PreferredSchedulingTerm>[] | undefined,
): (node: DeepReadonly<Node>) => number {
  const compiled: { weight: number; test: NodeTest }[] = [];
  for (const term of terms ?? []) {
    if (term.weight === 0) continue;
    const test = compileNodeSelectorTerm(term.preference);
    if (test !== undefined) compiled.push({ weight: term.weight, test });
  }
  if (compiled.length === 0) return () => 0;
  return (node) => {
    let score = 0;
    for (const { weight, test } of compiled) if (test(node)) score += weight;
    return score;
  };
}
