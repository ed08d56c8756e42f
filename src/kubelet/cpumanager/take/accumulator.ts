/**
 * The CPU accumulator of upstream's `cpu_assignment.go`: the CPUs still free for this request
 * (`details`), what was taken so far and how many are still needed, plus the orderings every
 * step walks. All orderings sort ids by their free CPUs ascending, ties by id ascending, so
 * partly used domains come first ("packing").
 */
import { CpuSet } from "../cpuset.ts";
import type { CpuTopology } from "../topology/topology.ts";

/** How single CPUs are ordered in the last step. */
export type CpuSortingStrategy = "packed" | "spread";

/** One decision, for `--explain`. */
export interface TakeStep {
  readonly kind:
    | "numa-node"
    | "socket"
    | "uncore-cache"
    | "partial-uncore-cache"
    | "core"
    | "cpu"
    | "distribute";
  /** The NUMA node, socket, uncore cache or core id (the CPU id for `cpu`). */
  readonly id: number;
  readonly cpus: CpuSet;
  readonly why: string;
}

/** The free CPUs of a request: a dense mask over CPU ids plus a count. */
export class FreeCpus {
  readonly #mask: Uint8Array;
  #size = 0;

  constructor(topology: CpuTopology, available: CpuSet) {
    this.#mask = new Uint8Array(topology.coreOf.length);
    for (const cpu of available) {
      if (cpu < this.#mask.length && topology.coreOf[cpu] !== -1 && this.#mask[cpu] === 0) {
        this.#mask[cpu] = 1;
        this.#size++;
      }
    }
  }

  get size(): number {
    return this.#size;
  }

  has(cpu: number): boolean {
    return this.#mask[cpu] === 1;
  }

  delete(cpu: number): void {
    if (this.#mask[cpu] !== 1) return;
    this.#mask[cpu] = 0;
    this.#size--;
  }
}

type Attribute = "numa" | "socket" | "core" | "uncore";

export class Accumulator {
  readonly topology: CpuTopology;
  /** Free CPUs of the request that the topology knows (upstream `details`). */
  readonly free: FreeCpus;
  readonly result: Set<number> = new Set();
  need: number;
  /** NUMA nodes above sockets (`NumSockets >= NumNUMANodes`), else sockets above NUMA nodes. */
  readonly numaFirst: boolean;
  readonly trace: TakeStep[] | undefined;
  readonly #of: Readonly<Record<Attribute, Int32Array>>;

  constructor(topology: CpuTopology, available: CpuSet, need: number, trace?: TakeStep[]) {
    this.topology = topology;
    this.free = new FreeCpus(topology, available);
    this.need = need;
    this.numaFirst = topology.numSockets >= topology.numNumaNodes;
    this.trace = trace;
    this.#of = {
      numa: topology.numaOf,
      socket: topology.socketOf,
      core: topology.coreOf,
      uncore: topology.uncoreOf,
    };
  }

  isSatisfied(): boolean {
    return this.need < 1;
  }

  isFailed(): boolean {
    return this.need > this.free.size;
  }

  needsAtLeast(count: number): boolean {
    return this.need >= count;
  }

  /** Adds `cpus` to the result; `need` drops by their count (even if some were taken before). */
  take(cpus: readonly number[], step?: () => Omit<TakeStep, "cpus">): void {
    if (step !== undefined && this.trace !== undefined) {
      this.trace.push({ ...step(), cpus: CpuSet.from(cpus) });
    }
    for (const cpu of cpus) {
      this.result.add(cpu);
      this.free.delete(cpu);
    }
    this.need -= cpus.length;
  }

  resultSet(): CpuSet {
    return CpuSet.from(this.result);
  }

  freeCount(cpus: readonly number[]): number {
    let n = 0;
    for (const cpu of cpus) if (this.free.has(cpu)) n++;
    return n;
  }

  freeOf(cpus: readonly number[]): number[] {
    return cpus.filter((cpu) => this.free.has(cpu));
  }

  /** `ids` by free CPUs ascending, then id ascending (upstream `cpuAccumulator.sort`). */
  sortIds(ids: readonly number[], cpusOf: (id: number) => readonly number[]): number[] {
    const counted = ids.map((id) => ({ id, free: this.freeCount(cpusOf(id)) }));
    counted.sort((a, b) => a.free - b.free || a.id - b.id);
    return counted.map((c) => c.id);
  }

  /** The distinct `attribute` ids of the free CPUs among `cpus`. */
  #attributeOfFree(cpus: readonly number[], attribute: Attribute): number[] {
    const of = this.#of[attribute];
    const ids: number[] = [];
    const seen = new Set<number>();
    for (const cpu of cpus) {
      if (!this.free.has(cpu)) continue;
      const id = of[cpu] as number;
      if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
    return ids;
  }

  /** NUMA nodes / sockets with free CPUs. */
  freeNumaIds(): number[] {
    return this.#attributeOfFree(this.topology.cpuList, "numa");
  }
  freeSocketIds(): number[] {
    return this.#attributeOfFree(this.topology.cpuList, "socket");
  }

  sortNumaNodes(): number[] {
    const t = this.topology;
    if (this.numaFirst) return this.sortIds(this.freeNumaIds(), (n) => t.cpuListOfNuma(n));
    return this.sortSockets().flatMap((socket) =>
      this.sortIds(this.#attributeOfFree(t.cpuListOfSocket(socket), "numa"), (n) =>
        t.cpuListOfNuma(n),
      ),
    );
  }

  sortSockets(): number[] {
    const t = this.topology;
    if (!this.numaFirst) return this.sortIds(this.freeSocketIds(), (s) => t.cpuListOfSocket(s));
    return this.sortNumaNodes().flatMap((numa) =>
      this.sortIds(this.#attributeOfFree(t.cpuListOfNuma(numa), "socket"), (s) =>
        t.cpuListOfSocket(s),
      ),
    );
  }

  sortCores(): number[] {
    const t = this.topology;
    const coresOf = (cpus: readonly number[]): number[] =>
      this.sortIds(this.#attributeOfFree(cpus, "core"), (c) => t.cpuListOfCore(c));
    if (this.numaFirst) return this.sortSockets().flatMap((s) => coresOf(t.cpuListOfSocket(s)));
    return this.sortNumaNodes().flatMap((n) => coresOf(t.cpuListOfNuma(n)));
  }

  /** Uncore caches NUMA node by NUMA node; an uncore's count covers the whole cache. */
  sortUncoreCaches(): number[] {
    const t = this.topology;
    return this.sortNumaNodes().flatMap((numa) =>
      this.sortIds(this.#attributeOfFree(t.cpuListOfNuma(numa), "uncore"), (u) =>
        t.cpuListOfUncore(u),
      ),
    );
  }

  /** Free CPUs core by core in `sortCores` order, ascending inside a core. */
  sortCpusPacked(): number[] {
    const t = this.topology;
    return this.sortCores().flatMap((core) => this.freeOf(t.cpuListOfCore(core)));
  }

  /** Free CPUs socket by socket in `sortSockets` order, ascending inside a socket. */
  sortCpusSpread(): number[] {
    const t = this.topology;
    return this.sortSockets().flatMap((socket) => this.freeOf(t.cpuListOfSocket(socket)));
  }

  #whole(list: readonly number[]): boolean {
    return list.length > 0 && this.freeCount(list) === list.length;
  }

  freeNumaNodes(): number[] {
    return this.sortNumaNodes().filter((n) => this.#whole(this.topology.cpuListOfNuma(n)));
  }
  freeSockets(): number[] {
    return this.sortSockets().filter((s) => this.#whole(this.topology.cpuListOfSocket(s)));
  }
  freeCores(): number[] {
    return this.sortCores().filter((c) => this.#whole(this.topology.cpuListOfCore(c)));
  }
  freeUncoreCaches(): number[] {
    return this.sortUncoreCaches().filter((u) => this.#whole(this.topology.cpuListOfUncore(u)));
  }
}
