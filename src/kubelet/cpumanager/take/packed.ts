/**
 * `takeByTopologyNumaPacked`: upstream's default allocator. Whole NUMA nodes and sockets first
 * (the larger domain first), then, with `prefer-align-cpus-by-uncorecache`, whole and partial
 * uncore (L3) caches, then whole cores (not with the spread strategy), then single CPUs.
 */
import type { CpuSet } from "../cpuset.ts";
import type { CpuTopology } from "../topology/topology.ts";
import { Accumulator, type CpuSortingStrategy, type TakeStep } from "./accumulator.ts";

/** A take: the CPUs, or upstream's error message. */
export type TakeResult =
  | { readonly ok: true; readonly cpus: CpuSet }
  | { readonly ok: false; readonly message: string };

export function notEnoughCpus(requested: number, available: number): TakeResult {
  return {
    ok: false,
    message: `not enough cpus available to satisfy request: requested=${requested}, available=${available}`,
  };
}

function takeFullNumaNodes(acc: Accumulator): void {
  // Nothing to take when even the smallest one is too big (skips ordering them all).
  if (!acc.needsAtLeast(acc.topology.smallestDomain("numa"))) return;
  for (const numa of acc.freeNumaNodes()) {
    const cpus = acc.topology.cpuListOfNuma(numa);
    if (!acc.needsAtLeast(cpus.length)) continue;
    acc.take(cpus, () => ({
      kind: "numa-node",
      id: numa,
      why: `needs ${acc.need} ≥ its ${cpus.length} CPUs, all free`,
    }));
  }
}

function takeFullSockets(acc: Accumulator): void {
  // Nothing to take when even the smallest one is too big (skips ordering them all).
  if (!acc.needsAtLeast(acc.topology.smallestDomain("socket"))) return;
  for (const socket of acc.freeSockets()) {
    const cpus = acc.topology.cpuListOfSocket(socket);
    if (!acc.needsAtLeast(cpus.length)) continue;
    acc.take(cpus, () => ({
      kind: "socket",
      id: socket,
      why: `needs ${acc.need} ≥ its ${cpus.length} CPUs, all free`,
    }));
  }
}

function takeFullUncoreCaches(acc: Accumulator): void {
  // Nothing to take when even the smallest one is too big (skips ordering them all).
  if (!acc.needsAtLeast(acc.topology.smallestDomain("uncore"))) return;
  for (const uncore of acc.freeUncoreCaches()) {
    const cpus = acc.topology.cpuListOfUncore(uncore);
    if (!acc.needsAtLeast(cpus.length)) continue;
    acc.take(cpus, () => ({
      kind: "uncore-cache",
      id: uncore,
      why: `needs ${acc.need} ≥ its ${cpus.length} CPUs, all free`,
    }));
  }
}

/** The lowest `count` core ids with a free CPU in `uncore` (upstream `CoresNeededInUncoreCache`). */
function coresNeededInUncoreCache(acc: Accumulator, count: number, uncore: number): number[] {
  const cores = new Set<number>();
  for (const cpu of acc.topology.cpuListOfUncore(uncore)) {
    if (!acc.free.has(cpu)) continue;
    const info = acc.topology.details.get(cpu);
    if (info !== undefined) cores.add(info.core);
  }
  return [...cores].sort((a, b) => a - b).slice(0, Math.max(0, count));
}

function takePartialUncoreCache(acc: Accumulator, uncore: number): void {
  const perCore = acc.topology.cpusPerCore();
  const need = acc.need;
  const cores = coresNeededInUncoreCache(acc, Math.ceil(need / perCore), uncore);
  let cpus = cores
    .flatMap((core) => acc.freeOf(acc.topology.cpuListOfCore(core)))
    .sort((a, b) => a - b);
  // An odd request on SMT takes whole cores and gives back the highest CPU of them.
  if (need % 2 !== 0 && perCore > 1 && cpus.length > need) cpus = cpus.slice(0, cpus.length - 1);
  if (cpus.length !== need) return;
  acc.take(cpus, () => ({
    kind: "partial-uncore-cache",
    id: uncore,
    why: `the lowest ${cores.length} core(s) with free CPUs in it hold exactly the ${need} CPUs needed`,
  }));
}

/** KEP-4800's step: visit uncore caches in packing order (computed once). */
function takeUncoreCaches(acc: Accumulator): void {
  for (const uncore of acc.sortUncoreCaches()) {
    if (acc.needsAtLeast(acc.topology.cpuListOfUncore(uncore).length)) takeFullUncoreCaches(acc);
    if (acc.isSatisfied()) return;
    takePartialUncoreCache(acc, uncore);
    if (acc.isSatisfied()) return;
  }
}

function takeFullCores(acc: Accumulator): void {
  // Nothing to take when even the smallest one is too big (skips ordering them all).
  if (!acc.needsAtLeast(acc.topology.smallestDomain("core"))) return;
  for (const core of acc.freeCores()) {
    const cpus = acc.topology.cpuListOfCore(core);
    if (!acc.needsAtLeast(cpus.length)) continue;
    acc.take(cpus, () => ({ kind: "core", id: core, why: "a whole free core" }));
  }
}

function takeRemainingCpus(acc: Accumulator, strategy: CpuSortingStrategy): void {
  const order = strategy === "packed" ? acc.sortCpusPacked() : acc.sortCpusSpread();
  for (const cpu of order) {
    acc.take([cpu], () => ({
      kind: "cpu",
      id: cpu,
      why: strategy === "packed" ? "next CPU in packed order" : "next CPU in spread order",
    }));
    if (acc.isSatisfied()) return;
  }
}

/**
 * Upstream's `takeByTopologyNUMAPacked(topo, available, n, strategy, preferAlignByUncoreCache)`.
 * `trace` collects the decisions when given.
 */
export function takeByTopologyNumaPacked(
  topology: CpuTopology,
  available: CpuSet,
  count: number,
  strategy: CpuSortingStrategy,
  preferAlignByUncoreCache: boolean,
  trace?: TakeStep[],
): TakeResult {
  const acc = new Accumulator(topology, available, count, trace);
  const done = (): TakeResult => ({ ok: true, cpus: acc.resultSet() });
  if (acc.isSatisfied()) return done();
  if (acc.isFailed()) return notEnoughCpus(count, available.size);

  if (acc.numaFirst) {
    takeFullNumaNodes(acc);
    if (acc.isSatisfied()) return done();
    takeFullSockets(acc);
  } else {
    takeFullSockets(acc);
    if (acc.isSatisfied()) return done();
    takeFullNumaNodes(acc);
  }
  if (acc.isSatisfied()) return done();

  if (preferAlignByUncoreCache) {
    takeUncoreCaches(acc);
    if (acc.isSatisfied()) return done();
  }

  if (strategy !== "spread") {
    takeFullCores(acc);
    if (acc.isSatisfied()) return done();
  }

  takeRemainingCpus(acc, strategy);
  if (acc.isSatisfied()) return done();
  return { ok: false, message: "failed to allocate cpus" };
}
