/**
 * Reads a Linux sysfs tree (`/sys`, or a copy of it) the way cAdvisor does and returns its
 * NUMA nodes: online CPUs from `devices/system/cpu/cpuN/topology/{core_id,physical_package_id}`,
 * NUMA nodes from `devices/system/node/nodeN/cpulist` (by package when there are none), and the
 * caches of each core's first thread from `cpuN/cache/indexM/{level,type,size,id,shared_cpu_map}`
 * filed by cAdvisor's rule (see `machine.ts`). File access is injected, so this stays pure.
 */
import { CpuSet } from "../cpuset.ts";
import type { CadvisorCache, CadvisorCore, CadvisorNode } from "./cadvisor.ts";

/** Read access to a directory tree. Both return `undefined` for what does not exist. */
export interface SysfsReader {
  readFile(path: string): string | undefined;
  listDir(path: string): readonly string[] | undefined;
}

/** What the tree says about the machine. */
export interface SysfsMachine {
  readonly nodes: readonly CadvisorNode[];
  /** From `cpu0/cpufreq/cpuinfo_max_freq`, when present. */
  readonly cpuFrequencyKhz: number | undefined;
}

function numbered(names: readonly string[], prefix: string): number[] {
  const pattern = new RegExp(`^${prefix}(\\d+)$`);
  return names
    .map((n) => pattern.exec(n)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function readInt(reader: SysfsReader, path: string): number | undefined {
  const text = reader.readFile(path)?.trim();
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
}

/** Set bits of `shared_cpu_map` (comma-separated 32-bit hex words). */
function countMapBits(text: string): number {
  let count = 0;
  for (const word of text.trim().split(",")) {
    for (const digit of word.trim()) {
      let nibble = Number.parseInt(digit, 16);
      while (nibble > 0) {
        count += nibble & 1;
        nibble >>= 1;
      }
    }
  }
  return count;
}

interface SysfsCache extends CadvisorCache {
  readonly cpus: number;
}

/** `"32768K"` → bytes (cAdvisor reads the number of KiB). */
function cacheSize(text: string | undefined): number | undefined {
  const m = /^(\d+)K$/.exec(text?.trim() ?? "");
  return m?.[1] === undefined ? undefined : Number(m[1]) * 1024;
}

function readCaches(reader: SysfsReader, cpuDir: string): SysfsCache[] {
  const dir = `${cpuDir}/cache`;
  const out: SysfsCache[] = [];
  for (const index of numbered(reader.listDir(dir) ?? [], "index")) {
    const base = `${dir}/index${index}`;
    const id = readInt(reader, `${base}/id`);
    const level = readInt(reader, `${base}/level`);
    const size = cacheSize(reader.readFile(`${base}/size`));
    const type = reader.readFile(`${base}/type`)?.trim();
    const map = reader.readFile(`${base}/shared_cpu_map`);
    const list = reader.readFile(`${base}/shared_cpu_list`);
    const cpus =
      map !== undefined
        ? countMapBits(map)
        : list !== undefined
          ? CpuSet.parse(list.trim()).size
          : undefined;
    if (
      id === undefined ||
      level === undefined ||
      size === undefined ||
      cpus === undefined ||
      (type !== "Data" && type !== "Instruction" && type !== "Unified")
    ) {
      continue;
    }
    out.push({ id, level, size, type, cpus });
  }
  return out;
}

function plain(cache: SysfsCache): CadvisorCache {
  return { id: cache.id, size: cache.size, type: cache.type, level: cache.level };
}

function pushUnique(list: CadvisorCache[], cache: SysfsCache): void {
  if (!list.some((c) => c.id === cache.id && c.level === cache.level && c.type === cache.type)) {
    list.push(plain(cache));
  }
}

function readHugePages(
  reader: SysfsReader,
  nodeDir: string,
): { page_size: number; num_pages: number }[] {
  const dir = `${nodeDir}/hugepages`;
  const pages: { page_size: number; num_pages: number }[] = [];
  for (const name of reader.listDir(dir) ?? []) {
    const m = /^hugepages-(\d+)kB$/.exec(name);
    if (m?.[1] === undefined) continue;
    pages.push({
      page_size: Number(m[1]),
      num_pages: readInt(reader, `${dir}/${name}/nr_hugepages`) ?? 0,
    });
  }
  return pages.sort((a, b) => b.page_size - a.page_size);
}

function readNodeMemory(reader: SysfsReader, nodeDir: string): number {
  const text = reader.readFile(`${nodeDir}/meminfo`) ?? "";
  const m = /MemTotal:\s+(\d+)\s*kB/.exec(text);
  return m?.[1] === undefined ? 0 : Number(m[1]) * 1024;
}

/**
 * Reads the machine under `root` (the directory holding `devices/`). Throws `RangeError` when
 * the tree has no online CPU with a topology.
 */
export function readSysfsMachine(reader: SysfsReader, root: string): SysfsMachine {
  const cpuRoot = `${root}/devices/system/cpu`;
  const nodeRoot = `${root}/devices/system/node`;
  const placement = new Map<number, { core: number; socket: number }>();
  for (const cpu of numbered(reader.listDir(cpuRoot) ?? [], "cpu")) {
    const dir = `${cpuRoot}/cpu${cpu}`;
    if (reader.readFile(`${dir}/online`)?.trim() === "0") continue;
    const core = readInt(reader, `${dir}/topology/core_id`);
    const socket = readInt(reader, `${dir}/topology/physical_package_id`);
    if (core === undefined || socket === undefined) continue;
    placement.set(cpu, { core, socket });
  }
  if (placement.size === 0) {
    throw new RangeError(
      `Cannot read a CPU topology under ${cpuRoot}: no online cpuN/topology/core_id and physical_package_id`,
    );
  }

  const nodeIds = numbered(reader.listDir(nodeRoot) ?? [], "node");
  const members = new Map<number, number[]>();
  if (nodeIds.length > 0) {
    for (const node of nodeIds) {
      const dir = `${nodeRoot}/node${node}`;
      const list = reader.readFile(`${dir}/cpulist`);
      const cpus =
        list !== undefined
          ? CpuSet.parse(list.trim()).toArray()
          : numbered(reader.listDir(dir) ?? [], "cpu");
      members.set(
        node,
        cpus.filter((c) => placement.has(c)),
      );
    }
  } else {
    for (const [cpu, p] of placement) {
      const list = members.get(p.socket) ?? [];
      list.push(cpu);
      members.set(p.socket, list);
    }
  }

  const ids = [...members.keys()].sort((a, b) => a - b);
  const nodes: CadvisorNode[] = [];
  for (const node of ids) {
    const cpus = (members.get(node) ?? []).sort((a, b) => a - b);
    if (cpus.length === 0) continue;
    const grouped = new Map<string, number[]>();
    for (const cpu of cpus) {
      const p = placement.get(cpu) as { core: number; socket: number };
      const key = `${p.socket}/${p.core}`;
      const list = grouped.get(key);
      if (list === undefined) grouped.set(key, [cpu]);
      else list.push(cpu);
    }
    const nodeCaches: CadvisorCache[] = [];
    const cores: CadvisorCore[] = [...grouped.values()].map((threads) => {
      const first = threads[0] as number;
      const p = placement.get(first) as { core: number; socket: number };
      const threadsPerNode = grouped.size * threads.length;
      const coreCaches: CadvisorCache[] = [];
      const uncore: CadvisorCache[] = [];
      for (const cache of readCaches(reader, `${cpuRoot}/cpu${first}`)) {
        if (cache.level > 2) {
          if (cache.cpus === threadsPerNode) pushUnique(nodeCaches, cache);
          else pushUnique(uncore, cache);
        } else if (cache.cpus === threads.length) {
          coreCaches.push(plain(cache));
        }
      }
      return {
        core_id: p.core,
        thread_ids: threads,
        caches: coreCaches,
        uncore_caches: uncore,
        socket_id: p.socket,
      };
    });
    const dir = `${nodeRoot}/node${node}`;
    const distances = reader
      .readFile(`${dir}/distance`)
      ?.trim()
      .split(/\s+/)
      .map(Number)
      .filter((n) => Number.isInteger(n));
    const hugepages = readHugePages(reader, dir);
    nodes.push({
      node_id: node,
      memory: readNodeMemory(reader, dir),
      hugepages:
        hugepages.length > 0
          ? hugepages
          : [
              { page_size: 1048576, num_pages: 0 },
              { page_size: 2048, num_pages: 0 },
            ],
      cores,
      caches: nodeCaches,
      distances: distances !== undefined && distances.length > 0 ? distances : [10],
    });
  }
  const frequency = readInt(reader, `${cpuRoot}/cpu0/cpufreq/cpuinfo_max_freq`);
  return {
    nodes,
    cpuFrequencyKhz: frequency !== undefined && frequency > 0 ? frequency : undefined,
  };
}
