/**
 * The Deployment controller's writes: finding or creating the new ReplicaSet with its revision
 * (upstream's sync.go `getNewReplicaSet`), resizing ReplicaSets with their ScalingReplicaSet
 * events, history cleanup, and status updates.
 */
import {
  ApiError,
  type Deployment,
  type DeploymentStatus,
  type Pod,
  type ReplicaSet,
} from "../../api/index.ts";
import {
  type Client,
  deploymentsResource,
  isAlreadyExists,
  isNotFound,
  replicaSetsResource,
  type SharedInformer,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, errorMessage, type Logger } from "../../util/index.ts";
import {
  computeHash,
  controllerRefOf,
  type EventRecorder,
  findCondition,
  newControllerRef,
  type OwnerIdentity,
  referenceTo,
  setCondition,
} from "../framework/index.ts";
import { maxSurge, newReplicaSetReplicas } from "./fenceposts.ts";
import { podTemplateHashLabel } from "./hash.ts";
import type { ScaleStep } from "./plan.ts";
import {
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  maxRevision,
  replicasAnnotationsNeedUpdate,
  replicasOf,
  revisionAnnotation,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from "./replica-sets.ts";
import {
  failedReplicaSetCreateReason,
  foundNewReplicaSetReason,
  hasProgressDeadline,
  newCondition,
  newReplicaSetReason,
  progressingCondition,
} from "./status.ts";

export const deploymentIdentity: OwnerIdentity = { apiVersion: "apps/v1", kind: "Deployment" };

type RS = DeepReadonly<ReplicaSet>;

/** Everything one Deployment reconcile uses. */
export interface DeploymentContext {
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
  readonly deployments: SharedInformer<Deployment>;
  readonly replicaSets: SharedInformer<ReplicaSet>;
  readonly pods: SharedInformer<Pod>;
}

/**
 * The Deployment being reconciled: a private copy that follows the writes made to it (upstream
 * mutates its copy in place too), so later writes carry the latest resourceVersion.
 */
export interface DeploymentState {
  d: Deployment;
}

/** The Deployment as an event's involved object. */
export function involvedOf(state: DeploymentState) {
  return referenceTo(state.d, deploymentsResource);
}

/** Writes `state.d` (status and annotations) through the status subresource. */
export async function writeStatus(context: DeploymentContext, state: DeploymentState) {
  const stored = await context.client.updateStatus<Deployment>(deploymentsResource, state.d);
  state.d = stored;
}

/** Replaces the status with `status` and writes it unless nothing changed. */
export async function writeStatusIfChanged(
  context: DeploymentContext,
  state: DeploymentState,
  status: DeploymentStatus,
  equal: (a: unknown, b: unknown) => boolean,
): Promise<void> {
  if (equal(state.d.status ?? {}, status)) return;
  state.d.status = status;
  await writeStatus(context, state);
}

/** `SetDeploymentRevision`: true when the annotation changed. */
function setDeploymentRevision(d: Deployment, revision: string): boolean {
  d.metadata.annotations ??= {};
  if (d.metadata.annotations[revisionAnnotation] === revision) return false;
  d.metadata.annotations[revisionAnnotation] = revision;
  return true;
}

function withLabel(
  labels: Readonly<Record<string, string>> | undefined,
  hash: string,
): Record<string, string> {
  return { ...labels, [podTemplateHashLabel]: hash };
}

/**
 * `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when `create` and missing)
 * with its revision brought up to date, and every old one.
 */
export async function replicaSetsWithRevision(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
  create: boolean,
): Promise<{ newRs: RS | undefined; old: RS[] }> {
  const old = findOldReplicaSets(state.d, owned).all;
  const newRs = await newReplicaSet(context, state, owned, old, create);
  return { newRs, old };
}

async function newReplicaSet(
  context: DeploymentContext,
  state: DeploymentState,
  owned: readonly RS[],
  old: readonly RS[],
  create: boolean,
): Promise<RS | undefined> {
  const { client } = context;
  const d = state.d;
  const now = context.clock.now();
  const existing = findNewReplicaSet(d, owned);
  const newRevision = maxRevision(old) + 1;
  if (existing !== undefined) {
    const copy = structuredClone(existing) as ReplicaSet;
    const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true, maxSurge(d));
    const minReadyChanged = (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
    if (annotationsChanged || minReadyChanged) {
      if (d.spec.minReadySeconds === undefined) delete copy.spec.minReadySeconds;
      else copy.spec.minReadySeconds = d.spec.minReadySeconds;
      return await client.update<ReplicaSet>(replicaSetsResource, copy);
    }
    let needsUpdate = setDeploymentRevision(
      d,
      copy.metadata.annotations?.[revisionAnnotation] ?? "",
    );
    if (
      hasProgressDeadline(d) &&
      findCondition(d.status?.conditions, progressingCondition) === undefined
    ) {
      d.status = {
        ...d.status,
        conditions: setCondition(
          d.status?.conditions,
          newCondition(
            progressingCondition,
            "True",
            foundNewReplicaSetReason,
            `Found new replica set "${copy.metadata.name ?? ""}"`,
            now,
          ),
        ),
      };
      needsUpdate = true;
    }
    if (needsUpdate) await writeStatus(context, state);
    return copy;
  }
  if (!create) return undefined;

  const hash = computeHash(d.spec.template, d.status?.collisionCount);
  const template = structuredClone(d.spec.template);
  template.metadata = { ...template.metadata, labels: withLabel(template.metadata?.labels, hash) };
  const selector = structuredClone(d.spec.selector ?? {});
  selector.matchLabels = withLabel(selector.matchLabels, hash);
  const name = `${d.metadata.name ?? ""}-${hash}`;
  const rs: ReplicaSet = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name,
      namespace: d.metadata.namespace ?? "",
      ownerReferences: [newControllerRef(d, deploymentIdentity)],
      labels: { ...template.metadata.labels },
    },
    spec: { replicas: 0, selector, template },
  };
  if (d.spec.minReadySeconds !== undefined) rs.spec.minReadySeconds = d.spec.minReadySeconds;
  const replicas = newReplicaSetReplicas(d, [...old, rs], rs);
  rs.spec.replicas = replicas;
  setNewReplicaSetAnnotations(d, rs, newRevision, false, maxSurge(d));

  let created: RS;
  let alreadyExisted = false;
  try {
    created = await client.create<ReplicaSet>(replicaSetsResource, rs);
  } catch (error: unknown) {
    if (isAlreadyExists(error)) {
      const found = context.replicaSets.lister.get(rs.metadata.namespace, name);
      if (found === undefined) throw error;
      if (
        controllerRefOf(found)?.uid === d.metadata.uid &&
        equalIgnoreHash(d.spec.template, found.spec.template)
      ) {
        created = found;
        alreadyExisted = true;
      } else {
        // A hash collision: bump collisionCount so the next attempt hashes differently.
        d.status = { ...d.status, collisionCount: (d.status?.collisionCount ?? 0) + 1 };
        try {
          await writeStatus(context, state);
          context.logger.v(2).info("Found a hash collision for deployment", {
            deployment: `${d.metadata.namespace ?? ""}/${d.metadata.name ?? ""}`,
            collisionCount: d.status?.collisionCount,
          });
        } catch (statusError: unknown) {
          context.logger.error("Could not record a hash collision", { error: statusError });
        }
        throw error;
      }
    } else {
      const terminating =
        error instanceof ApiError &&
        (error.details?.causes ?? []).some((c) => c.reason === "NamespaceTerminating");
      if (terminating) throw error;
      const message = `Failed to create new replica set "${name}": ${errorMessage(error)}`;
      if (hasProgressDeadline(d)) {
        d.status = {
          ...d.status,
          conditions: setCondition(
            d.status?.conditions,
            newCondition(progressingCondition, "False", failedReplicaSetCreateReason, message, now),
          ),
        };
        try {
          await writeStatus(context, state);
        } catch (statusError: unknown) {
          context.logger.error("Could not report a failed ReplicaSet creation", {
            error: statusError,
          });
        }
      }
      context.events.event(involvedOf(state), "Warning", failedReplicaSetCreateReason, message);
      throw error;
    }
  }
  if (!alreadyExisted && replicas > 0) {
    context.events.event(
      involvedOf(state),
      "Normal",
      "ScalingReplicaSet",
      `Scaled up replica set ${created.metadata.name ?? ""} from 0 to ${replicas}`,
    );
  }
  let needsUpdate = setDeploymentRevision(state.d, String(newRevision));
  if (!alreadyExisted && hasProgressDeadline(state.d)) {
    state.d.status = {
      ...state.d.status,
      conditions: setCondition(
        state.d.status?.conditions,
        newCondition(
          progressingCondition,
          "True",
          newReplicaSetReason,
          `Created new replica set "${created.metadata.name ?? ""}"`,
          now,
        ),
      ),
    };
    needsUpdate = true;
  }
  if (needsUpdate) await writeStatus(context, state);
  return created;
}

/**
 * Resizes one ReplicaSet as a step asks (`scaleReplicaSet` / `scaleReplicaSetAndRecordEvent`),
 * keeping the desired/max-replicas annotations current and recording ScalingReplicaSet when the
 * size changed. Returns the ReplicaSet as stored and whether its size changed.
 */
export async function applyScaleStep(
  context: DeploymentContext,
  state: DeploymentState,
  step: ScaleStep,
): Promise<{ rs: RS; scaled: boolean }> {
  const d = state.d;
  const rs = step.rs;
  const from = replicasOf(rs);
  const sizeChanges = from !== step.replicas;
  if (!sizeChanges && !step.syncAnnotations) return { rs, scaled: false };
  const desired = replicasOf(d);
  const max = desired + maxSurge(d);
  if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, desired, max))
    return { rs, scaled: false };
  const copy = structuredClone(rs) as ReplicaSet;
  copy.spec.replicas = step.replicas;
  setReplicasAnnotations(copy, desired, max);
  const stored = await context.client.update<ReplicaSet>(replicaSetsResource, copy);
  if (sizeChanges) {
    const direction = from < step.replicas ? "up" : "down";
    context.events.event(
      involvedOf(state),
      "Normal",
      "ScalingReplicaSet",
      `Scaled ${direction} replica set ${stored.metadata.name ?? ""} from ${from} to ${step.replicas}`,
    );
  }
  return { rs: stored, scaled: sizeChanges };
}

/** Applies steps in order; returns whether any size changed and the ReplicaSets as stored. */
export async function applyScaleSteps(
  context: DeploymentContext,
  state: DeploymentState,
  steps: readonly ScaleStep[],
): Promise<{ scaled: boolean; updated: Map<string, RS> }> {
  let scaled = false;
  const updated = new Map<string, RS>();
  for (const step of steps) {
    const result = await applyScaleStep(context, state, step);
    scaled ||= result.scaled;
    updated.set(result.rs.metadata.uid ?? "", result.rs);
  }
  return { scaled, updated };
}

/** Deletes ReplicaSets (history cleanup); one that is already gone is fine. */
export async function deleteReplicaSets(
  context: DeploymentContext,
  replicaSets: readonly RS[],
): Promise<void> {
  for (const rs of replicaSets) {
    try {
      await context.client.delete(
        replicaSetsResource,
        rs.metadata.namespace,
        rs.metadata.name ?? "",
      );
    } catch (error: unknown) {
      if (!isNotFound(error)) throw error;
    }
  }
}
