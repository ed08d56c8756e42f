/**
 * Which cluster events an object update amounts to (upstream's `PodSchedulingPropertiesChange` and
 * `nodeSchedulingPropertiesChange`): only changes that can affect scheduling become events, so a
 * kubelet's heartbeat wakes nobody.
 */
import { type Node, type Pod, podRequests } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { actionType, type ClusterEvent, eventResource } from "../framework/index.ts";

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : v,
  );
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return stable(a ?? null) === stable(b ?? null);
}

function scaledDown(newPod: DeepReadonly<Pod>, oldPod: DeepReadonly<Pod>): boolean {
  const before = podRequests(oldPod);
  const after = podRequests(newPod);
  for (const [name, amount] of before) if ((after.get(name) ?? 0) < amount) return true;
  return false;
}

/** The events of a pod update; `updatePodOther` when nothing specific changed. */
export function podSchedulingPropertiesChange(
  newPod: DeepReadonly<Pod>,
  oldPod: DeepReadonly<Pod>,
): ClusterEvent[] {
  const resource =
    (newPod.spec.nodeName ?? "") === "" ? eventResource.unscheduledPod : eventResource.assignedPod;
  const events: ClusterEvent[] = [];
  const add = (action: number): void => {
    events.push({ resource, actionType: action });
  };
  if (!same(newPod.metadata.labels, oldPod.metadata.labels)) add(actionType.updatePodLabel);
  if (scaledDown(newPod, oldPod)) add(actionType.updatePodScaleDown);
  if (
    (newPod.spec.schedulingGates ?? []).length === 0 &&
    (oldPod.spec.schedulingGates ?? []).length > 0
  ) {
    add(actionType.updatePodSchedulingGatesEliminated);
  }
  if (!same(newPod.spec.tolerations, oldPod.spec.tolerations)) add(actionType.updatePodToleration);
  if (events.length === 0) add(actionType.updatePodOther);
  return events;
}

function withoutHeartbeats(node: DeepReadonly<Node>): unknown {
  return (node.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    reason: c.reason,
    message: c.message,
  }));
}

/** The events of a node update: unschedulable and taints, allocatable, labels, conditions, annotations. */
export function nodeSchedulingPropertiesChange(
  newNode: DeepReadonly<Node>,
  oldNode: DeepReadonly<Node>,
): ClusterEvent[] {
  const events: ClusterEvent[] = [];
  const add = (action: number, label: string): void => {
    events.push({ resource: eventResource.node, actionType: action, label });
  };
  if ((newNode.spec?.unschedulable ?? false) !== (oldNode.spec?.unschedulable ?? false)) {
    add(actionType.updateNodeTaint, "NodeSpecUnschedulableChange");
  }
  if (!same(newNode.status?.allocatable, oldNode.status?.allocatable)) {
    add(actionType.updateNodeAllocatable, "NodeAllocatableChange");
  }
  if (!same(newNode.metadata.labels, oldNode.metadata.labels)) {
    add(actionType.updateNodeLabel, "NodeLabelChange");
  }
  if (!same(newNode.spec?.taints, oldNode.spec?.taints)) {
    add(actionType.updateNodeTaint, "NodeTaintChange");
  }
  if (!same(withoutHeartbeats(newNode), withoutHeartbeats(oldNode))) {
    add(actionType.updateNodeCondition, "NodeConditionChange");
  }
  if (!same(newNode.metadata.annotations, oldNode.metadata.annotations)) {
    add(actionType.updateNodeAnnotation, "NodeAnnotationChange");
  }
  return events;
}
