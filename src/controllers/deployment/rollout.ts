/**
 * The Deployment strategies and the paths around them (upstream's rolling.go, recreate.go,
 * rollback.go and sync.go `sync`/`syncStatusOnly`): each applies the plan of plan.ts through
 * the writes of replica-set-writes.ts and ends by syncing the status.
 */
import { type Deployment, type Pod, type ReplicaSet, semanticEqual } from "../../api/index.ts";
import { deploymentsResource } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { done, type ReconcileResult, requeueAfter } from "../framework/index.ts";
import { podTemplateHashLabel } from "./hash.ts";
import {
  activeReplicaSetsOf,
  oldPodsRunning,
  planHistoryCleanup,
  planNewReplicaSetScale,
  planOldReplicaSetsScaleDown,
  planProportionalScale,
  planRecreateScaleDown,
} from "./plan.ts";
import {
  applyScaleStep,
  applyScaleSteps,
  type DeploymentContext,
  type DeploymentState,
  deleteReplicaSets,
  involvedOf,
  replicaSetsWithRevision,
  writeStatusIfChanged,
} from "./replica-set-writes.ts";
import {
  annotationsToSkip,
  deprecatedRollbackToAnnotation,
  equalIgnoreHash,
  replicasOf,
  revisionOf,
} from "./replica-sets.ts";
import { calculateStatus, computeRolloutStatus, isDeploymentComplete } from "./status.ts";

type RS = DeepReadonly<ReplicaSet>;

/** Replaces ReplicaSets in `list` by their stored versions (matched by uid). */
function refreshed(list: readonly (RS | undefined)[], updated: ReadonlyMap<string, RS>): RS[] {
  return list
    .filter((rs): rs is RS => rs !== undefined)
    .map((rs) => updated.get(rs.metadata.uid ?? "") ?? rs);
}

/** `syncRolloutStatus`: status with the Progressing condition, and a deadline check timer. */
async function syncRolloutStatus(
  context: DeploymentContext,
  state: DeploymentState,
  all: readonly (RS | undefined)[],
  newRs: RS | undefined,
): Promise<ReconcileResult> {
  const { status, requeueAfterMs } = computeRolloutStatus(all, newRs, state.d, context.clock.now());
  await writeStatusIfChanged(context, state, status, semanticEqual);
  return requeueAfterMs === undefined ? done : requeueAfter(requeueAfterMs);
}

/** `syncDeploymentStatus`: counts and Available only (scaling, paused, being deleted). */
async function syncDeploymentStatus(
  context: DeploymentContext,
  state: DeploymentState,
  all: readonly (RS | undefined)[],
  newRs: RS | undefined,
): Promise<ReconcileResult> {
  const status = calculateStatus(all, newRs, state.d, context.clock.now());
  await writeStatusIfChanged(context, state, status, semanticEqual);
  return done;
}

/** `cleanupDeployment`. */
async function cleanup(context: DeploymentContext, state: DeploymentState, old: readonly RS[]) {
  await deleteReplicaSets(context, planHistoryCleanup(old, state.d));
}

/** `syncStatusOnly`: a Deployment being deleted only reports. */
export async function syncStatusOnly(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
): Promise<ReconcileResult> {
  const { newRs, old } = await replicaSetsWithRevision(context, state, owned, false);
  return syncDeploymentStatus(context, state, [...old, newRs], newRs);
}

/** `sync`: a scaling event or a paused Deployment: resize proportionally, no rollout. */
export async function syncScale(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
): Promise<ReconcileResult> {
  const { newRs, old } = await replicaSetsWithRevision(context, state, owned, false);
  const { updated } = await applyScaleSteps(
    context,
    state,
    planProportionalScale(state.d, newRs, old),
  );
  const all = refreshed([...old, newRs], updated);
  const fresh = newRs === undefined ? undefined : (updated.get(newRs.metadata.uid ?? "") ?? newRs);
  if (state.d.spec.paused === true && rollbackRevision(state.d) === undefined) {
    await cleanup(context, state, refreshed(old, updated));
  }
  return syncDeploymentStatus(context, state, all, fresh);
}

/** `rolloutRolling`: grow the new ReplicaSet within maxSurge, shrink old ones within maxUnavailable. */
export async function rolloutRolling(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
): Promise<ReconcileResult> {
  const found = await replicaSetsWithRevision(context, state, owned, true);
  const old = found.old;
  let newRs = found.newRs;
  if (newRs === undefined) return done;
  const step = planNewReplicaSetScale([...old, newRs], newRs, state.d);
  if (step !== undefined) {
    const result = await applyScaleStep(context, state, step);
    newRs = result.rs;
    if (result.scaled) return syncRolloutStatus(context, state, [...old, newRs], newRs);
  }
  const all = [...old, newRs];
  const steps = planOldReplicaSetsScaleDown(all, activeReplicaSetsOf(old), newRs, state.d);
  const { scaled, updated } = await applyScaleSteps(context, state, steps);
  const oldNow = refreshed(old, updated);
  if (scaled) return syncRolloutStatus(context, state, [...oldNow, newRs], newRs);
  if (isDeploymentComplete(state.d, state.d.status ?? {})) await cleanup(context, state, oldNow);
  return syncRolloutStatus(context, state, [...oldNow, newRs], newRs);
}

/** `rolloutRecreate`: every old pod gone before the new ReplicaSet is scaled up. */
export async function rolloutRecreate(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
  podsByOwner: ReadonlyMap<string, readonly DeepReadonly<Pod>[]>,
): Promise<ReconcileResult> {
  let { newRs, old } = await replicaSetsWithRevision(context, state, owned, false);
  const down = await applyScaleSteps(
    context,
    state,
    planRecreateScaleDown(activeReplicaSetsOf(old)),
  );
  old = refreshed(old, down.updated);
  if (down.scaled) return syncRolloutStatus(context, state, [...old, newRs], newRs);
  if (oldPodsRunning(newRs, old, podsByOwner)) {
    return syncRolloutStatus(context, state, [...old, newRs], newRs);
  }
  if (newRs === undefined) {
    ({ newRs, old } = await replicaSetsWithRevision(context, state, owned, true));
    if (newRs === undefined) return done;
  }
  const up = await applyScaleStep(context, state, {
    rs: newRs,
    replicas: replicasOf(state.d),
    syncAnnotations: false,
  });
  newRs = up.rs;
  if (isDeploymentComplete(state.d, state.d.status ?? {})) await cleanup(context, state, old);
  return syncRolloutStatus(context, state, [...old, newRs], newRs);
}

/** The revision the deprecated rollback annotation asks for; `undefined` when none is. */
export function rollbackRevision(d: DeepReadonly<Deployment>): number | undefined {
  const text = d.metadata.annotations?.[deprecatedRollbackToAnnotation];
  if (text === undefined || text === "" || !/^[+-]?\d+$/.test(text)) return undefined;
  return Number(text);
}

/** `LastRevision`: the second highest revision (the one before the current). */
function lastRevision(replicaSets: readonly RS[]): number {
  let max = 0;
  let second = 0;
  for (const rs of replicaSets) {
    const v = revisionOf(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) {
      second = v;
    }
  }
  return second;
}

/**
 * `rollback`: the apps/v1beta1 `rollbackTo` request, carried by the
 * `deprecated.deployment.rollback.to` annotation. kubectl ≥ 1.27 rolls back client-side by
 * patching the template instead, which needs nothing here.
 */
export async function rollback(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
): Promise<ReconcileResult> {
  const { newRs, old } = await replicaSetsWithRevision(context, state, owned, true);
  const all = [...old, ...(newRs === undefined ? [] : [newRs])];
  const d = state.d;
  const name = d.metadata.name ?? "";
  let revision = rollbackRevision(d) ?? 0;
  const clear = async (): Promise<void> => {
    delete state.d.metadata.annotations?.[deprecatedRollbackToAnnotation];
    state.d = await context.client.update<Deployment>(deploymentsResource, state.d);
  };
  if (revision === 0) {
    revision = lastRevision(all);
    if (revision === 0) {
      context.events.event(
        involvedOf(state),
        "Warning",
        "DeploymentRollbackRevisionNotFound",
        "Unable to find last revision.",
      );
      await clear();
      return done;
    }
  }
  const target = all.find((rs) => revisionOf(rs) === revision);
  if (target === undefined) {
    context.events.event(
      involvedOf(state),
      "Warning",
      "DeploymentRollbackRevisionNotFound",
      "Unable to find the revision to rollback to.",
    );
    await clear();
    return done;
  }
  if (equalIgnoreHash(d.spec.template, target.spec.template)) {
    context.events.event(
      involvedOf(state),
      "Warning",
      "DeploymentRollbackTemplateUnchanged",
      `The rollback revision contains the same template as current deployment "${name}"`,
    );
    await clear();
    return done;
  }
  const template = structuredClone(target.spec.template) as Deployment["spec"]["template"];
  if (template.metadata?.labels !== undefined) {
    delete template.metadata.labels[podTemplateHashLabel];
  }
  d.spec.template = template;
  const kept = Object.fromEntries(
    Object.entries(d.metadata.annotations ?? {}).filter(([k]) => annotationsToSkip.has(k)),
  );
  for (const [k, v] of Object.entries(target.metadata.annotations ?? {})) {
    if (!annotationsToSkip.has(k)) kept[k] = v;
  }
  d.metadata.annotations = kept;
  await clear();
  context.events.event(
    involvedOf(state),
    "Normal",
    "DeploymentRollback",
    `Rolled back deployment "${name}" to revision ${revision}`,
  );
  return done;
}
