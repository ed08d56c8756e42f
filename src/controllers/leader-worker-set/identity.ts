/**
 * Names and identities of what a LeaderWorkerSet owns: leader pods `<lws>-<i>`, worker pods
 * `<lws>-<i>-<j>` (j = 1..size-1), the Workload `<lws>` with its PodGroup template, and one
 * PodGroup `<lws>-<i>` per group; and the grouping of owned pods by group. Pure.
 */
import {
  groupIndexLabel,
  isPodReady,
  type Pod,
  setNameLabel,
  templateRevisionHashLabel,
  workerIndexLabel,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The leader of group `group` (upstream's leader StatefulSet pod name). */
export function leaderPodName(lwsName: string, group: number): string {
  return `${lwsName}-${group}`;
}

/** Worker `worker` (1-based) of group `group` (upstream's worker StatefulSet pod name). */
export function workerPodName(lwsName: string, group: number, worker: number): string {
  return `${lwsName}-${group}-${worker}`;
}

/** The pod of worker index `worker` (0 is the leader). */
export function podName(lwsName: string, group: number, worker: number): string {
  return worker === 0 ? leaderPodName(lwsName, group) : workerPodName(lwsName, group, worker);
}

/** The Workload of a LeaderWorkerSet: its own name. */
export function workloadName(lwsName: string): string {
  return lwsName;
}

/** The PodGroup of group `group`. */
export function podGroupName(lwsName: string, group: number): string {
  return `${lwsName}-${group}`;
}

const dnsLabelMax = 63;
const templateSuffix = "-pg-template";

/** The Workload's single PodGroup template: `<lws>-pg-template`, the name cut to fit a DNS label. */
export function podGroupTemplateName(lwsName: string): string {
  return `${lwsName.slice(0, dnsLabelMax - templateSuffix.length)}${templateSuffix}`;
}

/** A non-negative decimal index, or `undefined`. */
function indexOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^(0|[1-9][0-9]*)$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A pod's place in its LeaderWorkerSet from its labels, when its name is the one that place
 * gives; `undefined` for a pod that is not (or no longer) one of the set's pods.
 */
export function podIdentity(
  lwsName: string,
  pod: DeepReadonly<Pod>,
): { group: number; worker: number } | undefined {
  const labels = pod.metadata.labels ?? {};
  if (labels[setNameLabel] !== lwsName) return undefined;
  const group = indexOf(labels[groupIndexLabel]);
  const worker = indexOf(labels[workerIndexLabel]);
  if (group === undefined || worker === undefined) return undefined;
  if (pod.metadata.name !== podName(lwsName, group, worker)) return undefined;
  return { group, worker };
}

/** The pods of one group, by worker index (0 is the leader). */
export interface GroupPods {
  readonly index: number;
  readonly pods: ReadonlyMap<number, DeepReadonly<Pod>>;
}

/** Owned pods sorted into groups; `strays` have no valid place (or one beyond `size`). */
export interface PodsByGroup {
  readonly groups: ReadonlyMap<number, GroupPods>;
  readonly strays: readonly DeepReadonly<Pod>[];
}

/** Sorts `pods` into their groups. */
export function groupPods(
  lwsName: string,
  size: number,
  pods: readonly DeepReadonly<Pod>[],
): PodsByGroup {
  const groups = new Map<number, Map<number, DeepReadonly<Pod>>>();
  const strays: DeepReadonly<Pod>[] = [];
  for (const pod of pods) {
    const identity = podIdentity(lwsName, pod);
    if (identity === undefined || identity.worker >= size) {
      strays.push(pod);
      continue;
    }
    let group = groups.get(identity.group);
    if (group === undefined) {
      group = new Map();
      groups.set(identity.group, group);
    }
    group.set(identity.worker, pod);
  }
  return {
    groups: new Map([...groups].map(([index, byWorker]) => [index, { index, pods: byWorker }])),
    strays,
  };
}

/** The template revision a pod was built from ("" without one). */
export function podRevision(pod: DeepReadonly<Pod>): string {
  return pod.metadata.labels?.[templateRevisionHashLabel] ?? "";
}

/** `PodRunningAndReady`: phase Running and the Ready condition True. */
export function isRunningAndReady(pod: DeepReadonly<Pod>): boolean {
  return pod.status?.phase === "Running" && isPodReady(pod);
}

/** A group is ready when all `size` pods exist, none is being deleted, and all run Ready. */
export function isGroupReady(group: GroupPods | undefined, size: number): boolean {
  if (group === undefined || group.pods.size !== size) return false;
  for (const pod of group.pods.values()) {
    if (pod.metadata.deletionTimestamp !== undefined || !isRunningAndReady(pod)) return false;
  }
  return true;
}

/**
 * A group is updated when its leader exists and it and every worker that exists carry
 * `revision` (upstream compares the leader pod and the worker StatefulSet's revision labels).
 */
export function isGroupUpdated(group: GroupPods | undefined, revision: string): boolean {
  const leader = group?.pods.get(0);
  if (group === undefined || leader === undefined) return false;
  for (const pod of group.pods.values()) if (podRevision(pod) !== revision) return false;
  return true;
}
