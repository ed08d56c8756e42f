/**
 * Inter-pod affinity terms, compiled once per pod (upstream's `framework.AffinityTerm`): which
 * namespaces a term looks at, which pods it selects there, and the topology key it spreads over.
 */
import {
  ApiError,
  type LabelSelector,
  type LabelSelectorExpr,
  nothing,
  type Pod,
  type PodAffinityTerm,
  selectorFromLabelSelector,
  type WeightedPodAffinityTerm,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

type Labels = Readonly<Record<string, string>> | undefined;

export interface AffinityTerm {
  /** Namespaces named by the term, or the owner pod's namespace when it names none. */
  readonly namespaces: ReadonlySet<string>;
  /** Selects pods by label; a term without `labelSelector` selects none. */
  readonly selector: LabelSelectorExpr;
  /** Selects namespaces by label; a term without `namespaceSelector` selects none this way. */
  readonly namespaceSelector: LabelSelectorExpr;
  readonly topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

function compileSelector(selector: DeepReadonly<LabelSelector> | undefined): LabelSelectorExpr {
  try {
    return selectorFromLabelSelector(selector as LabelSelector | undefined);
  } catch (error: unknown) {
    // An invalid selector selects nothing, as upstream's scheduler treats a term it cannot parse.
    if (error instanceof ApiError) return nothing();
    throw error;
  }
}

/**
 * `matchLabelKeys`/`mismatchLabelKeys` folded into the selector with the owner's label values
 * (`key in (v)` / `key notin (v)`), as the API server does on create since 1.33.
 */
function mergedSelector(
  owner: DeepReadonly<Pod>,
  term: DeepReadonly<PodAffinityTerm>,
): DeepReadonly<LabelSelector> | undefined {
  const labels = owner.metadata.labels ?? {};
  const extra: { key: string; operator: "In" | "NotIn"; values: string[] }[] = [];
  for (const key of term.matchLabelKeys ?? []) {
    const value = labels[key];
    if (value !== undefined) extra.push({ key, operator: "In", values: [value] });
  }
  for (const key of term.mismatchLabelKeys ?? []) {
    const value = labels[key];
    if (value !== undefined) extra.push({ key, operator: "NotIn", values: [value] });
  }
  if (extra.length === 0 || term.labelSelector === undefined) return term.labelSelector;
  return {
    ...term.labelSelector,
    matchExpressions: [...(term.labelSelector.matchExpressions ?? []), ...extra],
  };
}

/** Compiles one term of `owner`'s affinity. */
export function newAffinityTerm(
  owner: DeepReadonly<Pod>,
  term: DeepReadonly<PodAffinityTerm>,
): AffinityTerm {
  const named = term.namespaces ?? [];
  const namespaces =
    named.length === 0 && term.namespaceSelector === undefined
      ? new Set([owner.metadata.namespace ?? ""])
      : new Set(named);
  return {
    namespaces,
    selector: compileSelector(mergedSelector(owner, term)),
    namespaceSelector: compileSelector(term.namespaceSelector),
    topologyKey: term.topologyKey,
  };
}

export function newAffinityTerms(
  owner: DeepReadonly<Pod>,
  terms: readonly DeepReadonly<PodAffinityTerm>[] | undefined,
): AffinityTerm[] {
  return (terms ?? []).map((t) => newAffinityTerm(owner, t));
}

export function newWeightedAffinityTerms(
  owner: DeepReadonly<Pod>,
  terms: readonly DeepReadonly<WeightedPodAffinityTerm>[] | undefined,
): WeightedAffinityTerm[] {
  return (terms ?? []).map((t) => ({
    ...newAffinityTerm(owner, t.podAffinityTerm),
    weight: t.weight,
  }));
}

/**
 * Whether the term selects `pod`: the pod's namespace is named (or its labels `nsLabels` match the
 * namespace selector) and the pod's labels match the selector.
 */
export function affinityTermMatches(
  term: AffinityTerm,
  pod: DeepReadonly<Pod>,
  nsLabels: Labels,
): boolean {
  if (term.namespaces.has(pod.metadata.namespace ?? "") || term.namespaceSelector.test(nsLabels)) {
    return term.selector.test(pod.metadata.labels);
  }
  return false;
}

/** Whether every term selects `pod` (namespaces by name only, as upstream). */
export function podMatchesAllAffinityTerms(
  terms: readonly AffinityTerm[],
  pod: DeepReadonly<Pod>,
): boolean {
  if (terms.length === 0) return false;
  for (const term of terms) if (!affinityTermMatches(term, pod, undefined)) return false;
  return true;
}
