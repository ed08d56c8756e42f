/**
 * `takeByTopologyNumaDistributed`: upstream's allocator for `distribute-cpus-across-numa`
 * (KEP-2902). It looks for the smallest set of NUMA nodes over which the request splits evenly
 * in groups of `groupSize` CPUs, scoring candidates by the standard deviation of the free CPUs
 * each NUMA node would keep ("balance"), and falls back to the packed allocator.
 */
import type { CpuSet } from "../cpuset.ts";
import type { CpuTopology } from "../topology/topology.ts";
import { Accumulator, type CpuSortingStrategy, type TakeStep } from "./accumulator.ts";
import { type GoSlice, goValues, iterateCombinations } from "./go-slice.ts";
import { notEnoughCpus, type TakeResult, takeByTopologyNumaPacked } from "./packed.ts";

/** Go's `math.Round(x*1000)/1000` (half away from zero). */
function round3(x: number): number {
  const scaled = x * 1000;
  const rounded = scaled < 0 ? -Math.round(-scaled) : Math.round(scaled);
  // Math.round rounds .5 up; for positive values that is away from zero, as Go does.
  return rounded / 1000;
}

/** Upstream's balance score: population standard deviation, mean and result to 3 decimals. */
export function balanceScore(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = round3(sum / values.length);
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return round3(Math.sqrt(squares / values.length));
}

const ceilDiv = (a: number, b: number): number => Math.floor((a - 1) / b) + 1;

/**
 * Upstream's `takeByTopologyNUMADistributed(topo, available, n, groupSize, strategy,
 * alignBySocket)`. `alignBySocket` is the newest upstream's extension (the kubelet's releases
 * call it without); `trace` collects the decisions when given.
 */
export function takeByTopologyNumaDistributed(
  topology: CpuTopology,
  available: CpuSet,
  count: number,
  groupSize: number,
  strategy: CpuSortingStrategy,
  alignBySocket = false,
  trace?: TakeStep[],
): TakeResult {
  if (count % groupSize !== 0) {
    return takeByTopologyNumaPacked(topology, available, count, strategy, false, trace);
  }
  const acc = new Accumulator(topology, available, count, trace);
  if (acc.isSatisfied()) return { ok: true, cpus: acc.resultSet() };
  if (acc.isFailed()) return notEnoughCpus(count, available.size);

  const numas = acc.sortNumaNodes();
  const freeIn = (numa: number): number => acc.freeIn("numa", numa);
  const groupsIn = (numa: number): number => Math.floor(freeIn(numa) / groupSize) * groupSize;

  const totalGroups = ceilDiv(topology.numCpus, groupSize);
  const groupsPerNuma = ceilDiv(totalGroups, topology.numNumaNodes);
  const groupsNeeded = ceilDiv(acc.need, groupSize);
  const minNumas = ceilDiv(groupsNeeded, groupsPerNuma);
  const maxNumas = Math.min(groupsNeeded, acc.freeNumaIds().length);

  for (let k = minNumas; k <= maxNumas; k++) {
    let bestBalance = Number.MAX_VALUE;
    let bestRemainder: GoSlice | undefined;
    let bestCombo: GoSlice | undefined;
    let bestInOneSocket = false;
    iterateCombinations(numas, k, (comboSlice) => {
      if (bestBalance === 0 && (!alignBySocket || bestInOneSocket)) return true;
      const combo = goValues(comboSlice);
      if (combo.reduce((s, n) => s + freeIn(n), 0) < count) return false;
      if (combo.reduce((s, n) => s + groupsIn(n), 0) < count) return false;
      let distribution = Math.floor(count / combo.length / groupSize) * groupSize;
      if (alignBySocket) distribution = Math.min(distribution, ...combo.map(groupsIn));
      if (combo.some((n) => freeIn(n) < distribution)) return false;

      const after = new Map<number, number>(numas.map((n) => [n, freeIn(n)]));
      for (const n of combo) after.set(n, (after.get(n) ?? 0) - distribution);
      const remainder = count - distribution * combo.length;
      const candidates = combo.filter((n) => (after.get(n) ?? 0) >= groupSize);

      let bestLocalBalance = Number.MAX_VALUE;
      let bestLocalRemainder: GoSlice | undefined;
      if (remainder === 0) bestLocalBalance = balanceScore([...after.values()]);
      for (let j = candidates.length; remainder > 0 && j >= 1; j--) {
        iterateCombinations(candidates, j, (subsetSlice) => {
          const subset = goValues(subsetSlice);
          if (subset.reduce((s, n) => s + (after.get(n) ?? 0), 0) < remainder) return false;
          const trial = new Map(after);
          let left = remainder;
          while (left > 0) {
            for (const n of subset) {
              if (left === 0) break;
              if ((trial.get(n) ?? 0) < groupSize) continue;
              trial.set(n, (trial.get(n) ?? 0) - groupSize);
              left -= groupSize;
            }
          }
          const balance = balanceScore([...trial.values()]);
          if (balance < bestLocalBalance) {
            bestLocalBalance = balance;
            bestLocalRemainder = subsetSlice;
          }
          return false;
        });
      }

      const inOneSocket = alignBySocket && topology.areNumaNodesInSameSocket(combo);
      let better = bestLocalBalance < bestBalance;
      if (alignBySocket && inOneSocket !== bestInOneSocket) better = inOneSocket;
      if (better) {
        bestBalance = bestLocalBalance;
        bestRemainder = bestLocalRemainder;
        bestCombo = comboSlice;
        if (alignBySocket) bestInOneSocket = inOneSocket;
      }
      return false;
    });

    if (bestCombo === undefined) continue;
    const chosen = goValues(bestCombo);
    let distribution = Math.floor(count / chosen.length / groupSize) * groupSize;
    distribution = Math.min(distribution, ...chosen.map(groupsIn));
    for (const numa of chosen) {
      const taken = takeByTopologyNumaPacked(
        topology,
        topology.cpusInNumaNodes(numa).filter((c) => acc.free.has(c)),
        distribution,
        strategy,
        false,
      );
      if (taken.ok) {
        acc.take(taken.cpus.toArray(), () => ({
          kind: "distribute",
          id: numa,
          why: `an even share of ${distribution} CPUs across NUMA nodes ${chosen.join(",")} (balance ${bestBalance})`,
        }));
      }
    }
    const extra = bestRemainder === undefined ? [] : goValues(bestRemainder);
    let remainder = count - distribution * chosen.length;
    while (remainder > 0) {
      const before = remainder;
      for (const numa of extra) {
        if (remainder === 0) break;
        const free = topology.cpusInNumaNodes(numa).filter((c) => acc.free.has(c));
        if (free.size < groupSize) continue;
        const taken = takeByTopologyNumaPacked(topology, free, groupSize, strategy, false);
        if (taken.ok) {
          acc.take(taken.cpus.toArray(), () => ({
            kind: "distribute",
            id: numa,
            why: `a remainder group of ${groupSize} CPU(s) on the NUMA nodes that keep the balance best`,
          }));
        }
        remainder -= groupSize;
      }
      // Upstream would loop forever here; stop and report the shortfall instead.
      if (remainder === before) break;
    }
    if (acc.need > 0) {
      return {
        ok: false,
        message: `accounting error, not enough CPUs allocated, remaining: ${acc.need}`,
      };
    }
    if (acc.need < 0) {
      return {
        ok: false,
        message: `accounting error, too many CPUs allocated, remaining: ${acc.need}`,
      };
    }
    return { ok: true, cpus: acc.resultSet() };
  }
  return takeByTopologyNumaPacked(topology, available, count, strategy, false, trace);
}
