/** Pure helpers about pods that several components need (QoS, readiness, default tolerations). */
import type { DeepReadonly } from "../../../util/index.ts";
import {
  addQuantities,
  compareQuantities,
  type ParsedQuantity,
  parseQuantity,
} from "../../resource/quantity.ts";
import type { Container, ResourceList, Toleration } from "./pod-template.ts";
import type { Pod, PodCondition, PodQosClass } from "./pod-types.ts";

const qosResources = ["cpu", "memory"] as const;

function tryParse(text: string | undefined): ParsedQuantity | undefined {
  if (text === undefined) return undefined;
  try {
    return parseQuantity(String(text));
  } catch {
    return undefined;
  }
}

function addTo(sum: Map<string, ParsedQuantity>, name: string, q: ParsedQuantity): void {
  const prev = sum.get(name);
  sum.set(name, prev === undefined ? q : addQuantities(prev, q));
}

function nonZero(
  list: DeepReadonly<ResourceList> | undefined,
  name: string,
): ParsedQuantity | undefined {
  const q = tryParse(list?.[name]);
  return q !== undefined && q.unscaled !== 0n ? q : undefined;
}

/**
 * The pod's QoS class as upstream's `ComputePodQOS`: BestEffort without any cpu/memory request
 * or limit; Guaranteed when every container limits both cpu and memory and requests equal
 * limits; Burstable otherwise. Pod-level resources, when set, decide instead of containers.
 */
export function qosClassOf(pod: DeepReadonly<Pod>): PodQosClass {
  const requests = new Map<string, ParsedQuantity>();
  const limits = new Map<string, ParsedQuantity>();
  let guaranteed = true;
  const podLevel = pod.spec.resources;
  const hasPodLevel = qosResources.some(
    (r) => podLevel?.requests?.[r] !== undefined || podLevel?.limits?.[r] !== undefined,
  );
  const units: readonly DeepReadonly<{ resources?: Container["resources"] }>[] = hasPodLevel
    ? [{ resources: podLevel ?? {} }]
    : [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])];
  for (const unit of units) {
    const found = new Set<string>();
    for (const r of qosResources) {
      const req = nonZero(unit.resources?.requests, r);
      if (req !== undefined) addTo(requests, r, req);
      const lim = nonZero(unit.resources?.limits, r);
      if (lim !== undefined) {
        found.add(r);
        addTo(limits, r, lim);
      }
    }
    if (found.size !== qosResources.length) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || compareQuantities(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}

export const taintNodeNotReady = "node.kubernetes.io/not-ready";
export const taintNodeUnreachable = "node.kubernetes.io/unreachable";
/** The DefaultTolerationSeconds admission plugin's default: 300 seconds. */
export const defaultNotReadyTolerationSeconds = 300;

/**
 * What the DefaultTolerationSeconds admission plugin makes of a pod's tolerations: the
 * existing ones plus NoExecute tolerations of `not-ready` and `unreachable` for 300 seconds,
 * unless the pod already tolerates those taints. Returns a new list.
 */
export function defaultTolerations(
  pod: DeepReadonly<Pod>,
  seconds = defaultNotReadyTolerationSeconds,
): Toleration[] {
  const existing = (pod.spec.tolerations ?? []).map((t) => structuredClone(t) as Toleration);
  const tolerates = (key: string): boolean =>
    existing.some(
      (t) =>
        ((t.key ?? "") === key || (t.key ?? "") === "") &&
        ((t.effect ?? "") === "NoExecute" || (t.effect ?? "") === ""),
    );
  const out = [...existing];
  for (const key of [taintNodeNotReady, taintNodeUnreachable]) {
    if (!tolerates(key)) {
      out.push({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: seconds });
    }
  }
  return out;
}

/** The pod's condition of the given type, if any. */
export function podCondition(
  pod: DeepReadonly<Pod>,
  type: string,
): DeepReadonly<PodCondition> | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Whether the pod's `Ready` condition is `True`. */
export function isPodReady(pod: DeepReadonly<Pod>): boolean {
  return podCondition(pod, "Ready")?.status === "True";
}

/** Whether the pod has reached a terminal phase (`Succeeded` or `Failed`). */
export function isPodTerminal(pod: DeepReadonly<Pod>): boolean {
  return pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
}

/** Whether an init container is a sidecar (`restartPolicy: Always`). */
export function isRestartableInitContainer(container: DeepReadonly<Container>): boolean {
  return container.restartPolicy === "Always";
}

/** Field-selector values of a pod (upstream's `PodToSelectableFields`, minus metadata). */
export function podSelectableFields(pod: DeepReadonly<Pod>): Record<string, string> {
  return {
    "spec.nodeName": pod.spec.nodeName ?? "",
    "spec.restartPolicy": pod.spec.restartPolicy ?? "",
    "spec.schedulerName": pod.spec.schedulerName ?? "",
    "spec.serviceAccountName": pod.spec.serviceAccountName ?? "",
    "spec.hostNetwork": String(pod.spec.hostNetwork === true),
    "status.phase": pod.status?.phase ?? "",
    "status.podIP": pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? "",
    "status.nominatedNodeName": pod.status?.nominatedNodeName ?? "",
  };
}
