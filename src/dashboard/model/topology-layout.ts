/**
 * The CPU topology view's model: a node's cAdvisor MachineInfo (`/proxy/spec/`) arranged as
 * sockets → NUMA nodes → L3 (uncore) caches → cores → threads, each CPU marked reserved,
 * shared-pool or pinned to a container from the PodResources List (`/proxy/podresources`) and
 * GetAllocatableResources (`/proxy/podresources/allocatable`). The L3 of a core is the one the
 * kubelet's CPU manager uses: its first uncore cache, or the socket when it has none (an L3 that
 * spans a whole NUMA node is listed on the node, and the kubelet then aligns by socket).
 */

/** The parts of cAdvisor's MachineInfo the view reads (wire names). */
export interface MachineInfo {
  readonly topology?: readonly {
    readonly node_id: number;
    readonly cores?: readonly {
      readonly core_id: number;
      readonly socket_id: number;
      readonly thread_ids?: readonly number[];
      readonly uncore_caches?: readonly { readonly id: number; readonly level?: number }[];
    }[];
    readonly caches?: readonly { readonly id: number; readonly level?: number }[];
  }[];
}

/** The PodResources List (`podresources.v1.ListPodResourcesResponse`). */
export interface PodResourcesList {
  readonly pod_resources?: readonly {
    readonly name?: string;
    readonly namespace?: string;
    readonly containers?: readonly {
      readonly name?: string;
      readonly cpu_ids?: readonly number[];
    }[];
  }[];
}

export type CpuState = "reserved" | "shared" | "pinned";

export interface CpuCell {
  readonly id: number;
  readonly state: CpuState;
  /** Index into `containers` for a pinned CPU. */
  readonly owner: number | undefined;
  readonly socket: number;
  readonly numaNode: number;
  readonly l3: number;
  readonly core: number;
}

export interface CoreBox {
  readonly id: number;
  readonly threads: readonly CpuCell[];
}

export interface L3Box {
  /** The kubelet's uncore-cache id; the socket id when the cores list no uncore cache. */
  readonly id: number;
  /** True when the id is the socket's (no uncore cache listed). */
  readonly bySocket: boolean;
  readonly cores: readonly CoreBox[];
}

export interface NumaBox {
  readonly id: number;
  readonly l3: readonly L3Box[];
}

export interface SocketBox {
  readonly id: number;
  readonly numaNodes: readonly NumaBox[];
}

/** One container holding exclusive CPUs, with a tag the diagram prints in its CPUs. */
export interface PinnedContainer {
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly cpus: readonly number[];
  /** Short label: A, B, …, Z, AA, AB, … */
  readonly tag: string;
  /** Which swatch (colour and pattern) to draw it with. */
  readonly swatch: number;
  /** The distinct L3 caches (kubelet's uncore ids) its CPUs sit in. */
  readonly l3Count: number;
  readonly numaCount: number;
}

export interface TopologyLayout {
  readonly sockets: readonly SocketBox[];
  readonly containers: readonly PinnedContainer[];
  /** Containers without exclusive CPUs (they run on the shared pool). */
  readonly sharedContainers: readonly { namespace: string; pod: string; container: string }[];
  readonly counts: {
    readonly total: number;
    readonly reserved: number;
    readonly shared: number;
    readonly pinned: number;
  };
  /** False when the node reports no allocatable CPUs (the `none` CPU manager policy). */
  readonly pinning: boolean;
}

/** How many swatches the stylesheet defines (colour and pattern pairs). */
export const swatchCount = 12;

/** A, B, …, Z, AA, AB, … for 0, 1, … */
export function tagOf(index: number): string {
  let n = index;
  let tag = "";
  do {
    tag = String.fromCharCode(65 + (n % 26)) + tag;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return tag;
}

function byId<T extends { id: number }>(a: T, b: T): number {
  return a.id - b.id;
}

/** Lays out the machine; CPUs outside `allocatable` are reserved when any CPU is allocatable. */
export function layoutTopology(
  machine: MachineInfo,
  allocatable: readonly number[],
  assignments: PodResourcesList,
): TopologyLayout {
  const containers: PinnedContainer[] = [];
  const sharedContainers: { namespace: string; pod: string; container: string }[] = [];
  const ownerOf = new Map<number, number>();
  for (const pod of assignments.pod_resources ?? []) {
    for (const c of pod.containers ?? []) {
      const base = { namespace: pod.namespace ?? "", pod: pod.name ?? "", container: c.name ?? "" };
      const cpus = [...(c.cpu_ids ?? [])].sort((a, b) => a - b);
      if (cpus.length === 0) {
        sharedContainers.push(base);
        continue;
      }
      const index = containers.length;
      for (const cpu of cpus) ownerOf.set(cpu, index);
      containers.push({
        ...base,
        cpus,
        tag: tagOf(index),
        swatch: index % swatchCount,
        l3Count: 0,
        numaCount: 0,
      });
    }
  }
  const pinning = allocatable.length > 0;
  const allocatableSet = new Set(allocatable);
  const cells: CpuCell[] = [];
  for (const numa of machine.topology ?? []) {
    for (const core of numa.cores ?? []) {
      const uncore = core.uncore_caches?.[0]?.id;
      const threads = [...(core.thread_ids ?? [])].sort((a, b) => a - b);
      const coreId = threads[0] ?? core.core_id;
      for (const id of threads) {
        const owner = ownerOf.get(id);
        const state: CpuState =
          owner !== undefined
            ? "pinned"
            : pinning && !allocatableSet.has(id)
              ? "reserved"
              : "shared";
        cells.push({
          id,
          state,
          owner,
          socket: core.socket_id,
          numaNode: numa.node_id,
          l3: uncore ?? core.socket_id,
          core: coreId,
        });
      }
    }
  }
  const noUncore = new Set(
    (machine.topology ?? []).flatMap((n) =>
      (n.cores ?? []).filter((c) => (c.uncore_caches ?? []).length === 0).map((c) => c.socket_id),
    ),
  );
  const sockets = new Map<number, Map<number, Map<number, Map<number, CpuCell[]>>>>();
  for (const cell of cells) {
    const numa = getOrSet(sockets, cell.socket, () => new Map());
    const l3 = getOrSet(numa, cell.numaNode, () => new Map());
    const core = getOrSet(l3, cell.l3, () => new Map());
    getOrSet(core, cell.core, () => []).push(cell);
  }
  const socketBoxes: SocketBox[] = [...sockets]
    .map(([id, numa]) => ({
      id,
      numaNodes: [...numa]
        .map(([numaId, l3]) => ({
          id: numaId,
          l3: [...l3]
            .map(([l3Id, cores]) => ({
              id: l3Id,
              bySocket: noUncore.has(id) && l3Id === id,
              cores: [...cores].map(([coreId, threads]) => ({ id: coreId, threads })).sort(byId),
            }))
            .sort(byId),
        }))
        .sort(byId),
    }))
    .sort(byId);
  const cellById = new Map(cells.map((c) => [c.id, c]));
  const measured = containers.map((c) => ({
    ...c,
    l3Count: new Set(c.cpus.map((cpu) => cellById.get(cpu)?.l3 ?? -1)).size,
    numaCount: new Set(c.cpus.map((cpu) => cellById.get(cpu)?.numaNode ?? -1)).size,
  }));
  const count = (state: CpuState) => cells.filter((c) => c.state === state).length;
  return {
    sockets: socketBoxes,
    containers: measured,
    sharedContainers,
    counts: {
      total: cells.length,
      reserved: count("reserved"),
      shared: count("shared"),
      pinned: count("pinned"),
    },
    pinning,
  };
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The badge text of a pinned container: "one L3" or "spans N L3". */
export function l3Badge(container: Pick<PinnedContainer, "l3Count">): string {
  return container.l3Count <= 1 ? "one L3" : `spans ${container.l3Count} L3`;
}

/** CPU ids in the Linux list format the kubelet prints: [0, 1, 2, 3, 8] → "0-3,8". */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i] ?? 0;
    let end = start;
    while (sorted[i + 1] === end + 1) {
      end++;
      i++;
    }
    parts.push(start === end ? String(start) : `${start}-${end}`);
    i++;
  }
  return parts.join(",");
}
