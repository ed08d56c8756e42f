/**
 * The CPU topology the CPU manager works on (upstream `topology.CPUTopology`): every logical CPU
 * with its core, socket, NUMA node and uncore (L3) cache. Counts are derived from the CPU list,
 * never taken from a header. Plain data plus queries, no I/O.
 */
import { CpuSet } from "../cpuset.ts";

/** Where one logical CPU sits (upstream `CPUInfo`). */
export interface CpuInfo {
  readonly numaNode: number;
  readonly socket: number;
  /** A machine-wide core id (the kubelet uses the lowest thread id of the core). */
  readonly core: number;
  readonly uncoreCache: number;
}

/** One row of the flat form: `{"cpu":0,"core":0,"socket":0,"numa":0,"uncore":0}`. */
export interface CpuRecord {
  readonly cpu: number;
  readonly core: number;
  readonly socket: number;
  readonly numa: number;
  readonly uncore: number;
}

type Index = ReadonlyMap<number, readonly number[]>;

function indexBy(details: ReadonlyMap<number, CpuInfo>, key: (info: CpuInfo) => number): Index {
  const index = new Map<number, number[]>();
  for (const [cpu, info] of details) {
    const id = key(info);
    let list = index.get(id);
    if (list === undefined) {
      list = [];
      index.set(id, list);
    }
    list.push(cpu);
  }
  for (const list of index.values()) list.sort((a, b) => a - b);
  return index;
}

function idsOf(index: Index): number[] {
  return [...index.keys()].sort((a, b) => a - b);
}

/** Integer division as Go does it for the ratios, 0 when the divisor is 0. */
function ratio(a: number, b: number): number {
  return b === 0 ? 0 : Math.floor(a / b);
}

/** A machine's logical CPUs. Immutable; every query returns fresh values. */
/** The placement attributes a CPU list can be grouped by. */
export type DomainAttribute = "numa" | "socket" | "core" | "uncore";

/** The domains (cores, sockets, …) a CPU list touches. */
export interface DomainsIn {
  /** Distinct ids, in the order the list first reaches them. */
  readonly ids: readonly number[];
  /** Every CPU of each of those domains is in the list. */
  readonly contained: boolean;
}

/** The domains of one attribute numbered 0..size-1, for array-indexed counters. */
export interface DenseDomains {
  /** Per CPU id, its domain's dense number (-1 where there is no CPU). */
  readonly of: Int32Array;
  /** Domain id → dense number. */
  readonly index: ReadonlyMap<number, number>;
  /** The same as an array indexed by domain id (-1: none), when the ids are small. */
  readonly byId: Int32Array | undefined;
  readonly size: number;
}

export class CpuTopology {
  readonly details: ReadonlyMap<number, CpuInfo>;
  readonly #byCore: Index;
  readonly #bySocket: Index;
  readonly #byNuma: Index;
  readonly #byUncore: Index;
  readonly #all: CpuSet;
  /** Per CPU id (dense up to the highest id; -1 where there is no CPU): fast lookups for the allocator. */
  readonly coreOf: Int32Array;
  readonly socketOf: Int32Array;
  readonly numaOf: Int32Array;
  readonly uncoreOf: Int32Array;
  /** The CPU ids, ascending (shared: do not mutate). */
  readonly cpuList: readonly number[];
  /** Dense domain numbering per attribute, built on first use. */
  readonly #dense = new Map<DomainAttribute, DenseDomains>();
  /** `smallestDomain` per attribute, built on first use. */
  readonly #smallest = new Map<DomainAttribute, number>();
  /** The CPU set of each single NUMA node, built on first use. */
  readonly #numaSets = new Map<number, CpuSet>();
  /** `domainsIn` answers, per CPU list (the shared arrays of this topology) and attribute. */
  readonly #domains = new WeakMap<readonly number[], Map<DomainAttribute, DomainsIn>>();

  private constructor(details: ReadonlyMap<number, CpuInfo>) {
    this.details = details;
    this.cpuList = [...details.keys()];
    const size = Math.max(...this.cpuList) + 1;
    this.coreOf = new Int32Array(size).fill(-1);
    this.socketOf = new Int32Array(size).fill(-1);
    this.numaOf = new Int32Array(size).fill(-1);
    this.uncoreOf = new Int32Array(size).fill(-1);
    for (const [cpu, info] of details) {
      this.coreOf[cpu] = info.core;
      this.socketOf[cpu] = info.socket;
      this.numaOf[cpu] = info.numaNode;
      this.uncoreOf[cpu] = info.uncoreCache;
    }
    this.#byCore = indexBy(details, (i) => i.core);
    this.#bySocket = indexBy(details, (i) => i.socket);
    this.#byNuma = indexBy(details, (i) => i.numaNode);
    this.#byUncore = indexBy(details, (i) => i.uncoreCache);
    this.#all = CpuSet.from(details.keys());
  }

  /** A topology from CPU id → placement. Throws `RangeError` for an empty or invalid map. */
  static of(details: ReadonlyMap<number, CpuInfo>): CpuTopology {
    if (details.size === 0) throw new RangeError("Cannot use a topology without CPUs");
    for (const [cpu, info] of details) {
      for (const [name, value] of [
        ["cpu", cpu],
        ["core", info.core],
        ["socket", info.socket],
        ["numa", info.numaNode],
        ["uncore", info.uncoreCache],
      ] as const) {
        if (!Number.isInteger(value)) {
          throw new RangeError(
            `Cannot use CPU ${cpu}: its ${name} id ${value} is not a whole number`,
          );
        }
      }
      if (cpu < 0) throw new RangeError(`Cannot use CPU ${cpu}: CPU ids start at 0`);
    }
    return new CpuTopology(new Map([...details].sort(([a], [b]) => a - b)));
  }

  /** A topology from flat records; throws `RangeError` if a CPU is listed twice. */
  static fromRecords(records: readonly CpuRecord[]): CpuTopology {
    const details = new Map<number, CpuInfo>();
    for (const r of records) {
      if (details.has(r.cpu)) throw new RangeError(`Cannot use CPU ${r.cpu}: it is listed twice`);
      details.set(r.cpu, {
        core: r.core,
        socket: r.socket,
        numaNode: r.numa,
        uncoreCache: r.uncore,
      });
    }
    return CpuTopology.of(details);
  }

  /** The flat records, by CPU id. */
  records(): CpuRecord[] {
    return [...this.details].map(([cpu, i]) => ({
      cpu,
      core: i.core,
      socket: i.socket,
      numa: i.numaNode,
      uncore: i.uncoreCache,
    }));
  }

  get numCpus(): number {
    return this.details.size;
  }
  get numCores(): number {
    return this.#byCore.size;
  }
  get numSockets(): number {
    return this.#bySocket.size;
  }
  get numNumaNodes(): number {
    return this.#byNuma.size;
  }
  get numUncoreCaches(): number {
    return this.#byUncore.size;
  }

  /** The SMT level: logical CPUs per core. */
  cpusPerCore(): number {
    return ratio(this.numCpus, this.numCores);
  }
  cpusPerSocket(): number {
    return ratio(this.numCpus, this.numSockets);
  }
  cpusPerUncore(): number {
    return ratio(this.numCpus, this.numUncoreCaches);
  }

  cpus(): CpuSet {
    return this.#all;
  }
  cores(): number[] {
    return idsOf(this.#byCore);
  }
  sockets(): number[] {
    return idsOf(this.#bySocket);
  }
  numaNodes(): number[] {
    return idsOf(this.#byNuma);
  }
  uncoreCaches(): number[] {
    return idsOf(this.#byUncore);
  }

  /** CPU ids of one core / socket / NUMA node / uncore cache, ascending (shared arrays: do not mutate). */
  cpuListOfCore(core: number): readonly number[] {
    return this.#byCore.get(core) ?? [];
  }
  cpuListOfSocket(socket: number): readonly number[] {
    return this.#bySocket.get(socket) ?? [];
  }
  cpuListOfNuma(numa: number): readonly number[] {
    return this.#byNuma.get(numa) ?? [];
  }
  cpuListOfUncore(uncore: number): readonly number[] {
    return this.#byUncore.get(uncore) ?? [];
  }

  /** The CPU ids of one domain of `attribute`, ascending (a shared array). */
  /**
   * The CPU count of the smallest domain of `attribute` (the smallest core, socket…): a request
   * for fewer CPUs cannot take any whole domain of it.
   */
  smallestDomain(attribute: DomainAttribute): number {
    let smallest = this.#smallest.get(attribute);
    if (smallest === undefined) {
      smallest = Math.min(...[...this.#indexOf(attribute).values()].map((cpus) => cpus.length));
      this.#smallest.set(attribute, smallest);
    }
    return smallest;
  }

  #indexOf(attribute: DomainAttribute): Index {
    switch (attribute) {
      case "numa":
        return this.#byNuma;
      case "socket":
        return this.#bySocket;
      case "core":
        return this.#byCore;
      case "uncore":
        return this.#byUncore;
    }
  }

  cpuListOf(attribute: DomainAttribute, id: number): readonly number[] {
    switch (attribute) {
      case "numa":
        return this.cpuListOfNuma(id);
      case "socket":
        return this.cpuListOfSocket(id);
      case "core":
        return this.cpuListOfCore(id);
      case "uncore":
        return this.cpuListOfUncore(id);
    }
  }

  /** Per CPU id, its domain of `attribute` (-1 where there is no CPU). */
  domainOf(attribute: DomainAttribute): Int32Array {
    switch (attribute) {
      case "numa":
        return this.numaOf;
      case "socket":
        return this.socketOf;
      case "core":
        return this.coreOf;
      case "uncore":
        return this.uncoreOf;
    }
  }

  /** The domains of `attribute` numbered densely (remembered). */
  dense(attribute: DomainAttribute): DenseDomains {
    let found = this.#dense.get(attribute);
    if (found === undefined) {
      const ids = this.domainOf(attribute);
      const of = new Int32Array(ids.length).fill(-1);
      const index = new Map<number, number>();
      for (const cpu of this.cpuList) {
        const id = ids[cpu] as number;
        let n = index.get(id);
        if (n === undefined) {
          n = index.size;
          index.set(id, n);
        }
        of[cpu] = n;
      }
      const domainIds = [...index.keys()];
      const small = domainIds.every((id) => id >= 0 && id <= 4 * ids.length + 1024);
      let byId: Int32Array | undefined;
      if (small) {
        byId = new Int32Array(Math.max(...domainIds) + 1).fill(-1);
        for (const [id, n] of index) byId[id] = n;
      }
      found = { of, index, byId, size: index.size };
      this.#dense.set(attribute, found);
    }
    return found;
  }

  /**
   * The `attribute` domains the CPUs of `cpus` belong to, remembered per list: pass the
   * topology's own shared lists (`cpuList`, `cpuListOf…`) to benefit.
   */
  domainsIn(cpus: readonly number[], attribute: DomainAttribute): DomainsIn {
    let byAttribute = this.#domains.get(cpus);
    if (byAttribute === undefined) {
      byAttribute = new Map();
      this.#domains.set(cpus, byAttribute);
    }
    let found = byAttribute.get(attribute);
    if (found === undefined) {
      const of = this.domainOf(attribute);
      const counts = new Map<number, number>();
      for (const cpu of cpus) {
        const id = of[cpu];
        if (id === undefined || id === -1) continue;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      // Ascending, so orderings by free CPUs can keep ties in id order without comparing ids.
      const ids = [...counts.keys()].sort((a, b) => a - b);
      const contained = ids.every((id) => this.cpuListOf(attribute, id).length === counts.get(id));
      found = { ids, contained };
      byAttribute.set(attribute, found);
    }
    return found;
  }

  cpusInCores(...cores: readonly number[]): CpuSet {
    return CpuSet.from(cores.flatMap((c) => this.cpuListOfCore(c)));
  }
  cpusInSockets(...sockets: readonly number[]): CpuSet {
    return CpuSet.from(sockets.flatMap((s) => this.cpuListOfSocket(s)));
  }
  cpusInNumaNodes(...numas: readonly number[]): CpuSet {
    if (numas.length === 1) {
      const numa = numas[0] as number;
      let cpus = this.#numaSets.get(numa);
      if (cpus === undefined) {
        cpus = CpuSet.from(this.cpuListOfNuma(numa));
        this.#numaSets.set(numa, cpus);
      }
      return cpus;
    }
    return CpuSet.from(numas.flatMap((n) => this.cpuListOfNuma(n)));
  }
  cpusInUncoreCaches(...uncores: readonly number[]): CpuSet {
    return CpuSet.from(uncores.flatMap((u) => this.cpuListOfUncore(u)));
  }

  /** Socket ids of the CPUs in these NUMA nodes, ascending. */
  socketsInNumaNodes(...numas: readonly number[]): number[] {
    return this.#attributeOf(
      numas.flatMap((n) => this.cpuListOfNuma(n)),
      (i) => i.socket,
    );
  }
  numaNodesInSockets(...sockets: readonly number[]): number[] {
    return this.#attributeOf(
      sockets.flatMap((s) => this.cpuListOfSocket(s)),
      (i) => i.numaNode,
    );
  }
  uncoreCachesOf(cpus: Iterable<number>): number[] {
    return this.#attributeOf(cpus, (i) => i.uncoreCache);
  }
  numaNodesOf(cpus: Iterable<number>): number[] {
    return this.#attributeOf(cpus, (i) => i.numaNode);
  }
  socketsOf(cpus: Iterable<number>): number[] {
    return this.#attributeOf(cpus, (i) => i.socket);
  }
  coresOf(cpus: Iterable<number>): number[] {
    return this.#attributeOf(cpus, (i) => i.core);
  }

  #attributeOf(cpus: Iterable<number>, key: (info: CpuInfo) => number): number[] {
    const ids = new Set<number>();
    for (const cpu of cpus) {
      const info = this.details.get(cpu);
      if (info !== undefined) ids.add(key(info));
    }
    return [...ids].sort((a, b) => a - b);
  }

  /** Whether every id is a known NUMA node and together they lie in at most one socket. */
  areNumaNodesInSameSocket(numas: readonly number[]): boolean {
    if (numas.some((n) => !this.#byNuma.has(n))) return false;
    return this.socketsInNumaNodes(...numas).length <= 1;
  }
}
