/**
 * Pod groups as group-aware disruption budgets see them (`budgetScope: PodGroup`, the
 * KEP-5682 draft): which group a pod belongs to, how many of its pods must stay healthy, how
 * many groups are expected, and how many are healthy. Pure: the disruption controller and the
 * eviction subresource both call this with objects they read themselves.
 */
import type { DeepReadonly } from "../../util/index.ts";
import { isPodReady } from "../core/v1/pod-helpers.ts";
import type { Pod } from "../core/v1/pod-types.ts";
import type { PodGroup } from "../scheduling/v1alpha1/pod-group.ts";
import type { PodGroupPolicy, Workload } from "../scheduling/v1alpha1/workload.ts";

/** The objects group resolution reads, from one namespace. `undefined` means "does not exist". */
export interface PodGroupSource {
  workload(name: string): DeepReadonly<Workload> | undefined;
  podGroup(name: string): DeepReadonly<PodGroup> | undefined;
  /** Every PodGroup of the namespace instantiating `template` of `workload`. */
  podGroupsOf(workload: string, template: string): readonly DeepReadonly<PodGroup>[];
}

/** Where a pod stands with respect to groups. */
export type PodGroupMembership =
  /** No `spec.workloadRef`: a single-pod group. */
  | { readonly kind: "none" }
  /** A workloadRef naming no group: counted as an unhealthy group of its own. */
  | { readonly kind: "ungrouped" }
  /** The group (or the Workload or template that sizes it) cannot be found: fail safe. */
  | { readonly kind: "missing"; readonly message: string }
  | {
      readonly kind: "group";
      /** Unique within the namespace: `podgroup/<name>` or `workload/<w>/<group>/<replicaKey>`. */
      readonly key: string;
      readonly minCount: number;
      /** Which expected-groups bucket this group belongs to (a template or a legacy group). */
      readonly family: string;
    };

/** The pods a group must keep: gang `minCount`; a basic group counts as 1. */
export function minCountOf(policy: DeepReadonly<PodGroupPolicy> | undefined): number {
  return policy?.gang?.minCount ?? 1;
}

/** Resolves the group of `pod` against `source`. */
export function podGroupMembership(
  pod: DeepReadonly<Pod>,
  source: PodGroupSource,
): PodGroupMembership {
  const ref = pod.spec?.workloadRef;
  if (ref === undefined) return { kind: "none" };
  if (ref.podGroupName !== undefined && ref.podGroupName !== "") {
    const group = source.podGroup(ref.podGroupName);
    if (group === undefined) {
      return { kind: "missing", message: `PodGroup "${ref.podGroupName}" not found` };
    }
    const workloadName = group.spec.workloadRef.name;
    const workload = source.workload(workloadName);
    if (workload === undefined) {
      return { kind: "missing", message: `Workload "${workloadName}" not found` };
    }
    const templateName = group.spec.podGroupTemplateName;
    const template = workload.spec.podGroupTemplates?.find((t) => t.name === templateName);
    if (template === undefined) {
      return {
        kind: "missing",
        message: `pod group template "${templateName}" not found in Workload "${workloadName}"`,
      };
    }
    return {
      kind: "group",
      key: `podgroup/${ref.podGroupName}`,
      minCount: minCountOf(template.policy),
      family: `template/${workloadName}/${templateName}`,
    };
  }
  if (ref.podGroup !== undefined && ref.podGroup !== "") {
    const workload = source.workload(ref.name);
    if (workload === undefined) {
      return { kind: "missing", message: `Workload "${ref.name}" not found` };
    }
    const group = workload.spec.podGroups?.find((g) => g.name === ref.podGroup);
    if (group === undefined) {
      return {
        kind: "missing",
        message: `pod group "${ref.podGroup}" not found in Workload "${ref.name}"`,
      };
    }
    return {
      kind: "group",
      key: `workload/${ref.name}/${ref.podGroup}/${ref.podGroupReplicaKey ?? ""}`,
      minCount: minCountOf(group.policy),
      family: `legacy/${ref.name}/${ref.podGroup}`,
    };
  }
  return { kind: "ungrouped" };
}

/** Whether a pod counts toward its group's health: Ready, not terminating, not being evicted. */
export function isPodHealthyForGroup(
  pod: DeepReadonly<Pod>,
  disrupted: Readonly<Record<string, string>>,
): boolean {
  if (pod.metadata.deletionTimestamp !== undefined) return false;
  if (disrupted[pod.metadata.name ?? ""] !== undefined) return false;
  return isPodReady(pod);
}

/** One group's pods and health. */
export interface GroupState {
  readonly key: string;
  readonly minCount: number;
  /** Names of the group's selected pods. */
  readonly pods: string[];
  healthyPods: number;
}

/** Which groups a budget's pods form, and how healthy each is (no expected count). */
export interface GroupTally {
  /** Every group seen, by key (single-pod groups are keyed `pod/<name>`). */
  readonly groups: ReadonlyMap<string, GroupState>;
  /** The pod name → group key. */
  readonly groupOfPod: ReadonlyMap<string, string>;
  /** Pods without a workloadRef, counted as single-pod groups. */
  readonly ungroupedPods: readonly string[];
  /** Pods whose workloadRef names no group: unhealthy groups. */
  readonly invalidPods: readonly string[];
  /** The first missing object, if any: callers fail safe with this message. */
  readonly missing: string | undefined;
  /** True when no pod has a workloadRef: the budget falls back to per-pod counting. */
  readonly noGroups: boolean;
  /** Expected-groups bucket (see `PodGroupMembership.family`) → the group keys seen in it. */
  readonly families: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What group counting found among a budget's pods. */
export interface GroupCounts extends GroupTally {
  /** How many groups the budget expects (see `countPodGroups`). */
  readonly expected: number;
  /** Groups with at least `minCount` healthy pods. */
  readonly healthy: number;
}

/** The part of a workloadRef that names a group: pods with equal refs share a group. */
export function workloadRefKey(ref: DeepReadonly<NonNullable<Pod["spec"]["workloadRef"]>>): string {
  return `${ref.name}\u0000${ref.podGroupName ?? ""}\u0000${ref.podGroup ?? ""}\u0000${ref.podGroupReplicaKey ?? ""}`;
}

/**
 * Sorts `pods` (a budget's selected pods) into groups and counts each group's healthy pods
 * (see `isPodHealthyForGroup`). Each distinct workloadRef is resolved against `source` once.
 */
export function tallyPodGroups(
  pods: readonly DeepReadonly<Pod>[],
  source: PodGroupSource,
  disrupted: Readonly<Record<string, string>>,
): GroupTally {
  const groups = new Map<string, GroupState>();
  const groupOfPod = new Map<string, string>();
  const ungroupedPods: string[] = [];
  const invalidPods: string[] = [];
  const families = new Map<string, Set<string>>();
  /** workloadRefKey → the group state it resolved to (undefined: not a group). */
  const resolved = new Map<string, GroupState | undefined>();
  let missing: string | undefined;
  let grouped = false;
  for (const pod of pods) {
    const name = pod.metadata.name ?? "";
    const ref = pod.spec?.workloadRef;
    let state: GroupState | undefined;
    if (ref === undefined) {
      ungroupedPods.push(name);
      const key = `pod/${name}`;
      state = { key, minCount: 1, pods: [], healthyPods: 0 };
      groups.set(key, state);
    } else {
      grouped = true;
      const refKey = workloadRefKey(ref);
      if (resolved.has(refKey)) {
        state = resolved.get(refKey);
      } else {
        const membership = podGroupMembership(pod, source);
        if (membership.kind === "group") {
          state = groups.get(membership.key);
          if (state === undefined) {
            state = {
              key: membership.key,
              minCount: membership.minCount,
              pods: [],
              healthyPods: 0,
            };
            groups.set(membership.key, state);
          }
          let family = families.get(membership.family);
          if (family === undefined) {
            family = new Set<string>();
            families.set(membership.family, family);
          }
          family.add(membership.key);
        } else if (membership.kind === "missing") {
          missing ??= membership.message;
        }
        resolved.set(refKey, state);
      }
      if (state === undefined && !(ref.podGroupName ?? "") && !(ref.podGroup ?? "")) {
        invalidPods.push(name);
      }
    }
    if (state === undefined) continue;
    state.pods.push(name);
    groupOfPod.set(name, state.key);
    if (isPodHealthyForGroup(pod, disrupted)) state.healthyPods++;
  }
  return { groups, groupOfPod, ungroupedPods, invalidPods, missing, noGroups: !grouped, families };
}

/**
 * Counts groups among `pods` (a budget's selected pods). Expected groups: every PodGroup object
 * of each referenced Workload template (one replica each, with pods or not); for legacy
 * Workload groups the group's `replicas` when set, else the replica keys seen; plus one per
 * single-pod group and per invalid pod. A group is healthy when its healthy pods (see
 * `isPodHealthyForGroup`) reach its minCount; invalid pods never are.
 */
export function countPodGroups(
  pods: readonly DeepReadonly<Pod>[],
  source: PodGroupSource,
  disrupted: Readonly<Record<string, string>>,
): GroupCounts {
  const tally = tallyPodGroups(pods, source, disrupted);
  let expected = tally.ungroupedPods.length + tally.invalidPods.length;
  for (const [family, seen] of tally.families) {
    expected += expectedInFamily(family, seen, source);
  }
  let healthy = 0;
  for (const state of tally.groups.values()) if (state.healthyPods >= state.minCount) healthy++;
  return { ...tally, expected, healthy };
}

/** Expected replicas of one template (its PodGroup objects) or legacy group. */
function expectedInFamily(
  family: string,
  seen: ReadonlySet<string>,
  source: PodGroupSource,
): number {
  const [kind, workload = "", group = ""] = family.split("/");
  if (kind === "template") {
    const keys = new Set(seen);
    for (const pg of source.podGroupsOf(workload, group)) {
      keys.add(`podgroup/${pg.metadata.name ?? ""}`);
    }
    return keys.size;
  }
  const replicas = source
    .workload(workload)
    ?.spec.podGroups?.find((g) => g.name === group)?.replicas;
  return replicas ?? seen.size;
}
