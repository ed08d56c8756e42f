/**
 * Cluster events and queueing hints (upstream's `ClusterEvent`, `EnqueueExtensions`): a plugin
 * that can reject a pod says which changes in the cluster could make that pod schedulable again,
 * optionally with a hint function that looks at the changed object and answers Queue or Skip. The
 * scheduling queue moves an unschedulable pod only when an event registered by one of the plugins
 * that rejected it says Queue.
 */
import type { Pod } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/**
 * What changed: a kind (`Node`, `PodGroup`, any custom name a plugin emits), or the pod views
 * `AssignedPod` (bound pods) and `UnscheduledPod` (pods waiting for a node). `Pod` in a
 * registration matches both views; `*` matches everything.
 */
export type EventResource = string;

export const eventResource = {
  pod: "Pod",
  assignedPod: "AssignedPod",
  unscheduledPod: "UnscheduledPod",
  node: "Node",
  podDisruptionBudget: "PodDisruptionBudget",
  podGroup: "PodGroup",
  workload: "Workload",
  wildCard: "*",
} as const;

/** How it changed: a bit set, so one registration can cover several kinds of update. */
export const actionType = {
  add: 1,
  delete: 2,
  updateNodeAllocatable: 4,
  updateNodeLabel: 8,
  updateNodeTaint: 16,
  updateNodeCondition: 32,
  updateNodeAnnotation: 64,
  updatePodLabel: 128,
  updatePodScaleDown: 256,
  updatePodToleration: 512,
  updatePodSchedulingGatesEliminated: 1024,
  updatePodGeneratedResourceClaim: 2048,
  /** Any other update of a pod (upstream's `updatePodOther`). */
  updatePodOther: 4096,
  /** Every kind of update. */
  update: 8188,
  /** Add, delete and every update. */
  all: 8191,
} as const;

export interface ClusterEvent {
  readonly resource: EventResource;
  /** A bit set of `actionType` values. */
  readonly actionType: number;
  /** A name for logs; defaults to resource and action. */
  readonly label?: string;
}

/** Whether a plugin should requeue the pod after an event (upstream's `QueueingHint`). */
export type QueueingHint = "Queue" | "QueueSkip";

/**
 * Looks at one event for one rejected pod: `oldObj` is undefined for adds, `newObj` for deletes.
 * Must be cheap and side-effect free; a thrown error counts as Queue.
 */
export type QueueingHintFn = (
  pod: DeepReadonly<Pod>,
  oldObj: unknown,
  newObj: unknown,
) => QueueingHint;

export interface ClusterEventWithHint {
  readonly event: ClusterEvent;
  /** Without a hint every matching event requeues the pod. */
  readonly queueingHintFn?: QueueingHintFn;
}

const actionNames: readonly [number, string][] = Object.entries(actionType)
  .filter(([name]) => name !== "update" && name !== "all")
  .map(([name, bit]) => [bit, name.charAt(0).toUpperCase() + name.slice(1)]);

/** `NodeAdd`, `AssignedPodDelete`, `UnscheduledPodUpdatePodLabel`: for logs and in-flight events. */
export function eventLabel(event: ClusterEvent): string {
  if (event.label !== undefined) return event.label;
  if (event.actionType === actionType.all) return `${event.resource}All`;
  if (event.actionType === actionType.update) return `${event.resource}Update`;
  const names = actionNames.filter(([bit]) => (event.actionType & bit) !== 0).map(([, n]) => n);
  return `${event.resource}${names.join("|")}`;
}

export function isWildCard(event: ClusterEvent): boolean {
  return event.resource === eventResource.wildCard && event.actionType === actionType.all;
}

function resourceMatches(registered: EventResource, incoming: EventResource): boolean {
  return (
    registered === eventResource.wildCard ||
    registered === incoming ||
    (registered === eventResource.pod &&
      (incoming === eventResource.assignedPod || incoming === eventResource.unscheduledPod))
  );
}

/**
 * Whether an incoming event is covered by a registration: same resource (`Pod` covers both pod
 * views, `*` covers all) and at least one common action bit. A wildcard on either side matches.
 */
export function matchClusterEvents(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if (isWildCard(registered) || isWildCard(incoming)) return true;
  return (
    resourceMatches(registered.resource, incoming.resource) &&
    ((registered.actionType & actionType.all) === actionType.all ||
      (registered.actionType & incoming.actionType) !== 0)
  );
}

/** Whether any of `registered` covers `incoming`. */
export function matchAnyClusterEvent(
  incoming: ClusterEvent,
  registered: readonly ClusterEvent[],
): boolean {
  for (const r of registered) if (matchClusterEvents(r, incoming)) return true;
  return false;
}

function event(resource: EventResource, action: number, label: string): ClusterEvent {
  return Object.freeze({ resource, actionType: action, label });
}

/** The events the scheduler itself emits; plugins register against these resources. */
export const clusterEvents = {
  nodeAdd: event(eventResource.node, actionType.add, "NodeAdd"),
  nodeDelete: event(eventResource.node, actionType.delete, "NodeDelete"),
  assignedPodAdd: event(eventResource.assignedPod, actionType.add, "AssignedPodAdd"),
  assignedPodDelete: event(eventResource.assignedPod, actionType.delete, "AssignedPodDelete"),
  unscheduledPodAdd: event(eventResource.unscheduledPod, actionType.add, "UnscheduledPodAdd"),
  unscheduledPodUpdate: event(
    eventResource.unscheduledPod,
    actionType.update,
    "UnscheduledPodUpdate",
  ),
  unscheduledPodDelete: event(
    eventResource.unscheduledPod,
    actionType.delete,
    "UnscheduledPodDelete",
  ),
  podGroupAdd: event(eventResource.podGroup, actionType.add, "PodGroupAdd"),
  podGroupUpdate: event(eventResource.podGroup, actionType.update, "PodGroupUpdate"),
  workloadAdd: event(eventResource.workload, actionType.add, "WorkloadAdd"),
  workloadUpdate: event(eventResource.workload, actionType.update, "WorkloadUpdate"),
  /** A pod stayed unschedulable longer than the flush interval. */
  unschedulableTimeout: event(eventResource.wildCard, actionType.all, "UnschedulableTimeout"),
  /** Someone asked to activate pods (`Handle.activate`). */
  forceActivate: event(eventResource.wildCard, actionType.all, "ForceActivate"),
  /** Every plugin is interested: the default for a plugin without `eventsToRegister`. */
  wildCard: event(eventResource.wildCard, actionType.all, "WildCard"),
} as const;
