/**
 * PodTopologySpread (PreFilter with extensions, Filter, PreScore, Score): spreads matching pods
 * over topology domains as `spec.topologySpreadConstraints` ask. DoNotSchedule constraints filter,
 * ScheduleAnyway constraints score. Cluster-level default constraints apply only when configured
 * through `args.defaultConstraints` (upstream's system defaulting is off).
 */
import type { Node, TopologySpreadConstraint } from "../../../api/index.ts";
import type { DeepReadonly } from "../../../util/index.ts";
import {
  type AnyPlugin,
  actionType,
  type CycleState,
  type EnqueueExtensions,
  eventResource,
  type FilterPlugin,
  type Handle,
  notSignable,
  type PodObject,
  type PreFilterPlugin,
  type PreScorePlugin,
  preFilterSuccess,
  type ScorePlugin,
  type SignPlugin,
  signedWith,
  skip,
  stateKey,
  success,
  unresolvable,
  unschedulable,
} from "../../framework/index.ts";
import { type Constraint, constraintsOf, nodeHasAllTopologyKeys } from "./constraints.ts";
import {
  computeFilterState,
  errReasonConstraintsNotMatch,
  errReasonNodeLabelNotMatch,
  FilterState,
  filterNode,
} from "./filtering.ts";
import { computeScoreState, normalizeScores, type ScoreState, scoreNode } from "./scoring.ts";

export const name = "PodTopologySpread";
export { errReasonConstraintsNotMatch, errReasonNodeLabelNotMatch };

export interface PodTopologySpreadArgs {
  /** Constraints for pods that declare none (their label selectors are used as given). @default [] */
  readonly defaultConstraints?: readonly DeepReadonly<TopologySpreadConstraint>[];
}

const preFilterKey = stateKey<FilterState>(`PreFilter${name}`);
const preScoreKey = stateKey<ScoreState>(`PreScore${name}`);

function readFilterState(state: CycleState): FilterState | undefined {
  const s = state.read(preFilterKey);
  return s instanceof FilterState ? s : undefined;
}

/** Whether the pod's own labels, or a changed pod's, involve any of the constraints. */
function podInvolved(constraints: readonly Constraint[], pod: PodObject | undefined): boolean {
  if (pod === undefined) return false;
  for (const c of constraints) if (c.selector.test(pod.metadata.labels)) return true;
  return false;
}

export function newPodTopologySpread(handle: Handle, rawArgs: unknown): AnyPlugin {
  const args = (rawArgs ?? {}) as PodTopologySpreadArgs;
  const defaults = args.defaultConstraints ?? [];
  const allConstraints = (pod: PodObject): Constraint[] => [
    ...constraintsOf(pod, "DoNotSchedule", defaults),
    ...constraintsOf(pod, "ScheduleAnyway", defaults),
  ];

  return {
    name,
    // Spreading is not local to a pod and a node: placing a pod moves every node's counts.
    signPod(podInfo) {
      if ((podInfo.pod.spec.topologySpreadConstraints ?? []).length > 0) {
        return notSignable("pods with topology constraints are not signable");
      }
      if (defaults.length > 0) {
        return notSignable("pods with default topology constraints are not signable");
      }
      return signedWith();
    },
    preFilter(state, pod, nodes) {
      const constraints = constraintsOf(pod, "DoNotSchedule", defaults);
      if (constraints.length === 0) return { status: skip };
      state.write(preFilterKey, computeFilterState(pod, constraints, nodes));
      return preFilterSuccess;
    },
    preFilterExtensions: {
      addPod(state, podToSchedule, podInfoToAdd, nodeInfo) {
        readFilterState(state)?.update(podInfoToAdd.pod, podToSchedule, nodeInfo.node, 1);
        return success;
      },
      removePod(state, podToSchedule, podInfoToRemove, nodeInfo) {
        readFilterState(state)?.update(podInfoToRemove.pod, podToSchedule, nodeInfo.node, -1);
        return success;
      },
    },
    filter(state, pod, nodeInfo) {
      const s = readFilterState(state);
      if (s === undefined || s.constraints.length === 0) return success;
      switch (filterNode(s, pod, nodeInfo)) {
        case "fits":
          return success;
        case "missingLabel":
          return unresolvable(errReasonNodeLabelNotMatch);
        case "skew":
          return unschedulable(errReasonConstraintsNotMatch);
      }
    },
    preScore(state, pod, nodes) {
      const constraints = constraintsOf(pod, "ScheduleAnyway", defaults);
      if (constraints.length === 0) return skip;
      const all = handle.snapshot().list();
      if (all.length === 0) return skip;
      state.write(preScoreKey, computeScoreState(pod, constraints, nodes, all));
      return success;
    },
    score(state, pod, nodeInfo) {
      const s = state.read(preScoreKey);
      return s === undefined ? 0 : scoreNode(s, pod, nodeInfo);
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
            const changed = (newObj ?? oldObj) as PodObject | undefined;
            if ((changed?.metadata.namespace ?? "") !== (pod.metadata.namespace ?? "")) {
              return "QueueSkip";
            }
            const constraints = allConstraints(pod);
            return podInvolved(constraints, oldObj as PodObject | undefined) ||
              podInvolved(constraints, newObj as PodObject | undefined)
              ? "Queue"
              : "QueueSkip";
          },
        },
        {
          event: {
            resource: eventResource.node,
            actionType:
              actionType.add |
              actionType.delete |
              actionType.updateNodeLabel |
              actionType.updateNodeTaint,
          },
          queueingHintFn: (pod, oldObj, newObj) => {
            const constraints = allConstraints(pod);
            const node = (newObj ?? oldObj) as DeepReadonly<Node> | undefined;
            const old = oldObj as DeepReadonly<Node> | undefined;
            return (node !== undefined && nodeHasAllTopologyKeys(node, constraints)) ||
              (old !== undefined && nodeHasAllTopologyKeys(old, constraints))
              ? "Queue"
              : "QueueSkip";
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
