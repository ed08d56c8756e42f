/** StatefulSet status (upstream's `computeReplicaStatus`, `completeRollingUpdate`). Pure. */
import type { Pod, StatefulSet, StatefulSetStatus } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { isPodAvailable } from "../framework/index.ts";
import { podRevision } from "./identity.ts";
import { isCreated, isRunningAndReady } from "./pod-state.ts";

/** The counters a StatefulSet reports. */
export interface ReplicaCounts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
}

/**
 * `computeReplicaStatus`: pods with a phase count as replicas; Running and Ready ones as ready,
 * and as available once Ready for `minReadySeconds`; pods not being deleted count as current or
 * updated by their revision label.
 */
export function countReplicas(
  pods: readonly DeepReadonly<Pod>[],
  minReadySeconds: number,
  currentRevision: string,
  updateRevision: string,
  now: Date,
): ReplicaCounts {
  const counts: ReplicaCounts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
  };
  for (const pod of pods) {
    if (isCreated(pod)) counts.replicas++;
    if (isRunningAndReady(pod)) {
      counts.readyReplicas++;
      if (isPodAvailable(pod, minReadySeconds, now)) counts.availableReplicas++;
    }
    if (isCreated(pod) && pod.metadata.deletionTimestamp === undefined) {
      const revision = podRevision(pod);
      if (revision === currentRevision) counts.currentReplicas++;
      if (revision === updateRevision) counts.updatedReplicas++;
    }
  }
  return counts;
}

/** What the status is built from besides the counters. */
export interface StatusFacts {
  readonly set: DeepReadonly<StatefulSet>;
  readonly counts: ReplicaCounts;
  readonly currentRevision: string;
  readonly updateRevision: string;
  /** The collision count the update revision needed. */
  readonly collisionCount: number;
}

/**
 * The status to store: the counters (zero counts left out as upstream's omitempty, except
 * `replicas` and `availableReplicas`), observedGeneration, the revisions, collisionCount, conditions kept. A RollingUpdate whose pods are all updated and ready completes:
 * currentRevision becomes the update revision (`completeRollingUpdate`).
 */
export function computeStatefulSetStatus(facts: StatusFacts): StatefulSetStatus {
  const { set, counts } = facts;
  let current = counts.currentReplicas;
  let currentRevision = facts.currentRevision;
  const rolling = (set.spec.updateStrategy?.type ?? "RollingUpdate") === "RollingUpdate";
  if (
    rolling &&
    counts.updatedReplicas === counts.replicas &&
    counts.readyReplicas === counts.replicas
  ) {
    current = counts.updatedReplicas;
    currentRevision = facts.updateRevision;
  }
  const status: StatefulSetStatus = { replicas: counts.replicas };
  const generation = set.metadata.generation ?? 0;
  if (generation > 0) status.observedGeneration = generation;
  if (counts.readyReplicas > 0) status.readyReplicas = counts.readyReplicas;
  if (current > 0) status.currentReplicas = current;
  if (counts.updatedReplicas > 0) status.updatedReplicas = counts.updatedReplicas;
  status.currentRevision = currentRevision;
  status.updateRevision = facts.updateRevision;
  status.collisionCount = facts.collisionCount;
  status.availableReplicas = counts.availableReplicas;
  const conditions = set.status?.conditions;
  if (conditions !== undefined && conditions.length > 0) {
    status.conditions = structuredClone(conditions) as NonNullable<StatefulSetStatus["conditions"]>;
  }
  return status;
}
