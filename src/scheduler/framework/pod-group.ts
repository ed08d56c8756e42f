/**
 * Pod groups as the scheduler sees them (upstream's `PodGroupInfo`/`podGroupState`): which gang a
 * pod belongs to, the policy that gang follows, and how many of its members the scheduler knows.
 *
 * A gang instance is the PodGroup object (`spec.workloadRef.podGroupName`, KEP-5832), or, in the
 * 1.35 form, the tuple (namespace, Workload, `podGroup`, `podGroupReplicaKey`). Keys are unique
 * across both forms: `podgroup/<ns>/<name>` and `workload/<ns>/<workload>/<group>/<replicaKey>`.
 */
import type { PodGroup, PodGroupPolicy } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { CycleState } from "./cycle-state.ts";
import type { Plugin, PodObject } from "./extension-points.ts";
import type { NodeToStatusReader } from "./fit-error.ts";
import type { PodInfo } from "./pod-info.ts";
import type { Status } from "./status.ts";

/** The gang a pod names in `spec.workloadRef`. */
export type GroupRef =
  | {
      readonly kind: "podGroup";
      readonly key: string;
      readonly namespace: string;
      readonly workloadName: string;
      readonly podGroupName: string;
    }
  | {
      readonly kind: "legacy";
      readonly key: string;
      readonly namespace: string;
      readonly workloadName: string;
      readonly podGroup: string;
      readonly replicaKey: string;
    };

/** How a group schedules: pod by pod, or all-or-nothing with at least `minCount` members. */
export type GroupPolicy =
  | { readonly kind: "basic" }
  | { readonly kind: "gang"; readonly minCount: number };

/**
 * What the policy lookup found: the policy (and the PodGroup object when there is one), or why
 * the pod must wait (the object chain is incomplete), in upstream's words where upstream has them.
 */
export type PolicyResolution =
  | {
      readonly ok: true;
      readonly policy: GroupPolicy;
      readonly podGroup: DeepReadonly<PodGroup> | undefined;
    }
  | { readonly ok: false; readonly reason: string };

/** The members of one gang the scheduler knows (non-terminal pods). */
export interface GroupCounts {
  /** Pending, assumed and bound members. */
  readonly all: number;
  /** Assumed or bound members. */
  readonly scheduled: number;
  /** Bound members (`spec.nodeName` set in the informer's copy). */
  readonly bound: number;
}

/** Read access to the scheduler's pod-group state (upstream's `PodGroupManager`). */
export interface PodGroupView {
  /** The group `pod` names, or undefined when it names none. */
  groupOf(pod: PodObject): GroupRef | undefined;
  /** Looks up the group's policy: PodGroup → Workload → template, or Workload → podGroups. */
  resolve(ref: GroupRef): PolicyResolution;
  /** Pending, assumed and bound members (cheap: PreEnqueue asks for every pod). */
  memberCount(key: string): number;
  counts(key: string): GroupCounts;
  /** The UIDs of the group's members that are neither bound nor assumed. */
  unscheduledMembers(key: string): readonly string[];
  /** Every known member pod of the group. */
  members(key: string): readonly PodObject[];
}

/** The group a pod names, from its `spec.workloadRef` alone. */
export function groupRefOf(pod: PodObject): GroupRef | undefined {
  const ref = pod.spec.workloadRef;
  if (ref === undefined) return undefined;
  const namespace = pod.metadata.namespace ?? "";
  const podGroupName = ref.podGroupName ?? "";
  if (podGroupName !== "") {
    return {
      kind: "podGroup",
      key: `podgroup/${namespace}/${podGroupName}`,
      namespace,
      workloadName: ref.name,
      podGroupName,
    };
  }
  const podGroup = ref.podGroup ?? "";
  if (podGroup === "") return undefined;
  const replicaKey = ref.podGroupReplicaKey ?? "";
  return {
    kind: "legacy",
    key: `workload/${namespace}/${ref.name}/${podGroup}/${replicaKey}`,
    namespace,
    workloadName: ref.name,
    podGroup,
    replicaKey,
  };
}

/** The gang's `minCount`; a basic group counts as 1 (upstream's PlacementFeasible). */
export function minCountOf(policy: GroupPolicy): number {
  return policy.kind === "gang" ? policy.minCount : 1;
}

/** The API policy as the scheduler's value. */
export function groupPolicyOf(policy: DeepReadonly<PodGroupPolicy>): GroupPolicy {
  return policy.gang === undefined
    ? { kind: "basic" }
    : { kind: "gang", minCount: policy.gang.minCount };
}

/** `ns/name` of the group, for logs and events. */
export function groupName(ref: GroupRef): string {
  return ref.kind === "podGroup"
    ? `${ref.namespace}/${ref.podGroupName}`
    : `${ref.namespace}/${ref.workloadName}/${ref.podGroup}${ref.replicaKey === "" ? "" : `/${ref.replicaKey}`}`;
}

/**
 * A what-if view of the cluster for one group cycle, implemented by the scheduler: placements
 * and removals are tentative, visible to every later Filter of the cycle, and undone before the
 * cycle ends. Synchronous: nothing else touches the cluster view meanwhile.
 */
export interface GroupSimulation {
  /**
   * Filters and scores `pod` against the simulated cluster. On success the pod is placed on the
   * chosen node (tentatively) and the node is returned; otherwise every node's status and the
   * pod's cycle state after PreFilter (for victim selection).
   */
  place(
    pod: PodObject,
  ):
    | { readonly node: string }
    | { readonly statuses: NodeToStatusReader; readonly state: CycleState };
  /** Places `pod` on `nodeName` if it passes Filter there; the status says why not. */
  placeOn(pod: PodObject, nodeName: string): Status;
  /** Takes a pod off its node for the rest of the simulation. */
  remove(podInfo: PodInfo): void;
}

/** What a group preemption found: where each member goes and which pods must make room. */
export interface GroupPreemptionPlan {
  /** Member UID → the node it is nominated to. */
  readonly nominations: ReadonlyMap<string, string>;
  readonly victims: readonly { readonly podInfo: PodInfo; readonly nodeName: string }[];
}

/**
 * Preemption for a whole gang (upstream 1.37's PodGroupPostFilter): a synchronous dry run that
 * removes lower-priority pods in the simulation until `needed` members fit, then an eviction of
 * the plan's victims. A plan is returned only when the whole gang fits; otherwise the status
 * says why and nothing is evicted.
 */
export interface PodGroupPostFilterPlugin extends Plugin {
  selectGroupVictims(
    pods: readonly PodObject[],
    needed: number,
    simulation: GroupSimulation,
  ): { readonly plan: GroupPreemptionPlan } | { readonly status: Status };
  /** Evicts the plan's victims through the API (as preemption does for one pod). */
  evictGroupVictims(preemptor: PodObject, plan: GroupPreemptionPlan): Promise<Status>;
}
