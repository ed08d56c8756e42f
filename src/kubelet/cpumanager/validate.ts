/**
 * The CPU manager's check of a node's kubelet settings against its machine, at config time:
 * what would make a real kubelet refuse to start (upstream's messages, with a hint).
 */
import type { KubeletSettings } from "../config/cluster-config.ts";
import { CpuManagerError, staticPolicyFor } from "./cpu-manager.ts";
import type { CadvisorNode } from "./topology/cadvisor.ts";
import { discoverTopology } from "./topology/discover.ts";

function hint(message: string): string {
  if (message.includes("Alpha-level Options not enabled")) {
    return "; set kubelet.featureGates.CPUManagerPolicyAlphaOptions: true";
  }
  if (message.includes("Beta-level Options not enabled")) {
    return "; set kubelet.featureGates.CPUManagerPolicyBetaOptions: true";
  }
  if (
    message.includes("unable to determine reserved CPU") ||
    message.includes("greater than zero")
  ) {
    return "; set kubelet.kubeReserved.cpu, kubelet.systemReserved.cpu or kubelet.reservedSystemCPUs";
  }
  return "";
}

/** Go's `%v` of a `map[string]string`: `map[a:1 b:2]`. */
function goMap(map: Readonly<Record<string, string>>): string {
  const keys = Object.keys(map).sort();
  return `map[${keys.map((k) => `${k}:${map[k]}`).join(" ")}]`;
}

/**
 * The problem a kubelet with these settings would fail on for this machine, as
 * `"<path>: <upstream message>; <what to do>"`, or `undefined`.
 */
export function cpuManagerProblem(
  kubelet: KubeletSettings,
  nodes: readonly CadvisorNode[],
  path: string,
): string | undefined {
  if (kubelet.cpuManagerPolicy === "none") {
    if (Object.keys(kubelet.cpuManagerPolicyOptions).length === 0) return undefined;
    return `${path}.cpuManagerPolicyOptions: None policy: received unsupported options=${goMap(kubelet.cpuManagerPolicyOptions)}; set cpuManagerPolicy: static or drop the options`;
  }
  try {
    staticPolicyFor(kubelet, discoverTopology(nodes));
    return undefined;
  } catch (error: unknown) {
    if (error instanceof CpuManagerError || error instanceof RangeError) {
      return `${path}: ${error.message}${hint(error.message)}`;
    }
    throw error;
  }
}
