/**
 * The status of a LeaderWorkerSet from its pods, as upstream's `updateStatus` and
 * `updateConditions` compute it: replicas (groups whose leader exists), readyReplicas,
 * updatedReplicas, the HPA selector of the leaders, observedGeneration, and one of the
 * conditions Available, Progressing, or UpdateInProgress with Progressing. Pure.
 */
import {
  allGroupsReadyReason,
  type Condition,
  type DefaultedLeaderWorkerSet,
  groupsProgressingReason,
  groupsUpdatingReason,
  type LeaderWorkerSetConditionType,
  type LeaderWorkerSetStatus,
  type Pod,
  setNameLabel,
  workerIndexLabel,
} from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";
import { groupPods, isGroupReady, isGroupUpdated } from "./identity.ts";

/** `makeCondition`: the reason and message of each condition type. */
const conditionTexts: Readonly<
  Record<LeaderWorkerSetConditionType, { reason: string; message: string }>
> = {
  Available: { reason: allGroupsReadyReason, message: "All replicas are ready" },
  UpdateInProgress: { reason: groupsUpdatingReason, message: "Rolling Upgrade is in progress" },
  Progressing: { reason: groupsProgressingReason, message: "Replicas are progressing" },
};

/** The selector of a set's leader pods (`status.hpaPodSelector`, the `/scale` selector). */
export function leaderSelector(lwsName: string): string {
  return `${setNameLabel}=${lwsName},${workerIndexLabel}=0`;
}

/** Available–Progressing and Available–UpdateInProgress are never both True. */
function exclusive(a: string, b: string): boolean {
  const pair = new Set([a, b]);
  return pair.has("Available") && (pair.has("Progressing") || pair.has("UpdateInProgress"));
}

/**
 * Upstream's `setCondition` for each of `next` (all True): a condition of the same type with
 * another status is replaced; a True condition exclusive with it turns False; a missing one is
 * added. Returns the new list and whether anything changed.
 */
export function setConditions(
  current: readonly DeepReadonly<Condition>[] | undefined,
  next: readonly Condition[],
  now: Date,
): { conditions: Condition[]; changed: boolean } {
  const conditions = (current ?? []).map((c) => ({ ...c }) as Condition);
  let changed = false;
  for (const wanted of next) {
    let found = false;
    for (let i = 0; i < conditions.length; i++) {
      const existing = conditions[i];
      if (existing === undefined) continue;
      if (existing.type === wanted.type) {
        found = true;
        if (existing.status !== wanted.status) {
          conditions[i] = { ...wanted, lastTransitionTime: rfc3339(now) };
          changed = true;
        }
      } else if (
        exclusive(existing.type, wanted.type) &&
        existing.status === "True" &&
        wanted.status === "True"
      ) {
        conditions[i] = { ...existing, status: "False", lastTransitionTime: rfc3339(now) };
        changed = true;
      }
    }
    if (!found && wanted.status === "True") {
      conditions.push({ ...wanted, lastTransitionTime: rfc3339(now) });
      changed = true;
    }
  }
  return { conditions, changed };
}

export interface LeaderWorkerSetStatusInput {
  readonly lws: DeepReadonly<DefaultedLeaderWorkerSet>;
  readonly revision: string;
  /** The pods the set owns. */
  readonly pods: readonly DeepReadonly<Pod>[];
  readonly now: Date;
}

export interface LeaderWorkerSetStatusResult {
  readonly status: LeaderWorkerSetStatus;
  /** The Normal event upstream records when the conditions change. */
  readonly event?: { readonly reason: string; readonly message: string };
}

/** The status `lws` should report now. Counters that are zero are left out (`omitempty`). */
export function computeLeaderWorkerSetStatus(
  input: LeaderWorkerSetStatusInput,
): LeaderWorkerSetStatusResult {
  const { lws, revision } = input;
  const lwsName = lws.metadata.name ?? "";
  const replicas = lws.spec.replicas;
  const size = lws.spec.leaderWorkerTemplate.size;
  const partition = lws.spec.rolloutStrategy.rollingUpdateConfiguration.partition;
  const { groups } = groupPods(lwsName, size, input.pods);

  let leaders = 0;
  let ready = 0;
  let updated = 0;
  let inPartition = 0;
  let updatedInPartition = 0;
  let readyNonBurst = 0;
  let updatedAndReadyInPartition = 0;
  for (const group of groups.values()) {
    if (group.pods.get(0) === undefined) continue;
    leaders++;
    // Upstream skips a group whose worker StatefulSet does not exist yet.
    if (size > 1 && group.pods.size === 1) continue;
    const inRange = group.index < replicas && group.index >= partition;
    if (inRange) inPartition++;
    const isReady = isGroupReady(group, size);
    const isUpdated = isGroupUpdated(group, revision);
    if (isReady) ready++;
    if (isUpdated) {
      updated++;
      if (inRange) updatedInPartition++;
    }
    if (group.index < replicas) {
      if (isReady) readyNonBurst++;
      if (inRange && isReady && isUpdated) updatedAndReadyInPartition++;
    }
  }

  let types: LeaderWorkerSetConditionType[];
  if (updatedInPartition < inPartition) types = ["UpdateInProgress", "Progressing"];
  else if (readyNonBurst === replicas && updatedAndReadyInPartition === inPartition) {
    types = ["Available"];
  } else types = ["Progressing"];
  const wanted: Condition[] = types.map((type) => ({
    type,
    status: "True",
    lastTransitionTime: rfc3339(input.now),
    ...conditionTexts[type],
  }));
  const { conditions, changed } = setConditions(lws.status?.conditions, wanted, input.now);

  const status: LeaderWorkerSetStatus = {};
  if (conditions.length > 0) status.conditions = conditions;
  if (ready > 0) status.readyReplicas = ready;
  if (updated > 0) status.updatedReplicas = updated;
  if (leaders > 0) status.replicas = leaders;
  status.hpaPodSelector = leaderSelector(lwsName);
  const generation = lws.metadata.generation ?? 0;
  if (generation > 0) status.observedGeneration = generation;
  const first = wanted[0];
  if (!changed || first === undefined) return { status };
  return {
    status,
    event: {
      reason: first.reason,
      message: `${first.message}, with ${ready} groups ready of total ${replicas} groups`,
    },
  };
}
