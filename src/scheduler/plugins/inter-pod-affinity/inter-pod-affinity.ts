/**
 * InterPodAffinity (PreFilter with extensions, Filter, PreScore, Score): required pod affinity and
 * anti-affinity (the incoming pod's, and existing pods' anti-affinity towards it) filter nodes by
 * topology domain; preferred terms of both sides score them.
 */
import type { Node } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AffinityTerm,
  type AnyPlugin,
  actionType,
  affinityTermMatches,
  type CycleState,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type Handle,
  notSignable,
  PodInfo,
  type PodObject,
  type PreFilterPlugin,
  type PreScorePlugin,
  podInfoFor,
  podMatchesAllAffinityTerms,
  preFilterSuccess,
  type ScorePlugin,
  type SignPlugin,
  signedWith,
  signerKeys,
  skip,
  stateKey,
  success,
  unresolvable,
  unschedulable,
} from "../../framework/index.ts";
import {
  computeFilterState,
  errReasonAffinityRulesNotMatch,
  errReasonAntiAffinityRulesNotMatch,
  errReasonExistingAntiAffinityRulesNotMatch,
  FilterState,
  satisfyExistingPodsAntiAffinity,
  satisfyPodAffinity,
  satisfyPodAntiAffinity,
} from "./filtering.ts";
import { computeScoreState, normalizeScores, type ScoreState, scoreNode } from "./scoring.ts";

export const name = "InterPodAffinity";
export {
  errReasonAffinityRulesNotMatch,
  errReasonAntiAffinityRulesNotMatch,
  errReasonExistingAntiAffinityRulesNotMatch,
};

export interface InterPodAffinityArgs {
  /** Score weight of an existing pod's required affinity term matching the pod. @default 1 */
  readonly hardPodAffinityWeight?: number;
  /** Skip scoring existing pods' preferred terms when the pod has none. @default false */
  readonly ignorePreferredTermsOfExistingPods?: boolean;
}

const preFilterKey = stateKey<FilterState>(`PreFilter${name}`);
const preScoreKey = stateKey<ScoreState>(`PreScore${name}`);

function filterState(state: CycleState): FilterState | undefined {
  const s = state.read(preFilterKey);
  return s instanceof FilterState ? s : undefined;
}

function matchesAny(terms: readonly AffinityTerm[], pod: PodObject): boolean {
  for (const term of terms) if (affinityTermMatches(term, pod, undefined)) return true;
  return false;
}

export function newInterPodAffinity(handle: Handle, rawArgs: unknown): AnyPlugin {
  const args = (rawArgs ?? {}) as InterPodAffinityArgs;
  const hardPodAffinityWeight = args.hardPodAffinityWeight ?? 1;
  const ignoreExisting = args.ignorePreferredTermsOfExistingPods ?? false;

  return {
    name,
    /**
     * The pod's own terms reach across nodes, so a pod with any is not signed. Without them, only
     * existing pods' terms can match it, by its namespace and labels; with no such pods anywhere,
     * PreFilter and PreScore skip and nothing of the pod matters.
     */
    signPod(podInfo) {
      if (podInfo.hasAffinity) {
        return notSignable("pods with pod affinity or anti-affinity are not signable");
      }
      if (handle.snapshot().havePodsWithAffinityList().length === 0) return signedWith();
      const meta = podInfo.pod.metadata;
      return signedWith(
        { key: signerKeys.namespace, value: meta.namespace ?? "" },
        { key: signerKeys.labels, value: meta.labels ?? {} },
      );
    },
    preFilter(state, pod, nodes) {
      const podInfo = podInfoFor(state, pod);
      const snapshot = handle.snapshot();
      const withAnti = snapshot.havePodsWithRequiredAntiAffinityList();
      if (
        podInfo.requiredAffinityTerms.length === 0 &&
        podInfo.requiredAntiAffinityTerms.length === 0 &&
        withAnti.length === 0
      ) {
        return { status: skip };
      }
      state.write(preFilterKey, computeFilterState(podInfo, handle.listers, withAnti, nodes));
      return preFilterSuccess;
    },
    preFilterExtensions: {
      addPod(state, _podToSchedule, podInfoToAdd, nodeInfo) {
        filterState(state)?.updateWithPod(podInfoToAdd, nodeInfo.node, 1);
        return success;
      },
      removePod(state, _podToSchedule, podInfoToRemove, nodeInfo) {
        filterState(state)?.updateWithPod(podInfoToRemove, nodeInfo.node, -1);
        return success;
      },
    },
    filter(state, _pod, nodeInfo) {
      const s = filterState(state);
      const node = nodeInfo.node;
      if (s === undefined || node === undefined) return success;
      if (!satisfyPodAffinity(s, node)) return unresolvable(errReasonAffinityRulesNotMatch);
      if (!satisfyPodAntiAffinity(s, node))
        return unschedulable(errReasonAntiAffinityRulesNotMatch);
      if (!satisfyExistingPodsAntiAffinity(s, node)) {
        return unschedulable(errReasonExistingAntiAffinityRulesNotMatch);
      }
      return success;
    },
    preScore(state, pod, nodes) {
      if (nodes.length === 0) return skip;
      const incoming = podInfoFor(state, pod);
      const hasConstraints =
        incoming.preferredAffinityTerms.length > 0 ||
        incoming.preferredAntiAffinityTerms.length > 0;
      if (ignoreExisting && !hasConstraints) return skip;
      const snapshot = handle.snapshot();
      const scope = hasConstraints ? snapshot.list() : snapshot.havePodsWithAffinityList();
      // No pod with terms on either side: nothing can score (the same Skip, without the work).
      if (scope.length === 0) return skip;
      const s = computeScoreState(
        {
          incoming,
          namespaceLabels: handle.listers.namespaceLabels(pod.metadata.namespace ?? ""),
          namespaceLabelsOf: (ns) => handle.listers.namespaceLabels(ns),
          hardPodAffinityWeight,
        },
        scope,
      );
      if (s.topologyScore.size === 0) return skip;
      state.write(preScoreKey, s);
      return success;
    },
    score(state, _pod, nodeInfo) {
      const s = state.read(preScoreKey);
      return s === undefined ? 0 : scoreNode(s, nodeInfo);
    },
    normalizeScore(state, _pod, scores) {
      const s = state.read(preScoreKey);
      if (s !== undefined) normalizeScores(s, scores);
      return success;
    },
    eventsToRegister() {
      return [
        {
          event: {
            resource: eventResource.pod,
            actionType: actionType.add | actionType.updatePodLabel | actionType.delete,
          },
          queueingHintFn: (pod, oldObj, newObj) => {
            const before = oldObj as PodObject | undefined;
            const after = newObj as PodObject | undefined;
            // Only pods on nodes count for affinity.
            if (
              (before !== undefined && (before.spec.nodeName ?? "") === "") ||
              (after !== undefined && (after.spec.nodeName ?? "") === "")
            ) {
              return "QueueSkip";
            }
            const info = new PodInfo(pod);
            const terms = info.requiredAffinityTerms;
            const anti = info.requiredAntiAffinityTerms;
            if (before !== undefined && after !== undefined) {
              if (
                !podMatchesAllAffinityTerms(terms, before) &&
                podMatchesAllAffinityTerms(terms, after)
              ) {
                return "Queue";
              }
              return matchesAny(anti, before) && !matchesAny(anti, after) ? "Queue" : "QueueSkip";
            }
            if (after !== undefined)
              return podMatchesAllAffinityTerms(terms, after) ? "Queue" : "QueueSkip";
            if (before === undefined) return "QueueSkip";
            // A deleted pod may have repelled this one, or matched its anti-affinity.
            return new PodInfo(before).hasRequiredAntiAffinity || matchesAny(anti, before)
              ? "Queue"
              : "QueueSkip";
          },
        },
        {
          event: {
            resource: eventResource.node,
            actionType: actionType.add | actionType.updateNodeLabel,
          },
          queueingHintFn: (pod, _oldObj, newObj) => {
            const node = newObj as DeepReadonly<Node> | undefined;
            if (node === undefined) return "QueueSkip";
            const info = new PodInfo(pod);
            const terms = [...info.requiredAffinityTerms, ...info.requiredAntiAffinityTerms];
            // Rejected by existing pods' anti-affinity: any labelled node may help.
            if (terms.length === 0) return "Queue";
            const labels = node.metadata.labels ?? {};
            return terms.some((t) => labels[t.topologyKey] !== undefined) ? "Queue" : "QueueSkip";
          },
        },
      ];
    },
  } satisfies PreFilterPlugin &
    FilterPlugin &
    PreScorePlugin &
    ScorePlugin &
    SignPlugin &
    EnqueueExtensions;
}
