/**
 * The gang-scheduling objects of a LeaderWorkerSet (KEP-4671/5832 as the LWS native-integration
 * draft uses them): one Workload `<lws>` with one PodGroup template `<lws>-pg-template`, and one
 * PodGroup `<lws>-<i>` per group, all owned by the LeaderWorkerSet. Pure.
 */
import {
  type DefaultedLeaderWorkerSet,
  groupIndexLabel,
  leaderWorkerSetGroup,
  leaderWorkerSetKindName,
  type OwnerReference,
  type PodGroup,
  type PodGroupPolicy,
  semanticEqual,
  setNameLabel,
  type Workload,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { podGroupName, podGroupTemplateName, workloadName } from "./identity.ts";

/**
 * The policy of a group: a gang of `size` pods, so no pod of a group binds until all of them
 * can. Two cases are `basic` (pod by pod) instead: a group of one pod (a gang of one is no
 * gang), and `LeaderReady`, whose workers are only created once the leader runs, so a gang
 * would wait for pods that never come (upstream's draft rejects gang + LeaderReady; Volcano's
 * integration drops to minMember 1 for it).
 */
export function groupPolicy(lws: DeepReadonly<DefaultedLeaderWorkerSet>): PodGroupPolicy {
  const size = lws.spec.leaderWorkerTemplate.size;
  if (size <= 1 || lws.spec.startupPolicy === "LeaderReady") return { basic: {} };
  return { gang: { minCount: size } };
}

/** The Workload a LeaderWorkerSet owns. */
export function desiredWorkload(
  lws: DeepReadonly<DefaultedLeaderWorkerSet>,
  controllerRef: OwnerReference,
): Workload {
  const name = lws.metadata.name ?? "";
  return {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "Workload",
    metadata: {
      name: workloadName(name),
      namespace: lws.metadata.namespace ?? "",
      labels: { [setNameLabel]: name },
      ownerReferences: [controllerRef],
    },
    spec: {
      controllerRef: { apiGroup: leaderWorkerSetGroup, kind: leaderWorkerSetKindName, name },
      podGroupTemplates: [{ name: podGroupTemplateName(name), policy: groupPolicy(lws) }],
    },
  };
}

/**
 * Whether an existing Workload still says what `desired` says (templates and controllerRef are
 * immutable, so a Workload that differs must be replaced).
 */
export function workloadMatches(existing: DeepReadonly<Workload>, desired: Workload): boolean {
  return (
    semanticEqual(existing.spec.podGroupTemplates ?? [], desired.spec.podGroupTemplates ?? []) &&
    semanticEqual(existing.spec.controllerRef ?? null, desired.spec.controllerRef ?? null) &&
    (existing.spec.podGroups ?? []).length === 0
  );
}

/** The PodGroup of group `group`. */
export function desiredPodGroup(
  lws: DeepReadonly<DefaultedLeaderWorkerSet>,
  group: number,
  controllerRef: OwnerReference,
): PodGroup {
  const name = lws.metadata.name ?? "";
  return {
    apiVersion: "scheduling.k8s.io/v1alpha1",
    kind: "PodGroup",
    metadata: {
      name: podGroupName(name, group),
      namespace: lws.metadata.namespace ?? "",
      labels: { [setNameLabel]: name, [groupIndexLabel]: String(group) },
      ownerReferences: [controllerRef],
    },
    spec: {
      workloadRef: { name: workloadName(name) },
      podGroupTemplateName: podGroupTemplateName(name),
    },
  };
}
