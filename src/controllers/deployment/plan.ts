/**
 * The Deployment controller's decisions as values (upstream's rolling.go, recreate.go and
 * sync.go `scale`/`cleanupDeployment`): which ReplicaSets to resize or delete. Pure; the
 * controller performs the writes.
 */
import type { Deployment, Pod, ReplicaSet } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  newReplicaSetReplicas,
  proportion,
} from "./fenceposts.ts";
import {
  activeReplicaSets,
  byCreation,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  desiredReplicasAnnotation,
  intAnnotation,
  replicasOf,
  specReplicaCount,
  statusCount,
} from "./replica-sets.ts";
import { hasRevisionHistoryLimit } from "./status.ts";

type D = DeepReadonly<Deployment>;
type RS = DeepReadonly<ReplicaSet>;

/**
 * One ReplicaSet resize. With `syncAnnotations` the desired/max-replicas annotations are
 * brought up to date even when the size stays (upstream's `scaleReplicaSet`); without, an
 * unchanged size means no write (`scaleReplicaSetAndRecordEvent`).
 */
export interface ScaleStep {
  readonly rs: RS;
  readonly replicas: number;
  readonly syncAnnotations: boolean;
}

function step(rs: RS, replicas: number, syncAnnotations = false): ScaleStep {
  return { rs, replicas, syncAnnotations };
}

/** `reconcileNewReplicaSet`: the new ReplicaSet's next size, or `undefined` to leave it. */
export function planNewReplicaSetScale(
  all: readonly RS[],
  newRs: RS,
  deployment: D,
): ScaleStep | undefined {
  const replicas = replicasOf(deployment);
  const current = replicasOf(newRs);
  if (current === replicas) return undefined;
  if (current > replicas) return step(newRs, replicas);
  const next = newReplicaSetReplicas(deployment, all, newRs);
  return next === current ? undefined : step(newRs, next);
}

/** A ReplicaSet with a different `spec.replicas`, for planning further steps on top. */
function resized(rs: RS, replicas: number): RS {
  return { ...rs, spec: { ...rs.spec, replicas } };
}

/**
 * `reconcileOldReplicaSets`: scale down old ReplicaSets as far as availability allows. First
 * unhealthy replicas go (oldest ReplicaSet first, they cost no availability), then available
 * ones while more than minAvailable pods are available. Steps are merged per ReplicaSet.
 */
export function planOldReplicaSetsScaleDown(
  all: readonly RS[],
  oldActive: readonly RS[],
  newRs: RS,
  deployment: D,
): ScaleStep[] {
  if (specReplicaCount(oldActive) === 0) return [];
  const allPods = specReplicaCount(all);
  const minAvailable = replicasOf(deployment) - maxUnavailable(deployment);
  const newUnavailable = replicasOf(newRs) - (newRs.status?.availableReplicas ?? 0);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return [];

  const sizes = new Map<string, number>();
  const olds = [...oldActive].sort(byCreation);
  // cleanupUnhealthyReplicas
  let cleaned = 0;
  const afterCleanup = olds.map((rs) => {
    if (cleaned >= maxScaledDown) return rs;
    const replicas = replicasOf(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === available) return rs;
    const count = Math.min(maxScaledDown - cleaned, replicas - available);
    cleaned += count;
    sizes.set(rs.metadata.uid ?? "", replicas - count);
    return resized(rs, replicas - count);
  });
  // scaleDownOldReplicaSetsForRollingUpdate
  const availablePods = statusCount([...afterCleanup, newRs], "availableReplicas");
  if (availablePods > minAvailable) {
    const target = availablePods - minAvailable;
    let scaled = 0;
    for (const rs of afterCleanup) {
      if (scaled >= target) break;
      const replicas = replicasOf(rs);
      if (replicas === 0) continue;
      const count = Math.min(replicas, target - scaled);
      scaled += count;
      sizes.set(rs.metadata.uid ?? "", replicas - count);
    }
  }
  return olds
    .filter((rs) => sizes.has(rs.metadata.uid ?? ""))
    .map((rs) => step(rs, sizes.get(rs.metadata.uid ?? "") ?? replicasOf(rs)));
}

/** `FindActiveOrLatest`: the one active ReplicaSet, the newest when none is, else undefined. */
export function findActiveOrLatest(newRs: RS | undefined, old: readonly RS[]): RS | undefined {
  if (newRs === undefined && old.length === 0) return undefined;
  const newestFirst = [...old].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRs]);
  if (active.length === 0) return newRs ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/**
 * `scale`: resizes on a scaling event or while paused. One active ReplicaSet takes all
 * replicas; a saturated new ReplicaSet makes old ones go to 0; otherwise a rolling Deployment
 * spreads the change proportionally (largest first, leftovers to the first).
 */
export function planProportionalScale(
  deployment: D,
  newRs: RS | undefined,
  old: readonly RS[],
): ScaleStep[] {
  const replicas = replicasOf(deployment);
  const activeOrLatest = findActiveOrLatest(newRs, old);
  if (activeOrLatest !== undefined) {
    return replicasOf(activeOrLatest) === replicas ? [] : [step(activeOrLatest, replicas)];
  }
  if (isSaturated(deployment, newRs)) {
    return activeReplicaSets(old).map((rs) => step(rs, 0));
  }
  if (!isRollingUpdate(deployment)) return [];
  const all = activeReplicaSets([...old, newRs]);
  const allowed = replicas > 0 ? replicas + maxSurge(deployment) : 0;
  const toAdd = allowed - specReplicaCount(all);
  if (toAdd > 0) all.sort(bySizeNewer);
  else if (toAdd < 0) all.sort(bySizeOlder);
  let added = 0;
  const sizes = all.map((rs) => {
    if (toAdd === 0) return replicasOf(rs);
    const p = proportion(rs, deployment, toAdd, added);
    added += p;
    return replicasOf(rs) + p;
  });
  if (toAdd !== 0 && sizes.length > 0) {
    sizes[0] = Math.max(0, (sizes[0] ?? 0) + toAdd - added);
  }
  return all.map((rs, i) => step(rs, sizes[i] ?? replicasOf(rs), true));
}

/** `FilterActiveReplicaSets` over old ReplicaSets. */
export function activeReplicaSetsOf(old: readonly RS[]): RS[] {
  return activeReplicaSets(old);
}

/** `isScalingEvent`: an active ReplicaSet was sized for a different replica count. */
export function isScalingEvent(deployment: D, all: readonly (RS | undefined)[]): boolean {
  const replicas = replicasOf(deployment);
  return activeReplicaSets(all).some((rs) => {
    const desired = intAnnotation(rs, desiredReplicasAnnotation);
    return desired !== undefined && desired !== replicas;
  });
}

/**
 * `cleanupDeployment`: old ReplicaSets beyond revisionHistoryLimit, lowest revision first,
 * skipping any that still have pods, are not fully observed or are already being deleted.
 */
export function planHistoryCleanup(old: readonly RS[], deployment: D): RS[] {
  if (!hasRevisionHistoryLimit(deployment)) return [];
  const cleanable = old.filter((rs) => rs.metadata.deletionTimestamp === undefined);
  const diff = cleanable.length - (deployment.spec.revisionHistoryLimit ?? 0);
  if (diff <= 0) return [];
  return [...cleanable]
    .sort(byRevision)
    .slice(0, diff)
    .filter(
      (rs) =>
        (rs.status?.replicas ?? 0) === 0 &&
        replicasOf(rs) === 0 &&
        (rs.metadata.generation ?? 0) <= (rs.status?.observedGeneration ?? 0),
    );
}

/** `scaleDownOldReplicaSetsForRecreate`: every active old ReplicaSet to 0. */
export function planRecreateScaleDown(oldActive: readonly RS[]): ScaleStep[] {
  return oldActive.filter((rs) => replicasOf(rs) !== 0).map((rs) => step(rs, 0));
}

/**
 * `oldPodsRunning`: old ReplicaSets still report pods, or some pod not of the new ReplicaSet
 * is not yet Succeeded or Failed. `podsByOwner` groups the Deployment's pods by ReplicaSet uid.
 */
export function oldPodsRunning(
  newRs: RS | undefined,
  old: readonly RS[],
  podsByOwner: ReadonlyMap<string, readonly DeepReadonly<Pod>[]>,
): boolean {
  if (statusCount(old, "replicas") > 0) return true;
  for (const [uid, pods] of podsByOwner) {
    if (newRs !== undefined && newRs.metadata.uid === uid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (phase !== "Failed" && phase !== "Succeeded") return true;
    }
  }
  return false;
}
