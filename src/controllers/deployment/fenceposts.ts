/** Rolling-update arithmetic: maxSurge/maxUnavailable and how many replicas each ReplicaSet gets. */
import type { Deployment, IntOrString, ReplicaSet } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  desiredReplicasAnnotation,
  intAnnotation,
  maxReplicasAnnotation,
  replicasOf,
  specReplicaCount,
} from "./replica-sets.ts";

type D = DeepReadonly<Deployment>;
type RS = DeepReadonly<ReplicaSet>;

/**
 * `intstr.GetScaledValueFromIntOrPercent`: an int as is, `"25%"` of `total` rounded up or down.
 * Throws a RangeError for a string that is not a percentage (validation rejects those).
 */
export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean) {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  const match = /^(-?\d+)%$/.exec(value);
  if (match?.[1] === undefined) {
    throw new RangeError(`Cannot scale ${JSON.stringify(value)}: invalid value for IntOrString`);
  }
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * `ResolveFenceposts`: maxSurge rounds up, maxUnavailable rounds down, and when both come to 0
 * maxUnavailable becomes 1 so the rollout can move.
 */
export function resolveFenceposts(
  maxSurge: IntOrString | undefined,
  maxUnavailable: IntOrString | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function isRollingUpdate(deployment: D): boolean {
  return (deployment.spec.strategy?.type ?? "RollingUpdate") === "RollingUpdate";
}

function fenceposts(deployment: D): { surge: number; unavailable: number } {
  const rolling = deployment.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rolling?.maxSurge, rolling?.maxUnavailable, replicasOf(deployment));
}

/** `MaxUnavailable`: 0 for Recreate or 0 replicas, never more than the replicas. */
export function maxUnavailable(deployment: D): number {
  const replicas = replicasOf(deployment);
  if (!isRollingUpdate(deployment) || replicas === 0) return 0;
  return Math.min(fenceposts(deployment).unavailable, replicas);
}

/** `MaxSurge`: 0 for Recreate. */
export function maxSurge(deployment: D): number {
  if (!isRollingUpdate(deployment)) return 0;
  return fenceposts(deployment).surge;
}

/** `MinAvailable`: replicas − maxUnavailable for rolling updates, 0 for Recreate. */
export function minAvailable(deployment: D): number {
  if (!isRollingUpdate(deployment)) return 0;
  return replicasOf(deployment) - maxUnavailable(deployment);
}

/**
 * `NewRSNewReplicas`: how big the new ReplicaSet may grow now. Rolling: up to replicas + maxSurge
 * pods in total, never beyond the Deployment's replicas. Recreate: all replicas at once.
 */
export function newReplicaSetReplicas(deployment: D, all: readonly RS[], newRs: RS): number {
  const current = replicasOf(newRs);
  if (!isRollingUpdate(deployment)) return replicasOf(deployment);
  const replicas = replicasOf(deployment);
  const surge = scaledValue(deployment.spec.strategy?.rollingUpdate?.maxSurge, replicas, true);
  const total = specReplicaCount(all);
  const maxTotal = replicas + surge;
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, replicas - current);
}

/** `IsSaturated`: the ReplicaSet runs all the Deployment's replicas, all of them available. */
export function isSaturated(deployment: D, rs: RS | undefined): boolean {
  if (rs === undefined) return false;
  const desired = intAnnotation(rs, desiredReplicasAnnotation);
  const replicas = replicasOf(deployment);
  return (
    desired !== undefined &&
    replicasOf(rs) === replicas &&
    desired === replicas &&
    (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/** Go's `math.Round`: halves away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** `getReplicaSetFraction`: this ReplicaSet's share of a resize, from its max-replicas annotation. */
function replicaSetFraction(rs: RS, deployment: D): number {
  const replicas = replicasOf(deployment);
  if (replicas === 0) return -replicasOf(rs);
  const deploymentReplicas = replicas + maxSurge(deployment);
  const annotated = intAnnotation(rs, maxReplicasAnnotation) ?? deployment.status?.replicas ?? 0;
  if (annotated === 0) return 0;
  const size = (replicasOf(rs) * deploymentReplicas) / annotated;
  return roundHalfAway(size) - replicasOf(rs);
}

/**
 * `GetProportion`: how many replicas to add to (or, negative, remove from) `rs` while
 * `toAdd` are being spread and `added` already were.
 */
export function proportion(rs: RS, deployment: D, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, deployment);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
