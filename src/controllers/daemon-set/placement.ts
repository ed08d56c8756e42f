/**
 * Where daemon pods belong (upstream's `NodeShouldRunDaemonPod` and daemon/util): the node must
 * match the template's nodeName, nodeSelector and required node affinity, and its NoSchedule
 * and NoExecute taints must be tolerated (daemon pods get upstream's automatic tolerations).
 * Daemon pods are pinned to their node with a `matchFields metadata.name` node affinity and
 * bound by the scheduler. Pure.
 */
import {
  type Affinity,
  type DaemonSet,
  findMatchingUntoleratedTaint,
  type Node,
  nodeNameField,
  type Pod,
  type PodSpec,
  requiredNodeAffinity,
  type Toleration,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The taints the node controllers set, whose tolerations every daemon pod gets. */
export const taintKeys = {
  notReady: "node.kubernetes.io/not-ready",
  unreachable: "node.kubernetes.io/unreachable",
  diskPressure: "node.kubernetes.io/disk-pressure",
  memoryPressure: "node.kubernetes.io/memory-pressure",
  pidPressure: "node.kubernetes.io/pid-pressure",
  unschedulable: "node.kubernetes.io/unschedulable",
  networkUnavailable: "node.kubernetes.io/network-unavailable",
} as const;

/** Whether two tolerations are the same one (`Toleration.MatchToleration`). */
function sameToleration(a: DeepReadonly<Toleration>, b: DeepReadonly<Toleration>): boolean {
  return (
    (a.key ?? "") === (b.key ?? "") &&
    (a.operator ?? "") === (b.operator ?? "") &&
    (a.value ?? "") === (b.value ?? "") &&
    (a.effect ?? "") === (b.effect ?? "")
  );
}

/** `AddOrUpdateTolerationInPodSpec`: replaces the matching toleration or appends it. */
function addOrUpdateToleration(spec: PodSpec, toleration: Toleration): void {
  const tolerations = spec.tolerations ?? [];
  const index = tolerations.findIndex((t) => sameToleration(t, toleration));
  if (index >= 0) tolerations[index] = toleration;
  else tolerations.push(toleration);
  spec.tolerations = tolerations;
}

/**
 * `AddOrUpdateDaemonPodTolerations`: tolerate not-ready and unreachable NoExecute forever, and
 * the disk-pressure, memory-pressure, pid-pressure and unschedulable NoSchedule taints
 * (network-unavailable too for host-network pods). Edits `spec` in place.
 */
export function addDaemonPodTolerations(spec: PodSpec): void {
  const exists = (key: string, effect: "NoExecute" | "NoSchedule"): Toleration => ({
    key,
    operator: "Exists",
    effect,
  });
  addOrUpdateToleration(spec, exists(taintKeys.notReady, "NoExecute"));
  addOrUpdateToleration(spec, exists(taintKeys.unreachable, "NoExecute"));
  addOrUpdateToleration(spec, exists(taintKeys.diskPressure, "NoSchedule"));
  addOrUpdateToleration(spec, exists(taintKeys.memoryPressure, "NoSchedule"));
  addOrUpdateToleration(spec, exists(taintKeys.pidPressure, "NoSchedule"));
  addOrUpdateToleration(spec, exists(taintKeys.unschedulable, "NoSchedule"));
  if (spec.hostNetwork === true) {
    addOrUpdateToleration(spec, exists(taintKeys.networkUnavailable, "NoSchedule"));
  }
}

/** `NewPod`: the pod the checks consider, the template's with the daemon tolerations. */
function candidatePod(ds: DeepReadonly<DaemonSet>, nodeName: string): Pod {
  const spec = structuredClone(ds.spec.template.spec ?? { containers: [] }) as PodSpec;
  spec.nodeName = nodeName;
  addDaemonPodTolerations(spec);
  return {
    metadata: {
      ...(structuredClone(ds.spec.template.metadata) ?? {}),
      namespace: ds.metadata.namespace ?? "",
    },
    spec,
  } as Pod;
}

/** Whether a node should run the daemon pod, and whether a running one may stay. */
export interface NodeVerdict {
  /** A daemon pod should be created here if there is none. */
  readonly shouldRun: boolean;
  /** A daemon pod already here may keep running (it tolerates the NoExecute taints). */
  readonly shouldContinueRunning: boolean;
}

/** `NodeShouldRunDaemonPod`. */
export function nodeShouldRunDaemonPod(
  node: DeepReadonly<Node>,
  ds: DeepReadonly<DaemonSet>,
): NodeVerdict {
  const nodeName = node.metadata.name ?? "";
  const wanted = ds.spec.template.spec?.nodeName ?? "";
  if (wanted !== "" && wanted !== nodeName)
    return { shouldRun: false, shouldContinueRunning: false };
  const pod = candidatePod(ds, nodeName);
  if (!requiredNodeAffinity(pod)(node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints;
  const blocking = findMatchingUntoleratedTaint(
    taints,
    pod.spec.tolerations,
    (t) => t.effect === "NoSchedule" || t.effect === "NoExecute",
  );
  if (blocking === undefined) return { shouldRun: true, shouldContinueRunning: true };
  const evicting = findMatchingUntoleratedTaint(
    taints,
    pod.spec.tolerations,
    (t) => t.effect === "NoExecute",
  );
  return { shouldRun: false, shouldContinueRunning: evicting === undefined };
}

/**
 * `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes the single term
 * `matchFields metadata.name In [nodeName]`; everything else of the affinity is kept.
 */
export function pinToNode(
  affinity: DeepReadonly<Affinity> | undefined,
  nodeName: string,
): Affinity {
  const term = {
    matchFields: [{ key: nodeNameField, operator: "In" as const, values: [nodeName] }],
  };
  const copy = structuredClone(affinity ?? {}) as Affinity;
  copy.nodeAffinity = {
    ...copy.nodeAffinity,
    requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
  };
  return copy;
}

/**
 * `GetTargetNodeName`: `spec.nodeName`, or for an unscheduled pod the node its
 * `matchFields metadata.name In [one]` term names; `undefined` when neither says.
 */
export function targetNodeName(pod: DeepReadonly<Pod>): string | undefined {
  const bound = pod.spec.nodeName ?? "";
  if (bound !== "") return bound;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const field of term.matchFields ?? []) {
      if (field.key === nodeNameField && field.operator === "In") {
        return field.values?.length === 1 ? field.values[0] : undefined;
      }
    }
  }
  return undefined;
}
