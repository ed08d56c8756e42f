/**
 * NodeAffinity (PreFilter, Filter, PreScore, Score): the node must satisfy the pod's `nodeSelector`
 * and required node affinity; preferred terms add their weights to the score. Required terms that
 * name nodes through `matchFields: metadata.name In` narrow the nodes PreFilter hands on.
 */
import {
  compilePreferredSchedulingTerms,
  type Node,
  type NodeTest,
  nodeNameField,
  requiredNodeAffinity,
} from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type CycleState,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type PodObject,
  type PreFilterPlugin,
  type PreScorePlugin,
  preFilterSuccess,
  type ScorePlugin,
  type SignPlugin,
  type StateData,
  signedWith,
  signerKeys,
  skip,
  stateKey,
  success,
  unresolvable,
} from "../../framework/index.ts";
import { defaultNormalizeScore } from "../internal/normalize-score.ts";

export const name = "NodeAffinity";
export const errReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const errReasonConflict = "pod affinity terms conflict";

class RequiredState implements StateData {
  readonly matches: NodeTest;
  constructor(matches: NodeTest) {
    this.matches = matches;
  }
  clone(): RequiredState {
    return this;
  }
}

class PreferredState implements StateData {
  readonly score: (node: DeepReadonly<Node>) => number;
  constructor(score: (node: DeepReadonly<Node>) => number) {
    this.score = score;
  }
  clone(): PreferredState {
    return this;
  }
}

const preFilterKey = stateKey<RequiredState>(`PreFilter${name}`);
const preScoreKey = stateKey<PreferredState>(`PreScore${name}`);

/**
 * The nodes the required terms name through `metadata.name In`, or undefined when some term does
 * not name nodes (terms are ORed, so every node stays eligible). Within a term the sets are
 * intersected; across terms they are united.
 */
export function preFilterNodeNames(pod: PodObject): Set<string> | undefined {
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return undefined;
  let result: Set<string> | undefined;
  for (const term of terms) {
    let names: Set<string> | undefined;
    for (const r of term.matchFields ?? []) {
      if (r.key !== nodeNameField || r.operator !== "In") continue;
      const values = new Set(r.values ?? []);
      names = names === undefined ? values : new Set([...names].filter((n) => values.has(n)));
    }
    if (names === undefined) return undefined;
    result = new Set([...(result ?? []), ...names]);
  }
  return result;
}

export function newNodeAffinity(): AnyPlugin {
  return {
    name,
    signPod(podInfo) {
      const spec = podInfo.pod.spec;
      return signedWith(
        { key: signerKeys.nodeSelector, value: spec.nodeSelector ?? {} },
        { key: signerKeys.nodeAffinity, value: spec.affinity?.nodeAffinity ?? {} },
      );
    },
    preFilter(state: CycleState, pod: PodObject) {
      const required =
        pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (required === undefined && pod.spec.nodeSelector === undefined) return { status: skip };
      state.write(preFilterKey, new RequiredState(requiredNodeAffinity(pod)));
      const nodeNames = preFilterNodeNames(pod);
      if (nodeNames === undefined) return preFilterSuccess;
      if (nodeNames.size === 0) return { status: unresolvable(errReasonConflict) };
      return { status: success, nodeNames };
    },
    filter(state, pod, nodeInfo) {
      const node = nodeInfo.node;
      if (node === undefined) return unresolvable(errReasonPod);
      const matches = state.read(preFilterKey)?.matches ?? requiredNodeAffinity(pod);
      return matches(node) ? success : unresolvable(errReasonPod);
    },
    preScore(state, pod) {
      const preferred =
        pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
      if (preferred === undefined || preferred.length === 0) return skip;
      state.write(preScoreKey, new PreferredState(compilePreferredSchedulingTerms(preferred)));
      return success;
    },
    score(state, pod, nodeInfo) {
      const node = nodeInfo.node;
      if (node === undefined) return 0;
      const scorer =
        state.read(preScoreKey)?.score ??
        compilePreferredSchedulingTerms(
          pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
        );
      return scorer(node);
    },
    normalizeScore(_state, _pod, scores) {
      return defaultNormalizeScore(scores, false);
    },
    eventsToRegister() {
      return [
        {
          event: {
            resource: eventResource.node,
            actionType: actionType.add | actionType.updateNodeLabel,
          },
          queueingHintFn: (pod, oldObj, newObj) => {
            const node = newObj as DeepReadonly<Node> | undefined;
            if (node === undefined) return "QueueSkip";
            const matches = requiredNodeAffinity(pod);
            if (!matches(node)) return "QueueSkip";
            const old = oldObj as DeepReadonly<Node> | undefined;
            return old === undefined || !matches(old) ? "Queue" : "QueueSkip";
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
