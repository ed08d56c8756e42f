/**
 * Informer events → cache and queue (upstream's `eventhandlers.go`). Bound pods and nodes feed the
 * cache; pods waiting for a node of one of our profiles feed the queue; every change that may make
 * a waiting pod schedulable is passed to the queue as a cluster event for the queueing hints.
 */
import type { Node, Pod } from "../api/index.ts";
import {
  type DeletedFinalStateUnknown,
  deletedObject,
  type EventHandler,
} from "../client/index.ts";
import type { DeepReadonly, Logger } from "../util/index.ts";
import type { SchedulerCache } from "./cache/index.ts";
import { clusterEvents, groupRefOf } from "./framework/index.ts";
import type { PodGroupManager, PodGroupStatusWriter } from "./pod-groups/index.ts";
import {
  nodeSchedulingPropertiesChange,
  podSchedulingPropertiesChange,
  type SchedulingQueue,
} from "./queue/index.ts";
import type { Framework } from "./runtime/index.ts";

export interface EventHandlerDeps {
  readonly cache: SchedulerCache;
  readonly queue: SchedulingQueue;
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly logger: Logger;
  /** Gang membership: every pod naming a group is recorded before the queue sees it. */
  readonly podGroups?: PodGroupManager;
  readonly podGroupStatus?: PodGroupStatusWriter;
}

type PodObject = DeepReadonly<Pod>;
type NodeObject = DeepReadonly<Node>;

function assigned(pod: PodObject): boolean {
  return (pod.spec.nodeName ?? "") !== "";
}

export function newNodeEventHandler(deps: EventHandlerDeps): EventHandler<Node> {
  const { cache, queue } = deps;
  return {
    onAdd(node: NodeObject) {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(clusterEvents.nodeAdd, undefined, node);
    },
    onUpdate(oldNode: NodeObject, newNode: NodeObject) {
      cache.updateNode(newNode);
      for (const event of nodeSchedulingPropertiesChange(newNode, oldNode)) {
        queue.moveAllToActiveOrBackoffQueue(event, oldNode, newNode);
      }
    },
    onDelete(deleted: NodeObject | DeletedFinalStateUnknown<Node>) {
      const node = deletedObject<Node>(deleted);
      cache.removeNode(node);
      queue.moveAllToActiveOrBackoffQueue(clusterEvents.nodeDelete, node, undefined);
    },
  };
}

export function newPodEventHandler(deps: EventHandlerDeps): EventHandler<Pod> {
  const { cache, queue, frameworks, logger, podGroups, podGroupStatus } = deps;
  /** Records the pod in its gang; returns whether it is a member. */
  const trackMember = (pod: PodObject, changed = true): boolean => {
    if (podGroups === undefined || podGroups.upsertPod(pod) === undefined) return false;
    const ref = groupRefOf(pod);
    if (ref !== undefined && changed) podGroupStatus?.membersChanged(ref);
    return true;
  };
  const untrackMember = (pod: PodObject): void => {
    if (podGroups?.deletePod(pod) === undefined) return;
    const ref = groupRefOf(pod);
    if (ref !== undefined) podGroupStatus?.membersChanged(ref);
  };
  /** A new pending member may complete its gang: re-check the members waiting for it. */
  const memberAdded = (pod: PodObject): void => {
    const ref = groupRefOf(pod);
    if (podGroups === undefined || ref === undefined) return;
    const uid = pod.metadata.uid ?? "";
    const siblings = podGroups.unscheduledMembers(ref.key).filter((u) => u !== uid);
    queue.movePodsToActiveOrBackoffQueue(siblings, clusterEvents.unscheduledPodAdd, undefined, pod);
  };
  const responsible = (pod: PodObject): boolean =>
    frameworks.has(pod.spec.schedulerName ?? "default-scheduler");

  const addAssigned = (pod: PodObject): void => {
    cache.addPod(pod);
    queue.assignedPodAdded(pod);
  };
  const deleteUnscheduled = (pod: PodObject): void => {
    queue.delete(pod);
    const fw = frameworks.get(pod.spec.schedulerName ?? "default-scheduler");
    // A pod waiting at Permit was assumed: its removal frees room like a bound pod's deletion.
    if (fw?.rejectWaitingPod(pod.metadata.uid ?? "") === true) {
      queue.moveAllToActiveOrBackoffQueue(clusterEvents.assignedPodDelete, pod, undefined);
    }
    queue.moveAllToActiveOrBackoffQueue(clusterEvents.unscheduledPodDelete, pod, undefined);
  };

  return {
    onAdd(pod: PodObject) {
      const member = trackMember(pod);
      if (assigned(pod)) addAssigned(pod);
      else if (responsible(pod)) queue.add(pod);
      if (member && !assigned(pod)) memberAdded(pod);
    },
    onUpdate(oldPod: PodObject, newPod: PodObject) {
      if (oldPod.metadata.uid !== newPod.metadata.uid) {
        this.onDelete?.(oldPod);
        this.onAdd?.(newPod, false);
        return;
      }
      trackMember(newPod, assigned(oldPod) !== assigned(newPod));
      if (assigned(newPod)) {
        if (!assigned(oldPod)) {
          // Bound: leaves the queue, joins the cache (confirming the assumption).
          if (responsible(oldPod)) queue.delete(oldPod);
          addAssigned(newPod);
          return;
        }
        cache.updatePod(newPod);
        for (const event of podSchedulingPropertiesChange(newPod, oldPod)) {
          queue.assignedPodUpdated(oldPod, newPod, event);
        }
        return;
      }
      if (!responsible(newPod)) return;
      if (cache.isAssumedPod(newPod)) {
        logger.v(5).info("Skipping update of assumed pod", { pod: newPod.metadata.name });
        return;
      }
      queue.update(oldPod, newPod);
    },
    onDelete(deleted: PodObject | DeletedFinalStateUnknown<Pod>) {
      const pod = deletedObject<Pod>(deleted);
      untrackMember(pod);
      if (assigned(pod)) {
        cache.removePod(pod);
        queue.moveAllToActiveOrBackoffQueue(clusterEvents.assignedPodDelete, pod, undefined);
      } else if (responsible(pod)) {
        deleteUnscheduled(pod);
      }
    },
  };
}
