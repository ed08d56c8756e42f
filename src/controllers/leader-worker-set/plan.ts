/**
 * What one reconcile of a LeaderWorkerSet does to its pods and PodGroups, decided from the
 * cache alone (upstream spreads this over the leader StatefulSet, the worker StatefulSets and
 * the pod controller; gantry owns the pods directly). Pure: the same inputs give the same plan.
 *
 * Order of concerns, per group index i:
 * - i ≥ replicas: the group's pods go (scale-down), then its PodGroup once no pod is left;
 * - restart policy: a failed, restarted, deleted or vanished pod recreates its whole group
 *   (RecreateGroupOnPodRestart; RecreateGroupAfterStart only once no pod is Pending); with None
 *   a finished pod alone is replaced;
 * - rolling update: stale groups are recreated from the highest index down to the partition,
 *   at most maxUnavailable unavailable groups at a time (unready stale groups go for free);
 * - creation: an empty group gets its PodGroup, its leader and (LeaderCreated, or once the
 *   leader is Ready) its workers; a group missing pods gets them back at the current revision.
 */
import {
  type DefaultedLeaderWorkerSet,
  groupIndexLabel,
  isPodReady,
  type OwnerReference,
  type Pod,
  type PodGroup,
  scaledIntOrPercent,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type GroupPods,
  groupPods,
  isGroupReady,
  leaderPodName,
  podGroupName,
  podRevision,
} from "./identity.ts";
import { newGroupPod } from "./pods.ts";
import { desiredPodGroup } from "./scheduling.ts";

/** Why a pod is deleted. */
export type DeletionCause = "scaleDown" | "recreate" | "update" | "replace" | "stray";

export interface PodDeletion {
  readonly pod: DeepReadonly<Pod>;
  readonly cause: DeletionCause;
}

/** A group recreated by the restart policy, and the pod that made it so. */
export interface GroupRecreation {
  readonly group: number;
  /** The failed, restarted or deleted pod. */
  readonly trigger: string;
  readonly triggerIsLeader: boolean;
  readonly leader: string;
}

/** New objects for one group: its PodGroup when missing, then its pods (leader first). */
export interface GroupCreation {
  readonly group: number;
  readonly podGroup: PodGroup | undefined;
  readonly pods: readonly Pod[];
}

export interface LeaderWorkerSetPlan {
  /** Highest group first. */
  readonly deletions: readonly PodDeletion[];
  readonly recreations: readonly GroupRecreation[];
  /** Groups the rolling update recreates, highest first. */
  readonly updates: readonly number[];
  /** Names of PodGroups of removed groups whose pods are all gone. */
  readonly podGroupDeletions: readonly string[];
  /** Lowest group first. */
  readonly creations: readonly GroupCreation[];
}

export interface LeaderWorkerSetPlanInput {
  readonly lws: DeepReadonly<DefaultedLeaderWorkerSet>;
  /** The current template revision key. */
  readonly revision: string;
  /** The pods the set owns, terminating ones included. */
  readonly pods: readonly DeepReadonly<Pod>[];
  /** The PodGroups the set owns, terminating ones included. */
  readonly podGroups: readonly DeepReadonly<PodGroup>[];
  /** Groups one of whose pods vanished without the controller deleting it, with that pod. */
  readonly lostPods: ReadonlyMap<number, string>;
  /** Uids of pods the controller itself deleted: their going is no failure. */
  readonly ownDeletions: ReadonlySet<string>;
  /** Whether new objects may be created now (the Workload is in place). */
  readonly canCreate: boolean;
  readonly controllerRef: OwnerReference;
}

function isTerminating(pod: DeepReadonly<Pod>): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

function isFinished(pod: DeepReadonly<Pod>): boolean {
  return pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded";
}

/** `ContainerRestarted`: a Running or Pending pod with a (init) container that restarted. */
export function containerRestarted(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  if (phase !== "Running" && phase !== "Pending") return false;
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  return statuses.some((s) => s.restartCount > 0);
}

/** The pods of a group in worker order (leader first). */
function ordered(group: GroupPods | undefined): DeepReadonly<Pod>[] {
  if (group === undefined) return [];
  return [...group.pods.entries()].sort(([a], [b]) => a - b).map(([, pod]) => pod);
}

/**
 * The pod that makes the restart policy recreate a group, if any: one being deleted (not by the
 * controller), finished, or with a restarted container, else one that vanished.
 */
function restartTrigger(
  input: LeaderWorkerSetPlanInput,
  index: number,
  pods: readonly DeepReadonly<Pod>[],
): { name: string; isLeader: boolean } | undefined {
  const policy = input.lws.spec.leaderWorkerTemplate.restartPolicy;
  if (policy === "None") return undefined;
  if (policy === "RecreateGroupAfterStart" && pods.some((p) => p.status?.phase === "Pending")) {
    return undefined;
  }
  const lwsName = input.lws.metadata.name ?? "";
  const leader = leaderPodName(lwsName, index);
  for (const pod of pods) {
    const ownDelete = input.ownDeletions.has(pod.metadata.uid ?? "");
    if ((isTerminating(pod) && !ownDelete) || isFinished(pod) || containerRestarted(pod)) {
      const name = pod.metadata.name ?? "";
      return { name, isLeader: name === leader };
    }
  }
  const lost = input.lostPods.get(index);
  return lost === undefined ? undefined : { name: lost, isLeader: lost === leader };
}

export function planLeaderWorkerSet(input: LeaderWorkerSetPlanInput): LeaderWorkerSetPlan {
  const { lws, revision } = input;
  const lwsName = lws.metadata.name ?? "";
  const replicas = lws.spec.replicas;
  const size = lws.spec.leaderWorkerTemplate.size;
  const { groups, strays } = groupPods(lwsName, size, input.pods);
  const deletions: PodDeletion[] = [];
  const recreations: GroupRecreation[] = [];
  const updates: number[] = [];
  const creations: GroupCreation[] = [];
  /** Groups whose fate this reconcile is decided: no creation, no rolling update. */
  const settled = new Set<number>();
  const remove = (pods: readonly DeepReadonly<Pod>[], cause: DeletionCause): void => {
    for (const pod of pods) if (!isTerminating(pod)) deletions.push({ pod, cause });
  };

  // Scale-down: whole groups beyond `replicas`, highest first.
  const indices = [...groups.keys()].sort((a, b) => b - a);
  for (const index of indices) {
    if (index >= replicas) remove(ordered(groups.get(index)), "scaleDown");
  }
  remove(strays, "stray");

  // Restart policy.
  for (let index = replicas - 1; index >= 0; index--) {
    const pods = ordered(groups.get(index));
    if (pods.length === 0) continue;
    const live = pods.filter((p) => !isTerminating(p));
    const trigger = restartTrigger(input, index, pods);
    if (trigger !== undefined) {
      settled.add(index);
      if (live.length > 0) {
        remove(live, "recreate");
        recreations.push({
          group: index,
          trigger: trigger.name,
          triggerIsLeader: trigger.isLeader,
          leader: leaderPodName(lwsName, index),
        });
      }
      continue;
    }
    if (lws.spec.leaderWorkerTemplate.restartPolicy === "None") {
      // As a StatefulSet does: a finished pod is replaced on its own.
      const finished = live.filter(isFinished);
      if (finished.length > 0) remove(finished, "replace");
    }
  }

  // Rolling update, from the highest group down to the partition.
  const rolling = lws.spec.rolloutStrategy.rollingUpdateConfiguration;
  const step = Math.max(1, scaledIntOrPercent(rolling.maxUnavailable, replicas, false) ?? 1);
  let unavailable = 0;
  for (let index = 0; index < replicas; index++) {
    if (!isGroupReady(groups.get(index), size)) unavailable++;
  }
  let budget = step - unavailable;
  for (let index = replicas - 1; index >= Math.max(0, rolling.partition); index--) {
    if (settled.has(index)) continue;
    const group = groups.get(index);
    const pods = ordered(group);
    if (!pods.some((p) => podRevision(p) !== revision)) continue;
    const live = pods.filter((p) => !isTerminating(p));
    settled.add(index);
    if (live.length === 0) continue;
    if (!isGroupReady(group, size)) {
      remove(live, "update");
      updates.push(index);
      continue;
    }
    if (budget <= 0) break;
    budget--;
    remove(live, "update");
    updates.push(index);
  }
  // Stale groups below the partition, or beyond the budget, keep their pods as they are.
  for (let index = 0; index < replicas; index++) {
    if (ordered(groups.get(index)).some((p) => podRevision(p) !== revision)) settled.add(index);
  }

  // Creation.
  const podGroupsByName = new Map(input.podGroups.map((pg) => [pg.metadata.name ?? "", pg]));
  if (input.canCreate) {
    for (let index = 0; index < replicas; index++) {
      if (settled.has(index)) continue;
      const group = groups.get(index);
      const existing = podGroupsByName.get(podGroupName(lwsName, index));
      if (existing?.metadata.deletionTimestamp !== undefined) continue;
      const leader = group?.pods.get(0);
      const workersAllowed =
        leader !== undefined &&
        !isTerminating(leader) &&
        (lws.spec.startupPolicy === "LeaderCreated" || isPodReady(leader));
      const missing: number[] = [];
      if (leader === undefined) missing.push(0);
      const newLeader = leader === undefined;
      const startWorkers = newLeader ? lws.spec.startupPolicy === "LeaderCreated" : workersAllowed;
      if (startWorkers) {
        for (let worker = 1; worker < size; worker++) {
          if (group?.pods.get(worker) === undefined) missing.push(worker);
        }
      }
      if (missing.length === 0) continue;
      const podInput = { lws, group: index, revision, controllerRef: input.controllerRef };
      creations.push({
        group: index,
        podGroup:
          existing === undefined ? desiredPodGroup(lws, index, input.controllerRef) : undefined,
        pods: missing.map((worker) => newGroupPod(podInput, worker)),
      });
    }
  }

  // PodGroups of removed groups, once their last pod is gone.
  const podGroupDeletions: string[] = [];
  for (const podGroup of input.podGroups) {
    if (podGroup.metadata.deletionTimestamp !== undefined) continue;
    const label = podGroup.metadata.labels?.[groupIndexLabel];
    const index = label !== undefined && /^\d+$/.test(label) ? Number(label) : undefined;
    if (index === undefined || index < replicas) continue;
    if ((groups.get(index)?.pods.size ?? 0) > 0) continue;
    podGroupDeletions.push(podGroup.metadata.name ?? "");
  }

  return { deletions, recreations, updates, podGroupDeletions, creations };
}
