/**
 * The CPU accumulator of upstream's `cpu_assignment.go`: the CPUs still free for this request
 * (`details`), what was taken so far and how many are still needed, plus the orderings every
 * step walks. All orderings sort ids by their free CPUs ascending, ties by id ascending, so
 * partly used domains come first ("packing").
 */
import { CpuSet } from "../cpuset.ts";
import type { CpuTopology, DenseDomains, DomainAttribute } from "../topology/topology.ts";

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

type Attribute = DomainAttribute;
/** Ids below this sort as packed numbers (`free * idLimit + id`); others the slow way. */
const idLimit = 2 ** 21;

/** Free counts up to this sort by counting (one bucket per count); above it, by comparison. */
const countingSortLimit = 4096;

/** `ids` ordered by `free` ascending, stable (ties keep their order in `ids`). */
function countingSort(ids: readonly number[], free: Int32Array, most: number): number[] {
  const starts = new Int32Array(most + 2);
  for (let i = 0; i < free.length; i++) (starts[(free[i] as number) + 1] as number)++;
  for (let c = 1; c < starts.length; c++) (starts[c] as number) += starts[c - 1] as number;
  const sorted: number[] = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const c = free[i] as number;
    sorted[starts[c] as number] = ids[i] as number;
    (starts[c] as number)++;
  }
  return sorted;
}

/** A reused buffer of free counts, grown as needed (orderings never nest). */
let scratchBuffer = new Int32Array(256);

function scratch(size: number): Int32Array {
  if (scratchBuffer.length < size) scratchBuffer = new Int32Array(size * 2);
  return scratchBuffer;
}

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
  /** Free CPUs per domain (dense numbers), kept up to date as CPUs are taken. */
  readonly #freeIn: Readonly<Record<Attribute, Int32Array>>;
  readonly #dense: Readonly<Record<Attribute, DenseDomains>>;

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
    this.#dense = {
      numa: topology.dense("numa"),
      socket: topology.dense("socket"),
      core: topology.dense("core"),
      uncore: topology.dense("uncore"),
    };
    this.#freeIn = {
      numa: new Int32Array(this.#dense.numa.size),
      socket: new Int32Array(this.#dense.socket.size),
      core: new Int32Array(this.#dense.core.size),
      uncore: new Int32Array(this.#dense.uncore.size),
    };
    for (const cpu of topology.cpuList) {
      if (this.free.has(cpu)) this.#count(cpu, 1);
    }
  }

  #count(cpu: number, delta: number): void {
    const dense = this.#dense;
    const free = this.#freeIn;
    (free.numa[dense.numa.of[cpu] as number] as number) += delta;
    (free.socket[dense.socket.of[cpu] as number] as number) += delta;
    (free.core[dense.core.of[cpu] as number] as number) += delta;
    (free.uncore[dense.uncore.of[cpu] as number] as number) += delta;
  }

  /** Free CPUs of one whole domain (the same as `freeCount(cpuListOf…(id))`). */
  freeIn(attribute: Attribute, id: number): number {
    const dense = this.#dense[attribute];
    const n = dense.byId === undefined ? dense.index.get(id) : dense.byId[id];
    return n === undefined || n < 0 ? 0 : (this.#freeIn[attribute][n] ?? 0);
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
      if (!this.free.has(cpu)) continue;
      this.free.delete(cpu);
      this.#count(cpu, -1);
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

  /**
   * `ids` by the free CPUs of their whole domain ascending, then id ascending (upstream
   * `cpuAccumulator.sort`).
   */
  sortIds(ids: readonly number[], attribute: Attribute): number[] {
    const n = ids.length;
    const free = new Int32Array(n);
    let ascending = true;
    let most = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i] as number;
      const count = this.freeIn(attribute, id);
      free[i] = count;
      if (count > most) most = count;
      if (i > 0 && id <= (ids[i - 1] as number)) ascending = false;
    }
    // Ids that come ascending (the topology's domain lists) need only a stable counting sort
    // by free CPUs: ties keep their id order. Free counts are small (threads per core, CPUs
    // per cache or socket), so this is one pass with no comparisons.
    if (ascending && most <= countingSortLimit) return countingSort(ids, free, most);
    return this.#sortByKeys(ids, free, attribute);
  }

  #sortByKeys(ids: readonly number[], free: Int32Array, attribute: Attribute): number[] {
    // One number per id, free CPUs in the high part: a typed-array sort without a comparator.
    const keys = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (id < 0 || id >= idLimit) return this.#sortIdsSlowly(ids, attribute);
      keys[i] = (free[i] as number) * idLimit + id;
    }
    keys.sort();
    const sorted: number[] = new Array(ids.length);
    for (let i = 0; i < keys.length; i++) sorted[i] = (keys[i] as number) % idLimit;
    return sorted;
  }

  #sortIdsSlowly(ids: readonly number[], attribute: Attribute): number[] {
    const keyed = ids.map((id) => ({ id, free: this.freeIn(attribute, id) }));
    keyed.sort((a, b) => a.free - b.free || a.id - b.id);
    return keyed.map((k) => k.id);
  }

  /** The distinct `attribute` ids of the free CPUs among `cpus`, in first-seen order. */
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

  /**
   * Appends to `out` the `attribute` domains with free CPUs among `cpus`, ordered as `sortIds`
   * orders them. When `cpus` holds whole domains (the topology's own lists), their ids come
   * ascending from the topology and a stable counting sort by free CPUs is the whole job, done
   * on this attribute's arrays without a lookup per id or an intermediate array: every
   * allocation orders all cores this way, twice.
   */
  #appendSorted(out: number[], cpus: readonly number[], attribute: Attribute): void {
    const domains = this.topology.domainsIn(cpus, attribute);
    const dense = this.#dense[attribute];
    const byId = dense.byId;
    if (!domains.contained || byId === undefined) {
      for (const id of this.sortIds(this.#attributeOfFree(cpus, attribute), attribute)) {
        out.push(id);
      }
      return;
    }
    const ids = domains.ids;
    const counts = this.#freeIn[attribute];
    const free = scratch(ids.length);
    let most = 0;
    for (let i = 0; i < ids.length; i++) {
      const n = byId[ids[i] as number] as number;
      const count = n < 0 ? 0 : (counts[n] as number);
      free[i] = count;
      if (count > most) most = count;
    }
    if (most === 0) return;
    if (most * ids.length > countingSortLimit) {
      const kept = ids.filter((_, i) => (free[i] as number) > 0);
      for (const id of this.sortIds(kept, attribute)) out.push(id);
      return;
    }
    // One pass per free count, ascending: stable, so ties keep ascending ids. Counts are small
    // (CPUs of one domain) and so are the lists (domains of one group): no sort is cheaper.
    for (let count = 1; count <= most; count++) {
      for (let i = 0; i < ids.length; i++) if (free[i] === count) out.push(ids[i] as number);
    }
  }

  /** The `attribute` domains with free CPUs inside each of `groups` (of `groupAttribute`). */
  #sortedWithin(
    groups: readonly number[],
    groupAttribute: Attribute,
    attribute: Attribute,
  ): number[] {
    const out: number[] = [];
    for (const group of groups) {
      this.#appendSorted(out, this.topology.cpuListOf(groupAttribute, group), attribute);
    }
    return out;
  }

  /** NUMA nodes / sockets with free CPUs. */
  freeNumaIds(): number[] {
    return this.#attributeOfFree(this.topology.cpuList, "numa");
  }
  freeSocketIds(): number[] {
    return this.#attributeOfFree(this.topology.cpuList, "socket");
  }

  sortNumaNodes(): number[] {
    if (!this.numaFirst) return this.#sortedWithin(this.sortSockets(), "socket", "numa");
    const out: number[] = [];
    this.#appendSorted(out, this.topology.cpuList, "numa");
    return out;
  }

  sortSockets(): number[] {
    if (this.numaFirst) return this.#sortedWithin(this.sortNumaNodes(), "numa", "socket");
    const out: number[] = [];
    this.#appendSorted(out, this.topology.cpuList, "socket");
    return out;
  }

  sortCores(): number[] {
    if (this.numaFirst) return this.#sortedWithin(this.sortSockets(), "socket", "core");
    return this.#sortedWithin(this.sortNumaNodes(), "numa", "core");
  }

  /** Uncore caches NUMA node by NUMA node; an uncore's count covers the whole cache. */
  sortUncoreCaches(): number[] {
    return this.#sortedWithin(this.sortNumaNodes(), "numa", "uncore");
  }

  /** Free CPUs core by core in `sortCores` order, ascending inside a core. */
  sortCpusPacked(): number[] {
    const t = this.topology;
    const cpus: number[] = [];
    for (const core of this.sortCores()) {
      for (const cpu of t.cpuListOfCore(core)) if (this.free.has(cpu)) cpus.push(cpu);
    }
    return cpus;
  }

  /** Free CPUs socket by socket in `sortSockets` order, ascending inside a socket. */
  sortCpusSpread(): number[] {
    const t = this.topology;
    return this.sortSockets().flatMap((socket) => this.freeOf(t.cpuListOfSocket(socket)));
  }

  #whole(attribute: Attribute, id: number): boolean {
    const size = this.topology.cpuListOf(attribute, id).length;
    return size > 0 && this.freeIn(attribute, id) === size;
  }

  freeNumaNodes(): number[] {
    return this.sortNumaNodes().filter((n) => this.#whole("numa", n));
  }
  freeSockets(): number[] {
    return this.sortSockets().filter((s) => this.#whole("socket", s));
  }
  freeCores(): number[] {
    return this.sortCores().filter((c) => this.#whole("core", c));
  }
  freeUncoreCaches(): number[] {
    return this.sortUncoreCaches().filter((u) => this.#whole("uncore", u));
  }
}
