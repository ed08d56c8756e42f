/**
 * Deployment status and its conditions (upstream's sync.go `calculateStatus` and progress.go).
 * Pure: the same inputs give the same status.
 */
import {
  type AppsCondition,
  type Deployment,
  type DeploymentStatus,
  type ReplicaSet,
  semanticEqual,
} from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import { findCondition, removeCondition, setCondition } from "../framework/index.ts";
import { maxUnavailable } from "./fenceposts.ts";
import { replicasOf, specReplicaCount, statusCount } from "./replica-sets.ts";

type D = DeepReadonly<Deployment>;
type RS = DeepReadonly<ReplicaSet>;

// Condition types and reasons, in upstream's words.
export const availableCondition = "Available";
export const progressingCondition = "Progressing";
export const replicaFailureCondition = "ReplicaFailure";
export const replicaSetUpdatedReason = "ReplicaSetUpdated";
export const failedReplicaSetCreateReason = "ReplicaSetCreateError";
export const newReplicaSetReason = "NewReplicaSetCreated";
export const foundNewReplicaSetReason = "FoundNewReplicaSet";
export const newReplicaSetAvailableReason = "NewReplicaSetAvailable";
export const timedOutReason = "ProgressDeadlineExceeded";
export const pausedReason = "DeploymentPaused";
export const resumedReason = "DeploymentResumed";
export const minimumReplicasAvailable = "MinimumReplicasAvailable";
export const minimumReplicasUnavailable = "MinimumReplicasUnavailable";

/** The largest int32: a progressDeadlineSeconds of this value means "no deadline". */
const maxInt32 = 2 ** 31 - 1;

/** `NewDeploymentCondition`: both times are now. */
export function newCondition(
  type: string,
  status: AppsCondition["status"],
  reason: string,
  message: string,
  now: Date,
): AppsCondition {
  const time = rfc3339(now);
  return { type, status, lastUpdateTime: time, lastTransitionTime: time, reason, message };
}

/** `HasProgressDeadline`. */
export function hasProgressDeadline(deployment: D): boolean {
  const seconds = deployment.spec.progressDeadlineSeconds;
  return seconds !== undefined && seconds !== maxInt32;
}

/** `HasRevisionHistoryLimit`. */
export function hasRevisionHistoryLimit(deployment: D): boolean {
  const limit = deployment.spec.revisionHistoryLimit;
  return limit !== undefined && limit !== maxInt32;
}

/** A copy of a status with zero counts left out, as Go's `omitempty` writes it. */
function compact(status: DeploymentStatus): DeploymentStatus {
  const out: DeploymentStatus = {};
  for (const [key, value] of Object.entries(status) as [keyof DeploymentStatus, unknown][]) {
    if (value === undefined || value === 0) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  if (status.collisionCount !== undefined) out.collisionCount = status.collisionCount;
  return out;
}

/**
 * `calculateStatus`: counts from the ReplicaSets, observedGeneration, and the Available
 * condition (available ≥ replicas − maxUnavailable). Other conditions are carried over.
 */
export function calculateStatus(
  all: readonly (RS | undefined)[],
  newRs: RS | undefined,
  deployment: D,
  now: Date,
): DeploymentStatus {
  const available = statusCount(all, "availableReplicas");
  const total = specReplicaCount(all);
  let conditions = [...((deployment.status?.conditions ?? []) as AppsCondition[])];
  if (available >= replicasOf(deployment) - maxUnavailable(deployment)) {
    conditions = setCondition(
      conditions,
      newCondition(
        availableCondition,
        "True",
        minimumReplicasAvailable,
        "Deployment has minimum availability.",
        now,
      ),
    );
  } else {
    conditions = setCondition(
      conditions,
      newCondition(
        availableCondition,
        "False",
        minimumReplicasUnavailable,
        "Deployment does not have minimum availability.",
        now,
      ),
    );
  }
  const status: DeploymentStatus = {
    observedGeneration: deployment.metadata.generation ?? 0,
    replicas: statusCount(all, "replicas"),
    updatedReplicas: statusCount([newRs], "replicas"),
    readyReplicas: statusCount(all, "readyReplicas"),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    conditions,
  };
  if (deployment.status?.collisionCount !== undefined) {
    status.collisionCount = deployment.status.collisionCount;
  }
  return compact(status);
}

/** `DeploymentComplete`: every replica updated and available, nothing old left, generation seen. */
export function isDeploymentComplete(deployment: D, status: DeepReadonly<DeploymentStatus>) {
  const replicas = replicasOf(deployment);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 0)
  );
}

/** `DeploymentProgressing`: more updated, ready or available pods, or fewer old ones. */
export function isDeploymentProgressing(deployment: D, status: DeepReadonly<DeploymentStatus>) {
  const old = deployment.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** `DeploymentTimedOut`: no progress recorded within progressDeadlineSeconds. */
export function isDeploymentTimedOut(
  deployment: D,
  status: DeepReadonly<DeploymentStatus>,
  now: Date,
): boolean {
  if (!hasProgressDeadline(deployment)) return false;
  const condition = findCondition(status.conditions, progressingCondition);
  if (condition === undefined) return false;
  if (condition.reason === newReplicaSetAvailableReason) return false;
  if (condition.reason === timedOutReason) return true;
  const from = Date.parse(condition.lastUpdateTime ?? "");
  if (Number.isNaN(from)) return false;
  const deadline = (deployment.spec.progressDeadlineSeconds ?? 0) * 1000;
  return from + deadline < now.getTime();
}

/** What `syncRolloutStatus` decides: the status to write and when to look again. */
export interface RolloutStatus {
  readonly status: DeploymentStatus;
  /** Set when nothing changed but the progress deadline must be checked later. */
  readonly requeueAfterMs?: number;
}

function rsConditionToDeployment(c: DeepReadonly<AppsCondition>): AppsCondition {
  const out: AppsCondition = { type: c.type, status: c.status };
  if (c.lastTransitionTime !== undefined) {
    out.lastTransitionTime = c.lastTransitionTime;
    out.lastUpdateTime = c.lastTransitionTime;
  }
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  return out;
}

/** `getReplicaFailures`: the new ReplicaSet's ReplicaFailure, else the first old one's. */
function replicaFailure(all: readonly (RS | undefined)[], newRs: RS | undefined) {
  const fromNew = findCondition(newRs?.status?.conditions, replicaFailureCondition);
  if (fromNew !== undefined) return rsConditionToDeployment(fromNew);
  for (const rs of all) {
    const c = findCondition(rs?.status?.conditions, replicaFailureCondition);
    if (c !== undefined) return rsConditionToDeployment(c);
  }
  return undefined;
}

/**
 * `syncRolloutStatus` + `requeueStuckDeployment`: the status with the Progressing condition
 * (NewReplicaSetAvailable when complete, ReplicaSetUpdated on progress, ProgressDeadlineExceeded
 * after the deadline) and ReplicaFailure copied from the ReplicaSets.
 */
export function computeRolloutStatus(
  all: readonly (RS | undefined)[],
  newRs: RS | undefined,
  deployment: D,
  now: Date,
): RolloutStatus {
  const status = calculateStatus(all, newRs, deployment, now);
  let conditions = status.conditions ?? [];
  if (!hasProgressDeadline(deployment)) {
    conditions = removeCondition(conditions, progressingCondition);
  }
  const current = findCondition(deployment.status?.conditions, progressingCondition);
  const complete =
    (status.replicas ?? 0) === (status.updatedReplicas ?? 0) &&
    current?.reason === newReplicaSetAvailableReason;
  const name = deployment.metadata.name ?? "";
  const subject =
    newRs === undefined ? `Deployment "${name}"` : `ReplicaSet "${newRs.metadata.name ?? ""}"`;
  if (hasProgressDeadline(deployment) && !complete) {
    if (isDeploymentComplete(deployment, status)) {
      conditions = setCondition(
        conditions,
        newCondition(
          progressingCondition,
          "True",
          newReplicaSetAvailableReason,
          `${subject} has successfully progressed.`,
          now,
        ),
      );
    } else if (isDeploymentProgressing(deployment, status)) {
      const condition = newCondition(
        progressingCondition,
        "True",
        replicaSetUpdatedReason,
        `${subject} is progressing.`,
        now,
      );
      if (current !== undefined) {
        if (current.status === "True" && current.lastTransitionTime !== undefined) {
          condition.lastTransitionTime = current.lastTransitionTime;
        }
        conditions = removeCondition(conditions, progressingCondition);
      }
      conditions = setCondition(conditions, condition);
    } else if (isDeploymentTimedOut(deployment, { ...status, conditions }, now)) {
      conditions = setCondition(
        conditions,
        newCondition(
          progressingCondition,
          "False",
          timedOutReason,
          `${subject} has timed out progressing.`,
          now,
        ),
      );
    }
  }
  const failure = replicaFailure(all, newRs);
  conditions =
    failure === undefined
      ? removeCondition(conditions, replicaFailureCondition)
      : setCondition(conditions, failure);
  const next = { ...status };
  if (conditions.length > 0) next.conditions = conditions;
  else delete next.conditions;
  // Upstream looks again for a stuck rollout only when there is nothing to write: a write
  // brings the Deployment back through its informer anyway.
  if (!semanticEqual(deployment.status ?? {}, next)) return { status: next };
  const requeueAfterMs = stuckRequeueAfterMs(deployment, next, now);
  return requeueAfterMs === undefined ? { status: next } : { status: next, requeueAfterMs };
}

/**
 * `requeueStuckDeployment`: when a rollout has not finished, the time until its progress
 * deadline passes (plus a second, as upstream), so the timeout is noticed without an event.
 */
function stuckRequeueAfterMs(
  deployment: D,
  status: DeepReadonly<DeploymentStatus>,
  now: Date,
): number | undefined {
  const current = findCondition(deployment.status?.conditions, progressingCondition);
  if (!hasProgressDeadline(deployment) || current === undefined) return undefined;
  if (isDeploymentComplete(deployment, status) || current.reason === timedOutReason) {
    return undefined;
  }
  const from = Date.parse(current.lastUpdateTime ?? "");
  if (Number.isNaN(from)) return undefined;
  const after = from + (deployment.spec.progressDeadlineSeconds ?? 0) * 1000 - now.getTime();
  return Math.max(after, 0) + 1000;
}

/**
 * `checkPausedConditions`: Progressing becomes Unknown/DeploymentPaused when paused and
 * Unknown/DeploymentResumed when resumed, unless the rollout already timed out. Returns the new
 * conditions, or `undefined` when nothing changes.
 */
export function computePausedConditions(deployment: D, now: Date): AppsCondition[] | undefined {
  if (!hasProgressDeadline(deployment)) return undefined;
  const conditions = (deployment.status?.conditions ?? []) as AppsCondition[];
  const current = findCondition(conditions, progressingCondition);
  if (current?.reason === timedOutReason) return undefined;
  const pausedNow = current?.reason === pausedReason;
  if (deployment.spec.paused === true && !pausedNow) {
    return setCondition(
      conditions,
      newCondition(progressingCondition, "Unknown", pausedReason, "Deployment is paused", now),
    );
  }
  if (deployment.spec.paused !== true && pausedNow) {
    return setCondition(
      conditions,
      newCondition(progressingCondition, "Unknown", resumedReason, "Deployment is resumed", now),
    );
  }
  return undefined;
}
