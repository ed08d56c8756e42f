/**
 * The scheduler's pod-group state (upstream's `podGroupManager`/`workloadManager`): the members
 * of every gang the scheduler has seen (pending, assumed and bound, fed by the pod informer) and
 * the lookup of a gang's policy through the Workload and PodGroup informers. Read by the
 * GangScheduling plugin (through `Handle.podGroups`) and by the group cycle.
 */
import type { PodGroup, Workload } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type GroupCounts,
  type GroupRef,
  groupPolicyOf,
  groupRefOf,
  type PodGroupView,
  type PodObject,
  type PolicyResolution,
} from "../framework/index.ts";

/** How the manager reads the objects it resolves policies from. */
export interface PodGroupObjects {
  workload(namespace: string, name: string): DeepReadonly<Workload> | undefined;
  podGroup(namespace: string, name: string): DeepReadonly<PodGroup> | undefined;
}

/** `waiting for pods's workload "w" to appear in scheduling queue` (upstream, typo included). */
export function waitingForWorkloadMessage(workload: string): string {
  return `waiting for pods's workload "${workload}" to appear in scheduling queue`;
}

/** `waiting for pods's pod group "pg" to appear in scheduling queue` (upstream 1.36). */
export function waitingForPodGroupMessage(podGroup: string): string {
  return `waiting for pods's pod group "${podGroup}" to appear in scheduling queue`;
}

/** `pod group "pg" doesn't exist for a workload "w"` (upstream 1.35). */
export function missingGroupMessage(podGroup: string, workload: string): string {
  return `pod group "${podGroup}" doesn't exist for a workload "${workload}"`;
}

/** gantry's: the PodGroup's template is not in its Workload. */
export function missingTemplateMessage(template: string, workload: string): string {
  return `pod group template "${template}" doesn't exist for a workload "${workload}"`;
}

/** gantry's: the PodGroup belongs to another Workload than the pod says. */
export function workloadMismatchMessage(podGroup: string, owner: string, named: string): string {
  return `pod group "${podGroup}" belongs to workload "${owner}", not to the pod's workload "${named}"`;
}

interface Group {
  readonly members: Map<string, PodObject>;
  /** When the first member was seen (epoch ms). */
  readonly firstSeen: number;
}

export interface PodGroupManagerDeps {
  /** Whether the cache holds the pod as assumed (placed, not yet bound). */
  readonly isAssumed: (pod: PodObject) => boolean;
  readonly now: () => number;
}

export class PodGroupManager implements PodGroupView {
  readonly #deps: PodGroupManagerDeps;
  readonly #groups = new Map<string, Group>();
  /** Member UID → its group key. */
  readonly #keyOf = new Map<string, string>();
  #objects: PodGroupObjects = { workload: () => undefined, podGroup: () => undefined };

  constructor(deps: PodGroupManagerDeps) {
    this.#deps = deps;
  }

  /** Where Workloads and PodGroups are read from (the scheduler's informers). */
  setObjects(objects: PodGroupObjects): void {
    this.#objects = objects;
  }

  groupOf(pod: PodObject): GroupRef | undefined {
    return groupRefOf(pod);
  }

  resolve(ref: GroupRef): PolicyResolution {
    if (ref.kind === "legacy") {
      const workload = this.#objects.workload(ref.namespace, ref.workloadName);
      if (workload === undefined) {
        return { ok: false, reason: waitingForWorkloadMessage(ref.workloadName) };
      }
      const group = workload.spec.podGroups?.find((g) => g.name === ref.podGroup);
      if (group === undefined) {
        return { ok: false, reason: missingGroupMessage(ref.podGroup, ref.workloadName) };
      }
      return { ok: true, policy: groupPolicyOf(group.policy), podGroup: undefined };
    }
    const podGroup = this.#objects.podGroup(ref.namespace, ref.podGroupName);
    if (podGroup === undefined) {
      return { ok: false, reason: waitingForPodGroupMessage(ref.podGroupName) };
    }
    const owner = podGroup.spec.workloadRef?.name ?? "";
    if (owner !== ref.workloadName) {
      return {
        ok: false,
        reason: workloadMismatchMessage(ref.podGroupName, owner, ref.workloadName),
      };
    }
    const workload = this.#objects.workload(ref.namespace, owner);
    if (workload === undefined) return { ok: false, reason: waitingForWorkloadMessage(owner) };
    const templateName = podGroup.spec.podGroupTemplateName;
    const template = workload.spec.podGroupTemplates?.find((t) => t.name === templateName);
    if (template === undefined) {
      return { ok: false, reason: missingTemplateMessage(templateName, owner) };
    }
    return { ok: true, policy: groupPolicyOf(template.policy), podGroup };
  }

  memberCount(key: string): number {
    return this.#groups.get(key)?.members.size ?? 0;
  }

  counts(key: string): GroupCounts {
    const group = this.#groups.get(key);
    if (group === undefined) return { all: 0, scheduled: 0, bound: 0 };
    let scheduled = 0;
    let bound = 0;
    for (const pod of group.members.values()) {
      if ((pod.spec.nodeName ?? "") !== "") {
        bound++;
        scheduled++;
      } else if (this.#deps.isAssumed(pod)) {
        scheduled++;
      }
    }
    return { all: group.members.size, scheduled, bound };
  }

  unscheduledMembers(key: string): readonly string[] {
    const group = this.#groups.get(key);
    if (group === undefined) return [];
    const out: string[] = [];
    for (const [uid, pod] of group.members) {
      if ((pod.spec.nodeName ?? "") === "" && !this.#deps.isAssumed(pod)) out.push(uid);
    }
    return out;
  }

  members(key: string): readonly PodObject[] {
    return [...(this.#groups.get(key)?.members.values() ?? [])];
  }

  /** When the group's first member was seen; undefined for an unknown group. */
  firstSeen(key: string): number | undefined {
    return this.#groups.get(key)?.firstSeen;
  }

  /** Every group key with members. */
  keys(): IterableIterator<string> {
    return this.#groups.keys();
  }

  /** A pod appeared or changed: records it in its group. Returns the group key, if any. */
  upsertPod(pod: PodObject): string | undefined {
    const uid = pod.metadata.uid ?? "";
    const ref = groupRefOf(pod);
    const previous = this.#keyOf.get(uid);
    if (previous !== undefined && previous !== ref?.key) this.deletePod(pod);
    if (ref === undefined) return undefined;
    let group = this.#groups.get(ref.key);
    if (group === undefined) {
      group = { members: new Map(), firstSeen: this.#deps.now() };
      this.#groups.set(ref.key, group);
    }
    group.members.set(uid, pod);
    this.#keyOf.set(uid, ref.key);
    return ref.key;
  }

  /** A pod is gone (deleted or terminal). Returns its former group key, if any. */
  deletePod(pod: PodObject): string | undefined {
    const uid = pod.metadata.uid ?? "";
    const key = this.#keyOf.get(uid);
    if (key === undefined) return undefined;
    this.#keyOf.delete(uid);
    const group = this.#groups.get(key);
    group?.members.delete(uid);
    if (group !== undefined && group.members.size === 0) this.#groups.delete(key);
    return key;
  }
}
