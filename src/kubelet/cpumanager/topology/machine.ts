/**
 * The flat CPU list as cAdvisor would report the machine: NUMA nodes, cores grouped by
 * (socket, core id), private L1/L2 caches, and each L3 filed by cAdvisor's rule: a cache shared
 * by exactly the node's CPUs goes into the node's `caches`, any other L3 into the cores'
 * `uncore_caches`. `discoverTopology` of the result is what a real kubelet would see.
 */
import type { CadvisorCache, CadvisorCore, CadvisorNode } from "./cadvisor.ts";
import type { CpuRecord } from "./topology.ts";

const kib = 1024;
const mib = 1024 * kib;

/** Cache sizes in bytes (L1/L2 per core, L3 per uncore cache id). */
export interface CacheSizes {
  readonly l1d: number;
  readonly l1i: number;
  readonly l2: number;
  readonly l3: number;
}

export const defaultCacheSizes: CacheSizes = Object.freeze({
  l1d: 32 * kib,
  l1i: 32 * kib,
  l2: 1 * mib,
  l3: 32 * mib,
});

/** Options of `cadvisorNodesFromRecords`. */
export interface MachineFromRecordsOptions {
  /** Spread evenly over the NUMA nodes. @default 0 */
  readonly memoryBytes?: number;
  /** @default defaultCacheSizes */
  readonly caches?: CacheSizes;
}

function distance(from: number, to: number, socketOf: ReadonlyMap<number, number>): number {
  if (from === to) return 10;
  return socketOf.get(from) === socketOf.get(to) ? 12 : 32;
}

/** cAdvisor's NUMA nodes for a flat CPU list (nodes and cores in id order). */
export function cadvisorNodesFromRecords(
  records: readonly CpuRecord[],
  options: MachineFromRecordsOptions = {},
): CadvisorNode[] {
  const sizes = options.caches ?? defaultCacheSizes;
  const sorted = [...records].sort((a, b) => a.cpu - b.cpu);
  const l3Members = new Map<number, number>();
  for (const r of sorted) l3Members.set(r.uncore, (l3Members.get(r.uncore) ?? 0) + 1);
  const numaIds = [...new Set(sorted.map((r) => r.numa))].sort((a, b) => a - b);
  const socketOfNuma = new Map<number, number>();
  for (const r of sorted) if (!socketOfNuma.has(r.numa)) socketOfNuma.set(r.numa, r.socket);
  const memoryShare = Math.floor((options.memoryBytes ?? 0) / Math.max(1, numaIds.length));

  return numaIds.map((numa) => {
    const members = sorted.filter((r) => r.numa === numa);
    const grouped = new Map<string, CpuRecord[]>();
    for (const r of members) {
      const key = `${r.socket}/${r.core}`;
      const list = grouped.get(key);
      if (list === undefined) grouped.set(key, [r]);
      else list.push(r);
    }
    const nodeCaches: CadvisorCache[] = [];
    const cores: CadvisorCore[] = [...grouped.values()].map((threads) => {
      const first = threads[0] as CpuRecord;
      const l3: CadvisorCache = { id: first.uncore, size: sizes.l3, type: "Unified", level: 3 };
      // cAdvisor compares the L3's sharing count with this core's threads times the node's cores.
      const nodeWide = (l3Members.get(first.uncore) ?? 0) === grouped.size * threads.length;
      const uncore: CadvisorCache[] = [];
      if (nodeWide) {
        if (!nodeCaches.some((c) => c.id === l3.id)) nodeCaches.push(l3);
      } else {
        uncore.push(l3);
      }
      const id = first.cpu;
      return {
        core_id: first.core,
        thread_ids: threads.map((t) => t.cpu),
        caches: [
          { id, size: sizes.l1d, type: "Data", level: 1 },
          { id, size: sizes.l1i, type: "Instruction", level: 1 },
          { id, size: sizes.l2, type: "Unified", level: 2 },
        ],
        uncore_caches: uncore,
        socket_id: first.socket,
      };
    });
    return {
      node_id: numa,
      memory: memoryShare,
      hugepages: [
        { page_size: 1048576, num_pages: 0 },
        { page_size: 2048, num_pages: 0 },
      ],
      cores,
      caches: nodeCaches,
      distances: numaIds.map((other) => distance(numa, other, socketOfNuma)),
    };
  });
}
