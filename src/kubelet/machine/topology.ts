/**
 * The seam between a node pool's `topology` object and the machine a kubelet reports. The
 * kubelet's interpreter reads every form the CPU manager's topology model knows: a preset
 * (`{preset: amd-epyc-9654-2s}`), the flat CPU list (`{cpus: [...]}`) and cAdvisor's own
 * MachineInfo (`/spec/` of a real node pasted into the pool). The flat and preset forms are
 * turned into the MachineInfo cAdvisor would report for such a machine, so `/spec/` and the CPU
 * manager see one and the same machine.
 */

import type { JsonObject } from "../../util/index.ts";
import { isTopologyDeclaration, readTopology } from "../cpumanager/topology/read.ts";
import { defaultCpuFrequencyKhz, type MachineTopology } from "./machine-info.ts";

/**
 * Reads a pool's `topology` object. Both methods are pure and may be called any number of times.
 */
export interface TopologyInterpreter {
  /**
   * Problems with `topology`, each starting with the field path below `path`
   * (`"nodePools[0].topology.topology[1].cores: must be a list"`). Empty means valid.
   */
  validate(topology: JsonObject, path: string): string[];
  /**
   * The machine `topology` describes, or `undefined` for a form this interpreter does not
   * know (the kubelet then synthesizes a flat machine from `capacity.cpu`). `memoryBytes` is
   * the node's memory capacity, spread over NUMA nodes that do not state their own.
   */
  machine(topology: JsonObject, memoryBytes: number): MachineTopology | undefined;
}

function machineOf(topology: JsonObject, memoryBytes: number): MachineTopology | undefined {
  const read = readTopology(topology, "topology", memoryBytes);
  if (!read.ok) return undefined;
  const sockets = new Set<number>();
  let physical = 0;
  let logical = 0;
  for (const node of read.nodes) {
    for (const core of node.cores) {
      sockets.add(core.socket_id);
      physical++;
      logical += core.thread_ids.length;
    }
  }
  return {
    numCores: logical,
    numPhysicalCores: physical,
    numSockets: sockets.size,
    cpuFrequencyKhz: read.cpuFrequencyKhz ?? defaultCpuFrequencyKhz,
    nodes: read.nodes,
  };
}

/**
 * The kubelet's interpreter: presets, the flat CPU list and cAdvisor's MachineInfo are read and
 * checked; any other mapping is refused with the forms it may take.
 */
export const cadvisorTopologyInterpreter: TopologyInterpreter = {
  validate: (topology, path) => {
    if (!isTopologyDeclaration(topology)) {
      return [
        `${path}: unknown topology form; use a preset name, {preset: NAME}, {file: PATH}, {cpus: [{cpu, core, socket, numa, uncore}, …]} or cAdvisor's MachineInfo (with a topology list)`,
      ];
    }
    const read = readTopology(topology, path);
    return read.ok ? [] : [...read.problems];
  },
  machine: machineOf,
};

/** The same interpreter under the name the CPU manager's docs use. */
export const topologyInterpreter: TopologyInterpreter = cadvisorTopologyInterpreter;
