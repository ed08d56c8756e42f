/**
 * The static policy's `takeByTopology` dispatcher: the distributed allocator for
 * `distribute-cpus-across-numa` (in groups of a whole core with `full-pcpus-only`), otherwise the
 * packed allocator, with the uncore step for `prefer-align-cpus-by-uncorecache` and the spread
 * CPU order for `distribute-cpus-across-cores`. Pure.
 */
import type { CpuSet } from "./cpuset.ts";
import type { StaticPolicyOptions } from "./policy-options.ts";
import type { TakeStep } from "./take/accumulator.ts";
import { takeByTopologyNumaDistributed } from "./take/distributed.ts";
import { type TakeResult, takeByTopologyNumaPacked } from "./take/packed.ts";
import type { CpuTopology } from "./topology/topology.ts";

export function takeByTopology(
  topology: CpuTopology,
  options: StaticPolicyOptions,
  available: CpuSet,
  count: number,
  trace?: TakeStep[],
): TakeResult {
  const strategy = options.distributeCpusAcrossCores ? "spread" : "packed";
  if (options.distributeCpusAcrossNuma) {
    const groupSize = options.fullPhysicalCpusOnly ? topology.cpusPerCore() : 1;
    return takeByTopologyNumaDistributed(
      topology,
      available,
      count,
      groupSize,
      strategy,
      false,
      trace,
    );
  }
  return takeByTopologyNumaPacked(
    topology,
    available,
    count,
    strategy,
    options.preferAlignByUncoreCache,
    trace,
  );
}
