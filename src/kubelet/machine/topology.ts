/**
 * The seam between a node pool's opaque `topology` object and the machine a kubelet reports.
 * The kubelet itself understands one form, cAdvisor's own (`/spec/` output of a real node pasted
 * into the pool); the CPU manager may bring an interpreter for more compact forms.
 */
import { isPlainObject, type JsonObject } from "../../util/index.ts";
import {
  type CadvisorCache,
  type CadvisorCore,
  type CadvisorNode,
  defaultCpuFrequencyKhz,
  type MachineTopology,
} from "./machine-info.ts";

/**
 * Reads a pool's `topology` object. Both methods are pure and may be called any number of times.
 */
export interface TopologyInterpreter {
  /**
   * Problems with `topology`, each starting with the field path below `path`
   * (`"nodePools[0].topology.topology[1].cores: must be a list"`). Empty means valid, which
   * includes forms this interpreter does not know (they stay opaque).
   */
  validate(topology: JsonObject, path: string): string[];
  /**
   * The machine `topology` describes, or `undefined` for a form this interpreter does not
   * know (the kubelet then synthesizes a flat machine from `capacity.cpu`). `memoryBytes` is
   * the node's memory capacity, spread over NUMA nodes that do not state their own.
   */
  machine(topology: JsonObject, memoryBytes: number): MachineTopology | undefined;
}

const cacheTypes = ["Data", "Instruction", "Unified"] as const;

function isInt(value: unknown, min = 0): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min;
}

function validateCaches(value: unknown, path: string, out: string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    out.push(`${path}: must be a list of {id, size, type, level}`);
    return;
  }
  value.forEach((cache: unknown, i) => {
    const p = `${path}[${i}]`;
    if (!isPlainObject(cache)) {
      out.push(`${p}: must be a mapping {id, size, type, level}`);
      return;
    }
    if (!isInt(cache["id"])) out.push(`${p}.id: must be a whole number ≥ 0`);
    if (!isInt(cache["size"])) out.push(`${p}.size: must be the cache size in bytes`);
    if (!isInt(cache["level"], 1)) out.push(`${p}.level: must be 1, 2 or 3`);
    if (!cacheTypes.includes(cache["type"] as (typeof cacheTypes)[number])) {
      out.push(`${p}.type: must be one of ${cacheTypes.join(", ")}`);
    }
  });
}

function isCadvisorForm(topology: JsonObject): boolean {
  return topology["topology"] !== undefined;
}

/** Validates cAdvisor's MachineInfo shape (only the fields the kubelet reads). */
function validateCadvisor(topology: JsonObject, path: string): string[] {
  const out: string[] = [];
  const nodes = topology["topology"];
  const nodesPath = `${path}.topology`;
  if (!Array.isArray(nodes) || nodes.length === 0) {
    return [`${nodesPath}: must be a non-empty list of NUMA nodes, as cAdvisor's /spec/ shows`];
  }
  const seenThreads = new Set<number>();
  const seenNodes = new Set<number>();
  let threads = 0;
  nodes.forEach((node: unknown, n) => {
    const p = `${nodesPath}[${n}]`;
    if (!isPlainObject(node)) {
      out.push(`${p}: must be a mapping {node_id, memory, cores, caches}`);
      return;
    }
    const id = node["node_id"];
    if (!isInt(id)) out.push(`${p}.node_id: must be a whole number ≥ 0`);
    else if (seenNodes.has(id))
      out.push(`${p}.node_id: ${id} appears twice; give each node its own id`);
    else seenNodes.add(id);
    if (node["memory"] !== undefined && !isInt(node["memory"])) {
      out.push(`${p}.memory: must be the node's memory in bytes`);
    }
    validateCaches(node["caches"], `${p}.caches`, out);
    const cores = node["cores"];
    if (!Array.isArray(cores) || cores.length === 0) {
      out.push(`${p}.cores: must be a non-empty list of {core_id, thread_ids, socket_id}`);
      return;
    }
    cores.forEach((core: unknown, c) => {
      const cp = `${p}.cores[${c}]`;
      if (!isPlainObject(core)) {
        out.push(`${cp}: must be a mapping {core_id, thread_ids, socket_id}`);
        return;
      }
      if (!isInt(core["core_id"])) out.push(`${cp}.core_id: must be a whole number ≥ 0`);
      if (!isInt(core["socket_id"])) out.push(`${cp}.socket_id: must be a whole number ≥ 0`);
      const ids = core["thread_ids"];
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((t) => isInt(t))) {
        out.push(`${cp}.thread_ids: must be a non-empty list of logical CPU ids`);
      } else {
        for (const t of ids as number[]) {
          if (seenThreads.has(t)) out.push(`${cp}.thread_ids: CPU ${t} is listed twice`);
          seenThreads.add(t);
          threads++;
        }
      }
      validateCaches(core["caches"], `${cp}.caches`, out);
      validateCaches(core["uncore_caches"], `${cp}.uncore_caches`, out);
    });
  });
  const declared = topology["num_cores"];
  if (declared !== undefined && out.length === 0 && declared !== threads) {
    out.push(
      `${path}.num_cores: says ${String(declared)} but the topology lists ${threads} CPUs; drop num_cores or fix it`,
    );
  }
  return out;
}

function caches(value: unknown): CadvisorCache[] {
  return Array.isArray(value) ? (value as unknown as CadvisorCache[]).map((c) => ({ ...c })) : [];
}

function readCadvisor(topology: JsonObject, memoryBytes: number): MachineTopology {
  const nodes = topology["topology"] as unknown as Record<string, unknown>[];
  const share = Math.floor(memoryBytes / nodes.length);
  const sockets = new Set<number>();
  let physical = 0;
  let logical = 0;
  const out: CadvisorNode[] = nodes.map((node) => {
    const cores: CadvisorCore[] = (node["cores"] as Record<string, unknown>[]).map((core) => {
      const threads = [...(core["thread_ids"] as number[])];
      sockets.add(core["socket_id"] as number);
      physical++;
      logical += threads.length;
      const result: CadvisorCore = {
        core_id: core["core_id"] as number,
        thread_ids: threads,
        caches: caches(core["caches"]),
        uncore_caches: caches(core["uncore_caches"]),
        socket_id: core["socket_id"] as number,
        ...(typeof core["book_id"] === "string" ? { book_id: core["book_id"] } : {}),
        ...(typeof core["drawer_id"] === "string" ? { drawer_id: core["drawer_id"] } : {}),
      };
      return result;
    });
    const distances = node["distances"];
    return {
      node_id: node["node_id"] as number,
      memory: typeof node["memory"] === "number" ? node["memory"] : share,
      hugepages: Array.isArray(node["hugepages"])
        ? (node["hugepages"] as unknown as CadvisorNode["hugepages"])
        : [
            { page_size: 1048576, num_pages: 0 },
            { page_size: 2048, num_pages: 0 },
          ],
      cores,
      caches: caches(node["caches"]),
      distances: Array.isArray(distances) ? (distances as number[]) : [10],
    };
  });
  const frequency = topology["cpu_frequency_khz"];
  return {
    numCores: logical,
    numPhysicalCores: physical,
    numSockets: sockets.size,
    cpuFrequencyKhz: isInt(frequency, 1) ? frequency : defaultCpuFrequencyKhz,
    nodes: out,
  };
}

/**
 * The kubelet's own interpreter: cAdvisor's MachineInfo shape (`num_cores`, `num_sockets`,
 * `cpu_frequency_khz` and a `topology` list of NUMA nodes) is read and checked; any other mapping
 * is left opaque for the CPU manager.
 */
export const cadvisorTopologyInterpreter: TopologyInterpreter = {
  validate: (topology, path) => (isCadvisorForm(topology) ? validateCadvisor(topology, path) : []),
  machine: (topology, memoryBytes) =>
    isCadvisorForm(topology) ? readCadvisor(topology, memoryBytes) : undefined,
};
