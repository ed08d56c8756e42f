/**
 * What one StatefulSet sync does (upstream's `updateStatefulSet`), as a plan of steps computed
 * from the cached pods. Pure: the sync executes the plan.
 *
 * Pods are split into `replicas` (ordinals in [start, start + spec.replicas)) and `condemned`
 * (other valid ordinals). Three phases follow, each only when the previous one did not block:
 * 1. replicas in ascending order: finished pods are deleted (recreated on a later sync), missing
 *    ones created, pods with a broken identity updated;
 * 2. condemned pods from the highest ordinal down are deleted (scale down);
 * 3. RollingUpdate only: from the highest ordinal down to the partition, the first pod not at the
 *    update revision is deleted (recreated at the update revision by phase 1 later).
 * `OrderedReady` (monotonic) stops at the first pod that is not Running, Ready and available and
 * after every create or delete; `Parallel` runs every step of a phase at once.
 */
import type { OwnerReference, Pod, PodTemplateSpec, StatefulSet } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { isPodAvailable } from "../framework/index.ts";
import {
  identityMatches,
  newStatefulSetPod,
  ordinalOf,
  podRevision,
  startOrdinal,
  storageMatches,
} from "./identity.ts";
import { isFinished, isRunningAndReady, isTerminating, isUnavailable } from "./pod-state.ts";
import { countReplicas, type ReplicaCounts } from "./status.ts";

/** A revision: its name and the pod template it stands for. */
export interface Revision {
  readonly name: string;
  readonly template: DeepReadonly<PodTemplateSpec>;
}

export interface StatefulSetPlanInput {
  readonly set: DeepReadonly<StatefulSet>;
  /** The pods the set owns (after adoption and release). */
  readonly pods: readonly DeepReadonly<Pod>[];
  readonly current: Revision;
  readonly update: Revision;
  readonly controllerRef: OwnerReference;
  readonly now: Date;
}

/** One write of a sync. */
export type StatefulSetStep =
  | { readonly type: "create"; readonly ordinal: number; readonly pod: Pod }
  | {
      readonly type: "delete";
      readonly pod: DeepReadonly<Pod>;
      /** finished: Failed/Succeeded pod to recreate; scaleDown: ordinal out of range; update: old revision. */
      readonly cause: "finished" | "scaleDown" | "update";
    }
  | { readonly type: "updateIdentity"; readonly pod: DeepReadonly<Pod> };

export interface StatefulSetPlan {
  /** OrderedReady: run steps one after the other; Parallel: each phase at once. */
  readonly monotonic: boolean;
  /** Phases in order; a later phase runs only after every step of the earlier ones succeeded. */
  readonly phases: readonly (readonly StatefulSetStep[])[];
  /** The counters over the pods in range and condemned (pods created now are not counted yet). */
  readonly counts: ReplicaCounts;
}

/** `newVersionedStatefulSetPod`: below the partition pods are made at the current revision. */
function versionedPod(input: StatefulSetPlanInput, ordinal: number): Pod {
  const { set, current, update } = input;
  const strategy = set.spec.updateStrategy;
  const start = startOrdinal(set);
  const rolling = strategy?.rollingUpdate;
  const atCurrent =
    ((strategy?.type ?? "RollingUpdate") === "RollingUpdate" &&
      rolling === undefined &&
      ordinal < start + (set.status?.currentReplicas ?? 0)) ||
    (rolling !== undefined && ordinal < start + (rolling.partition ?? 0));
  const revision = atCurrent ? current : update;
  return newStatefulSetPod(set, revision.template, ordinal, revision.name, input.controllerRef);
}

export function planStatefulSet(input: StatefulSetPlanInput): StatefulSetPlan {
  const { set, now } = input;
  const minReady = set.spec.minReadySeconds ?? 0;
  const start = startOrdinal(set);
  const count = set.spec.replicas ?? 1;
  const inRange: (DeepReadonly<Pod> | undefined)[] = Array.from({ length: count }, () => undefined);
  const condemned: DeepReadonly<Pod>[] = [];
  for (const pod of input.pods) {
    const ordinal = ordinalOf(pod);
    if (ordinal >= start && ordinal < start + count) inRange[ordinal - start] = pod;
    else if (ordinal >= 0) condemned.push(pod);
  }
  // Highest ordinal first.
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
  const counts = countReplicas(
    [...inRange.filter((p): p is DeepReadonly<Pod> => p !== undefined), ...condemned],
    minReady,
    input.current.name,
    input.update.name,
    now,
  );
  const monotonic = (set.spec.podManagementPolicy ?? "OrderedReady") !== "Parallel";
  if (set.metadata.deletionTimestamp !== undefined) return { monotonic, phases: [], counts };

  const replicas: { ordinal: number; pod: DeepReadonly<Pod>; planned: boolean }[] = inRange.map(
    (pod, i) =>
      pod === undefined
        ? { ordinal: start + i, pod: versionedPod(input, start + i), planned: true }
        : { ordinal: start + i, pod, planned: false },
  );
  const unavailable = (pod: DeepReadonly<Pod>): boolean => isUnavailable(pod, minReady, now);
  const firstUnavailable =
    replicas.find((r) => unavailable(r.pod))?.pod ??
    [...condemned].reverse().find((pod) => unavailable(pod));

  const phases: StatefulSetStep[][] = [];
  // Phase 1: the replicas in range.
  const first: StatefulSetStep[] = [];
  phases.push(first);
  for (const replica of replicas) {
    const { pod } = replica;
    if (!replica.planned && isFinished(pod)) {
      if (!isTerminating(pod)) first.push({ type: "delete", pod, cause: "finished" });
      if (monotonic) return { monotonic, phases, counts };
      continue;
    }
    if (replica.planned) {
      first.push({ type: "create", ordinal: replica.ordinal, pod: pod as Pod });
      if (monotonic) return { monotonic, phases, counts };
      continue;
    }
    if (monotonic) {
      if (isTerminating(pod) || !isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now)) {
        return { monotonic, phases, counts };
      }
    }
    if (!identityMatches(set, pod) || !storageMatches(set, pod)) {
      first.push({ type: "updateIdentity", pod });
    }
  }

  // Phase 2: scale down, highest ordinal first.
  const second: StatefulSetStep[] = [];
  phases.push(second);
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return { monotonic, phases, counts };
      continue;
    }
    if (monotonic && pod !== firstUnavailable) {
      if (!isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now)) {
        return { monotonic, phases, counts };
      }
    }
    second.push({ type: "delete", pod, cause: "scaleDown" });
    if (monotonic) return { monotonic, phases, counts };
  }

  // Phase 3: rolling update, highest ordinal first, down to the partition.
  const strategy = set.spec.updateStrategy;
  if ((strategy?.type ?? "RollingUpdate") === "OnDelete") return { monotonic, phases, counts };
  const third: StatefulSetStep[] = [];
  phases.push(third);
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  for (let target = replicas.length - 1; target >= partition; target--) {
    const replica = replicas[target];
    if (replica === undefined) continue;
    const { pod } = replica;
    if (podRevision(pod) !== input.update.name && !isTerminating(pod)) {
      third.push({ type: "delete", pod, cause: "update" });
      return { monotonic, phases, counts };
    }
    if (unavailable(pod)) return { monotonic, phases, counts };
  }
  return { monotonic, phases, counts };
}
