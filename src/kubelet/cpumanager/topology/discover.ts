/**
 * `discoverTopology`: upstream's `topology.Discover(machineInfo)`, the kubelet's reading of
 * cAdvisor's MachineInfo. The core id is the lowest thread id of the core (cAdvisor's
 * `core_id` restarts on every socket); the uncore cache is the core's first uncore cache, or
 * the socket id when the core has none (an L3 that spans exactly one NUMA node is listed as a
 * node cache, so such machines align by socket).
 */
import type { CadvisorNode } from "./cadvisor.ts";
import { type CpuInfo, CpuTopology } from "./topology.ts";

/** The core's machine-wide id (upstream `getUniqueCoreID`). Throws with upstream's messages. */
function uniqueCoreId(threads: readonly number[]): number {
  if (threads.length === 0) throw new RangeError("no cpus provided");
  if (new Set(threads).size !== threads.length)
    throw new RangeError("cpus provided are not unique");
  return Math.min(...threads);
}

/** The kubelet's CPU topology of a machine. Throws `RangeError` with upstream's message. */
export function discoverTopology(nodes: readonly CadvisorNode[]): CpuTopology {
  const details = new Map<number, CpuInfo>();
  for (const node of nodes) {
    for (const core of node.cores) {
      const coreId = uniqueCoreId(core.thread_ids);
      const uncore = core.uncore_caches[0]?.id ?? core.socket_id;
      for (const cpu of core.thread_ids) {
        details.set(cpu, {
          core: coreId,
          socket: core.socket_id,
          numaNode: node.node_id,
          uncoreCache: uncore,
        });
      }
    }
  }
  if (details.size === 0) throw new RangeError("could not detect number of cpus");
  return CpuTopology.of(details);
}
