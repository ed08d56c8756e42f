/**
 * cAdvisor's `MachineInfo` (github.com/google/cadvisor/info/v1), the document a kubelet serves
 * at `/spec/` and the CPU manager discovers its topology from. Field names are the wire names.
 * The per-CPU types live with the CPU manager's topology model.
 */
import type { CadvisorCore, CadvisorNode } from "../cpumanager/topology/cadvisor.ts";

export type {
  CadvisorCache,
  CadvisorCore,
  CadvisorNode,
} from "../cpumanager/topology/cadvisor.ts";

/** The CPU shape of a machine: what a topology declaration resolves to. */
export interface MachineTopology {
  /** Logical CPUs (`num_cores`). */
  readonly numCores: number;
  readonly numPhysicalCores: number;
  readonly numSockets: number;
  readonly cpuFrequencyKhz: number;
  readonly nodes: readonly CadvisorNode[];
}

/** The `/spec/` document. */
export interface MachineInfo {
  readonly num_cores: number;
  readonly num_physical_cores: number;
  readonly num_sockets: number;
  readonly cpu_frequency_khz: number;
  readonly memory_capacity: number;
  readonly swap_capacity: number;
  readonly memory_by_type: Readonly<Record<string, never>>;
  readonly hugepages: readonly { readonly page_size: number; readonly num_pages: number }[];
  readonly machine_id: string;
  readonly system_uuid: string;
  readonly boot_id: string;
  readonly filesystems: readonly never[];
  readonly disk_map: Readonly<Record<string, never>>;
  readonly network_devices: readonly never[];
  readonly topology: readonly CadvisorNode[];
  readonly cloud_provider: string;
  readonly instance_type: string;
  readonly instance_id: string;
}

/** 2.8 GHz: what an emulated CPU claims to run at. */
export const defaultCpuFrequencyKhz = 2_800_000;

const kib = 1024;
const mib = 1024 * kib;

/** The huge page sizes (in KiB) a node reports, as on x86-64. */
const hugePageSizesKib = [1024 * 1024, 2048] as const;

function emptyHugePages(): { page_size: number; num_pages: number }[] {
  return hugePageSizesKib.map((size) => ({ page_size: size, num_pages: 0 }));
}

/**
 * A plain machine for a CPU count: one socket, one NUMA node, one thread per core, private
 * L1/L2 caches per core and one L3 for the node (so it lands in the node's `caches`, as
 * cAdvisor files an L3 that spans exactly the NUMA node).
 */
export function flatMachineTopology(cpus: number, memoryBytes: number): MachineTopology {
  const count = Math.max(1, Math.ceil(cpus));
  const cores: CadvisorCore[] = [];
  for (let cpu = 0; cpu < count; cpu++) {
    cores.push({
      core_id: cpu,
      thread_ids: [cpu],
      caches: [
        { id: cpu, size: 32 * kib, type: "Data", level: 1 },
        { id: cpu, size: 32 * kib, type: "Instruction", level: 1 },
        { id: cpu, size: 1 * mib, type: "Unified", level: 2 },
      ],
      uncore_caches: [],
      socket_id: 0,
    });
  }
  return {
    numCores: count,
    numPhysicalCores: count,
    numSockets: 1,
    cpuFrequencyKhz: defaultCpuFrequencyKhz,
    nodes: [
      {
        node_id: 0,
        memory: memoryBytes,
        hugepages: emptyHugePages(),
        cores,
        caches: [{ id: 0, size: 32 * mib, type: "Unified", level: 3 }],
        distances: [10],
      },
    ],
  };
}

/** Identity of an emulated machine (deterministic per node so restarts keep it). */
export interface MachineIdentity {
  readonly machineId: string;
  readonly systemUuid: string;
  readonly bootId: string;
  readonly instanceType: string;
}

/** The full `/spec/` document for a machine. */
export function machineInfoDocument(
  machine: MachineTopology,
  memoryBytes: number,
  identity: MachineIdentity,
): MachineInfo {
  return {
    num_cores: machine.numCores,
    num_physical_cores: machine.numPhysicalCores,
    num_sockets: machine.numSockets,
    cpu_frequency_khz: machine.cpuFrequencyKhz,
    memory_capacity: memoryBytes,
    swap_capacity: 0,
    memory_by_type: {},
    hugepages: emptyHugePages(),
    machine_id: identity.machineId,
    system_uuid: identity.systemUuid,
    boot_id: identity.bootId,
    filesystems: [],
    disk_map: {},
    network_devices: [],
    topology: machine.nodes,
    cloud_provider: "Unknown",
    instance_type: identity.instanceType === "" ? "Unknown" : identity.instanceType,
    instance_id: "None",
  };
}
