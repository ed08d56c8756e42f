/**
 * TaintToleration (Filter, PreScore, Score): the pod must tolerate the node's NoSchedule and
 * NoExecute taints; among feasible nodes, fewer untolerated PreferNoSchedule taints score higher.
 */
import {
  doNotScheduleTaints,
  findMatchingUntoleratedTaint,
  type Node,
  type Taint,
  type Toleration,
  tolerationsTolerateTaint,
} from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type PodObject,
  type PreScorePlugin,
  type ScorePlugin,
  type SignPlugin,
  type StateData,
  signedWith,
  signerKeys,
  stateKey,
  success,
  unresolvable,
} from "../../framework/index.ts";
import { defaultNormalizeScore } from "../internal/normalize-score.ts";

export const name = "TaintToleration";

/** `node(s) had untolerated taint {key: value}` (the wording of Kubernetes 1.26–1.33). */
export function untoleratedTaintReason(taint: DeepReadonly<Taint>): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;
}

class PreferState implements StateData {
  readonly tolerations: readonly DeepReadonly<Toleration>[];
  constructor(tolerations: readonly DeepReadonly<Toleration>[]) {
    this.tolerations = tolerations;
  }
  clone(): PreferState {
    return this;
  }
}

const preScoreKey = stateKey<PreferState>(`PreScore${name}`);

/** Tolerations that can apply to PreferNoSchedule taints (that effect, or any effect). */
function preferNoScheduleTolerations(pod: PodObject): readonly DeepReadonly<Toleration>[] {
  return (pod.spec.tolerations ?? []).filter(
    (t) => (t.effect ?? "") === "" || t.effect === "PreferNoSchedule",
  );
}

function untolerated(pod: PodObject, node: DeepReadonly<Node>): boolean {
  return (
    findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, doNotScheduleTaints) !==
    undefined
  );
}

export function newTaintToleration(): AnyPlugin {
  return {
    name,
    signPod(podInfo) {
      return signedWith({ key: signerKeys.tolerations, value: podInfo.pod.spec.tolerations ?? [] });
    },
    filter(_state, pod, nodeInfo) {
      const taint = findMatchingUntoleratedTaint(
        nodeInfo.taints,
        pod.spec.tolerations,
        doNotScheduleTaints,
      );
      return taint === undefined ? success : unresolvable(untoleratedTaintReason(taint));
    },
    preScore(state, pod) {
      state.write(preScoreKey, new PreferState(preferNoScheduleTolerations(pod)));
      return success;
    },
    score(state, pod, nodeInfo) {
      const taints = nodeInfo.taints;
      if (taints.length === 0) return 0;
      const tolerations = state.read(preScoreKey)?.tolerations ?? preferNoScheduleTolerations(pod);
      let count = 0;
      for (const taint of taints) {
        if (taint.effect !== "PreferNoSchedule") continue;
        if (!tolerationsTolerateTaint(tolerations, taint)) count++;
      }
      return count;
    },
    normalizeScore(_state, _pod, scores) {
      return defaultNormalizeScore(scores, true);
    },
    eventsToRegister() {
      return [
        {
          event: {
            resource: eventResource.node,
            actionType: actionType.add | actionType.updateNodeTaint,
          },
          queueingHintFn: (pod, oldObj, newObj) => {
            const node = newObj as DeepReadonly<Node> | undefined;
            if (node === undefined || untolerated(pod, node)) return "QueueSkip";
            const old = oldObj as DeepReadonly<Node> | undefined;
            return old === undefined || untolerated(pod, old) ? "Queue" : "QueueSkip";
          },
        },
        {
          event: { resource: eventResource.pod, actionType: actionType.updatePodToleration },
          queueingHintFn: (pod, _oldObj, newObj) =>
            (newObj as PodObject | undefined)?.metadata.uid === pod.metadata.uid
              ? "Queue"
              : "QueueSkip",
        },
      ];
    },
  } satisfies FilterPlugin & PreScorePlugin & ScorePlugin & SignPlugin & EnqueueExtensions;
}
