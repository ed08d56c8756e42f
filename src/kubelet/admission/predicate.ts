/**
 * Upstream's predicate admit handler: the checks the kubelet repeats from the scheduler so that a
 * pod bound by hand (or raced onto a full node) is refused the same way. The first failure is
 * reported: OS, resources (pods, cpu, memory, ephemeral-storage, scalar resources), node
 * affinity, host ports, untolerated NoExecute taints.
 */
import {
  type ContainerPort,
  findMatchingUntoleratedTaint,
  isExtendedResourceName,
  type Pod,
  podRequests,
  type ResourceAmounts,
  requiredNodeAffinity,
  resourceListAmounts,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  admitted,
  type PodAdmitAttributes,
  type PodAdmitHandler,
  type PodAdmitResult,
} from "./admit-handler.ts";

/** The reasons upstream gives for the standard resources. */
function outOf(resource: string): string {
  return `OutOf${resource}`;
}

function insufficient(
  resource: string,
  requested: number,
  used: number,
  capacity: number,
): PodAdmitResult {
  return {
    admit: false,
    reason: outOf(resource),
    message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
  };
}

function predicateFailure(predicate: string, description: string): PodAdmitResult {
  return {
    admit: false,
    reason: predicate,
    message: `Predicate ${predicate} failed: ${description}`,
  };
}

/** Requests of a pod without the extended resources the node does not have at all. */
function requestsOnNode(pod: DeepReadonly<Pod>, allocatable: ResourceAmounts): ResourceAmounts {
  const requests = podRequests(pod);
  for (const name of [...requests.keys()]) {
    if (isExtendedResourceName(name) && !allocatable.has(name)) requests.delete(name);
  }
  return requests;
}

function checkResources(attributes: PodAdmitAttributes): PodAdmitResult {
  const allocatable = resourceListAmounts(attributes.node.status?.allocatable);
  const allowedPods = allocatable.get("pods") ?? 0;
  const others = attributes.otherPods;
  if (others.length + 1 > allowedPods) return insufficient("pods", 1, others.length, allowedPods);

  const request = requestsOnNode(attributes.pod, allocatable);
  if ([...request.values()].every((amount) => amount === 0)) return admitted;
  const used: ResourceAmounts = new Map();
  for (const other of others) {
    for (const [name, amount] of podRequests(other)) used.set(name, (used.get(name) ?? 0) + amount);
  }
  const standard = ["cpu", "memory", "ephemeral-storage"];
  const scalar = [...request.keys()].filter((n) => !standard.includes(n) && n !== "pods").sort();
  for (const name of [...standard, ...scalar]) {
    const want = request.get(name) ?? 0;
    if (want === 0) continue;
    const have = allocatable.get(name) ?? 0;
    const taken = used.get(name) ?? 0;
    if (want > have - taken) return insufficient(name, want, taken, have);
  }
  return admitted;
}

interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

function hostPortsOf(pod: DeepReadonly<Pod>): HostPort[] {
  const out: HostPort[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
    for (const p of (c.ports ?? []) as readonly DeepReadonly<ContainerPort>[]) {
      if (p.hostPort === undefined || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP ?? "0.0.0.0", protocol: p.protocol ?? "TCP", port: p.hostPort });
    }
  }
  return out;
}

function portsConflict(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === b.ip || a.ip === "0.0.0.0" || b.ip === "0.0.0.0";
}

function checkHostPorts(attributes: PodAdmitAttributes): boolean {
  const wanted = hostPortsOf(attributes.pod);
  if (wanted.length === 0) return true;
  const taken = attributes.otherPods.flatMap(hostPortsOf);
  return !wanted.some((w) => taken.some((t) => portsConflict(w, t)));
}

/** The predicate handler; `restoring` skips the checks that would evict a running pod. */
export function newPredicateAdmitHandler(): PodAdmitHandler {
  return {
    name: "Predicate",
    admit(attributes) {
      const { pod, node } = attributes;
      const nodeOs = node.metadata.labels?.["kubernetes.io/os"] ?? "linux";
      const podOs = pod.metadata.labels?.["kubernetes.io/os"];
      if (podOs !== undefined && podOs !== nodeOs) {
        return {
          admit: false,
          reason: "PodOSSelectorNodeLabelDoesNotMatch",
          message: "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
        };
      }
      if (pod.spec.os !== undefined && pod.spec.os.name !== "linux") {
        return {
          admit: false,
          reason: "PodOSNotSupported",
          message: "Failed to admit pod as the OS field doesn't match node OS",
        };
      }
      const resources = checkResources(attributes);
      if (!resources.admit) return resources;
      if (!attributes.restoring && !requiredNodeAffinity(pod)(node)) {
        return predicateFailure("NodeAffinity", "node(s) didn't match Node selector");
      }
      if (!checkHostPorts(attributes)) {
        return predicateFailure(
          "NodePorts",
          "node(s) didn't have free ports for the requested pod ports",
        );
      }
      const taint = attributes.restoring
        ? undefined
        : findMatchingUntoleratedTaint(
            node.spec?.taints,
            pod.spec.tolerations,
            (t) => t.effect === "NoExecute",
          );
      if (taint !== undefined) {
        return predicateFailure(
          "TaintToleration",
          "node(s) had taints that the pod didn't tolerate",
        );
      }
      return admitted;
    },
  } satisfies PodAdmitHandler;
}
