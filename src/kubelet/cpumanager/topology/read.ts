/**
 * Reads a topology declaration in any of its forms into cAdvisor's NUMA nodes:
 *
 * - a preset name (`"amd-epyc-9654-2s"`) or `{"preset": "…"}`;
 * - the flat list `{"cpus": [{"cpu":0,"core":0,"socket":0,"numa":0,"uncore":0}, …]}`;
 * - cAdvisor's MachineInfo (`kubectl get --raw /api/v1/nodes/N/proxy/spec/`), whose `topology`
 *   list is taken as it is.
 *
 * Pure: problems are returned, each starting with its field path below `path`.
 */
import type { CadvisorCache, CadvisorCore, CadvisorNode } from "./cadvisor.ts";
import { cadvisorNodesFromRecords } from "./machine.ts";
import { findPreset, presetNames } from "./presets.ts";
import type { CpuRecord } from "./topology.ts";

/** What a declaration resolves to. */
export interface ReadTopology {
  readonly form: "preset" | "flat" | "cadvisor";
  readonly nodes: readonly CadvisorNode[];
  /** cAdvisor's `cpu_frequency_khz` when the declaration carries one. */
  readonly cpuFrequencyKhz: number | undefined;
}

export type ReadTopologyResult =
  | ({ readonly ok: true } & ReadTopology)
  | { readonly ok: false; readonly problems: readonly string[] };

type Obj = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isInt(value: unknown, min = 0): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min;
}

/** Whether `value` has the shape of one of the forms (it may still be invalid). */
export function isTopologyDeclaration(value: unknown): boolean {
  if (typeof value === "string") return true;
  if (!isObject(value)) return false;
  return (
    value["preset"] !== undefined || value["cpus"] !== undefined || value["topology"] !== undefined
  );
}

function presetProblem(name: unknown, path: string): string {
  return `${path}: unknown topology preset ${JSON.stringify(name)}; use one of ${presetNames().join(", ")}`;
}

const flatFields = ["cpu", "core", "socket", "numa", "uncore"] as const;

/** Validates and reads the flat list. */
export function readFlatRecords(value: unknown, path: string): CpuRecord[] | string[] {
  if (!Array.isArray(value) || value.length === 0) {
    return [`${path}: must be a non-empty list of {cpu, core, socket, numa, uncore}`];
  }
  const problems: string[] = [];
  const records: CpuRecord[] = [];
  const seen = new Set<number>();
  value.forEach((entry: unknown, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(entry)) {
      problems.push(`${p}: must be a mapping {cpu, core, socket, numa, uncore}`);
      return;
    }
    for (const key of Object.keys(entry)) {
      if (!(flatFields as readonly string[]).includes(key)) {
        problems.push(`${p}.${key}: unknown field; use ${flatFields.join(", ")}`);
      }
    }
    let valid = true;
    for (const field of flatFields) {
      if (!isInt(entry[field])) {
        problems.push(`${p}.${field}: must be a whole number ≥ 0`);
        valid = false;
      }
    }
    if (!valid) return;
    const cpu = entry["cpu"] as number;
    if (seen.has(cpu)) {
      problems.push(`${p}.cpu: CPU ${cpu} is listed twice`);
      return;
    }
    seen.add(cpu);
    records.push({
      cpu,
      core: entry["core"] as number,
      socket: entry["socket"] as number,
      numa: entry["numa"] as number,
      uncore: entry["uncore"] as number,
    });
  });
  return problems.length > 0 ? problems : records;
}

const cacheTypes = ["Data", "Instruction", "Unified"] as const;

function validateCaches(value: unknown, path: string, out: string[]): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    out.push(`${path}: must be a list of {id, size, type, level}`);
    return;
  }
  value.forEach((cache: unknown, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(cache)) {
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

/** Validates cAdvisor's MachineInfo shape (only the fields the kubelet reads). */
export function validateCadvisor(topology: Obj, path: string): string[] {
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
    if (!isObject(node)) {
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
      if (!isObject(core)) {
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
  return Array.isArray(value)
    ? (value as readonly CadvisorCache[]).map((c) => ({
        id: c.id,
        size: c.size,
        type: c.type,
        level: c.level,
      }))
    : [];
}

/** Reads a validated MachineInfo's NUMA nodes; memory not stated per node is spread evenly. */
function readCadvisorNodes(topology: Obj, memoryBytes: number): CadvisorNode[] {
  const nodes = topology["topology"] as readonly Obj[];
  const share = Math.floor(memoryBytes / nodes.length);
  return nodes.map((node) => {
    const cores: CadvisorCore[] = (node["cores"] as readonly Obj[]).map((core) => ({
      core_id: core["core_id"] as number,
      thread_ids: [...(core["thread_ids"] as number[])],
      caches: caches(core["caches"]),
      uncore_caches: caches(core["uncore_caches"]),
      socket_id: core["socket_id"] as number,
      ...(typeof core["book_id"] === "string" ? { book_id: core["book_id"] } : {}),
      ...(typeof core["drawer_id"] === "string" ? { drawer_id: core["drawer_id"] } : {}),
    }));
    const distances = node["distances"];
    return {
      node_id: node["node_id"] as number,
      memory: typeof node["memory"] === "number" ? node["memory"] : share,
      hugepages: Array.isArray(node["hugepages"])
        ? (node["hugepages"] as CadvisorNode["hugepages"])
        : [
            { page_size: 1048576, num_pages: 0 },
            { page_size: 2048, num_pages: 0 },
          ],
      cores,
      caches: caches(node["caches"]),
      distances: Array.isArray(distances) ? (distances as number[]) : [10],
    };
  });
}

/**
 * Reads a declaration. `memoryBytes` is the machine's memory, spread over NUMA nodes that do
 * not state their own.
 */
export function readTopology(value: unknown, path: string, memoryBytes = 0): ReadTopologyResult {
  let declaration = value;
  if (isObject(value) && value["preset"] !== undefined) {
    const extra = Object.keys(value).filter((k) => k !== "preset");
    if (extra.length > 0) {
      return {
        ok: false,
        problems: extra.map(
          (k) => `${path}.${k}: unknown field next to preset; a preset stands alone`,
        ),
      };
    }
    declaration = value["preset"];
    path = `${path}.preset`;
  }
  if (typeof declaration === "string") {
    const preset = findPreset(declaration);
    if (preset === undefined) return { ok: false, problems: [presetProblem(declaration, path)] };
    return {
      ok: true,
      form: "preset",
      nodes: cadvisorNodesFromRecords(preset.records(), { memoryBytes, caches: preset.caches }),
      cpuFrequencyKhz: undefined,
    };
  }
  if (!isObject(declaration)) {
    return {
      ok: false,
      problems: [
        `${path}: must be a preset name, {"cpus": [...]}, or cAdvisor's MachineInfo with a topology list`,
      ],
    };
  }
  const frequency = declaration["cpu_frequency_khz"];
  const cpuFrequencyKhz = isInt(frequency, 1) ? frequency : undefined;
  if (declaration["cpus"] !== undefined) {
    const extra = Object.keys(declaration).filter((k) => k !== "cpus");
    const records = readFlatRecords(declaration["cpus"], `${path}.cpus`);
    const problems = [
      ...extra.map((k) => `${path}.${k}: unknown field; the flat form has only cpus`),
      ...(typeof records[0] === "string" ? (records as string[]) : []),
    ];
    if (problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      form: "flat",
      nodes: cadvisorNodesFromRecords(records as CpuRecord[], { memoryBytes }),
      cpuFrequencyKhz,
    };
  }
  if (declaration["topology"] !== undefined) {
    const problems = validateCadvisor(declaration, path);
    if (problems.length > 0) return { ok: false, problems };
    return {
      ok: true,
      form: "cadvisor",
      nodes: readCadvisorNodes(declaration, memoryBytes),
      cpuFrequencyKhz,
    };
  }
  return {
    ok: false,
    problems: [
      `${path}: must be a preset name, {"cpus": [...]}, or cAdvisor's MachineInfo with a topology list`,
    ],
  };
}
