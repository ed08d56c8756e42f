/** ReplicaSet status (upstream's replica_set_utils.go `calculateStatus`). Pure. */
import {
  type AppsCondition,
  isPodReady,
  matchesLabels,
  type Pod,
  type ReplicaSetStatus,
  selectorFromSet,
  semanticEqual,
} from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import {
  findCondition,
  isPodAvailable,
  removeCondition,
  setCondition,
} from "../framework/index.ts";

export const replicaFailureCondition = "ReplicaFailure";

/** What the status is computed from: the ReplicaSet (or ReplicationController) fields it reads. */
export interface ReplicaSetFacts {
  readonly replicas: number;
  readonly minReadySeconds: number;
  readonly generation: number;
  readonly templateLabels: Readonly<Record<string, string>>;
  readonly status: DeepReadonly<ReplicaSetStatus> | undefined;
}

/**
 * The next status from the active pods this ReplicaSet owns: replicas, fullyLabeledReplicas
 * (pods carrying every template label), readyReplicas, availableReplicas (ready for
 * minReadySeconds), observedGeneration, and the ReplicaFailure condition while creating or
 * deleting pods fails (`manageError`). Zero counts are left out, as upstream's omitempty.
 */
export function computeReplicaSetStatus(
  rs: ReplicaSetFacts,
  activePods: readonly DeepReadonly<Pod>[],
  manageError: Error | undefined,
  now: Date,
): ReplicaSetStatus {
  const template = selectorFromSet(rs.templateLabels);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    if (matchesLabels(template, pod.metadata.labels ?? {})) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, rs.minReadySeconds, now)) available++;
    }
  }
  let conditions = [...((rs.status?.conditions ?? []) as AppsCondition[])];
  const failure = findCondition(conditions, replicaFailureCondition);
  if (manageError !== undefined && failure === undefined) {
    const diff = activePods.length - rs.replicas;
    const reason = diff < 0 ? "FailedCreate" : diff > 0 ? "FailedDelete" : "";
    conditions = setCondition(conditions, {
      type: replicaFailureCondition,
      status: "True",
      lastTransitionTime: rfc3339(now),
      reason,
      message: manageError.message,
    });
  } else if (manageError === undefined && failure !== undefined) {
    conditions = removeCondition(conditions, replicaFailureCondition);
  }
  const status: ReplicaSetStatus = { replicas: activePods.length };
  if (fullyLabeled > 0) status.fullyLabeledReplicas = fullyLabeled;
  if (ready > 0) status.readyReplicas = ready;
  if (available > 0) status.availableReplicas = available;
  if (rs.generation > 0) status.observedGeneration = rs.generation;
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

/** Whether `next` differs from the stored status (`updateReplicaSetStatus`'s no-op check). */
export function statusChanged(
  current: DeepReadonly<ReplicaSetStatus> | undefined,
  next: ReplicaSetStatus,
): boolean {
  return !semanticEqual(current ?? { replicas: 0 }, next);
}
