/**
 * The CPU manager's kubelet metrics (upstream pkg/kubelet/metrics + the static policy's
 * `initializeMetrics`, `updateMetricsOnAllocate`, `updateMetricsOnRelease`), one set per node.
 * Names, help texts, labels and the moments they change are upstream's; the values live here
 * instead of in a process-wide registry because one process runs many kubelets.
 */
import type { MetricFamily } from "../internal/prometheus-text.ts";
import type { CpuSet } from "./cpuset.ts";
import type { CpuTopology } from "./topology/topology.ts";

/** The `scope` label of the alignment counters. */
export const alignScopeContainer = "container";
/** The `boundary` label values of the alignment counters. */
export const alignedPhysicalCpu = "physical_cpu";
export const alignedUncoreCache = "uncore_cache";

export const pinningRequestsTotal = "kubelet_cpu_manager_pinning_requests_total";
export const pinningErrorsTotal = "kubelet_cpu_manager_pinning_errors_total";
export const sharedPoolSizeMillicores = "kubelet_cpu_manager_shared_pool_size_millicores";
export const exclusiveCpuAllocationCount = "kubelet_cpu_manager_exclusive_cpu_allocation_count";
export const allocationPerNuma = "kubelet_cpu_manager_allocation_per_numa";
export const alignedComputeResourcesCount = "kubelet_container_aligned_compute_resources_count";
export const alignedComputeResourcesFailureCount =
  "kubelet_container_aligned_compute_resources_failure_count";

/**
 * Upstream's `isAlignedAtUncoreCache` (topology `CheckAlignment`): every CPU shares one uncore
 * cache. An empty set and a single CPU are aligned; an unknown CPU is not.
 */
export function isAlignedAtUncoreCache(topology: CpuTopology, cpus: CpuSet): boolean {
  let reference: number | undefined;
  for (const cpu of cpus) {
    const info = topology.details.get(cpu);
    if (info === undefined) return cpus.size <= 1;
    if (reference === undefined) reference = info.uncoreCache;
    else if (info.uncoreCache !== reference) return false;
  }
  return true;
}

function labelKey(scope: string, boundary: string): string {
  return `${scope}\u0000${boundary}`;
}

/** One node's CPU manager metrics. Mutated by the static policy; read by `/metrics`. */
export class CpuManagerMetrics {
  pinningRequests = 0;
  pinningErrors = 0;
  sharedPoolMillicores = 0;
  exclusiveCpus = 0;
  /** NUMA node → exclusive CPUs on it, as last set (upstream never resets a node to 0). */
  readonly #perNuma = new Map<number, number>();
  /** `scope\0boundary` → count. */
  readonly #aligned = new Map<string, number>();
  readonly #alignedFailures = new Map<string, number>();

  /** A counter of `container_aligned_compute_resources_count`; 0 when never touched. */
  aligned(boundary: string, scope = alignScopeContainer): number {
    return this.#aligned.get(labelKey(scope, boundary)) ?? 0;
  }

  alignedFailures(boundary: string, scope = alignScopeContainer): number {
    return this.#alignedFailures.get(labelKey(scope, boundary)) ?? 0;
  }

  addAligned(boundary: string, delta: number, scope = alignScopeContainer): void {
    const key = labelKey(scope, boundary);
    this.#aligned.set(key, (this.#aligned.get(key) ?? 0) + delta);
  }

  addAlignedFailure(boundary: string, delta: number, scope = alignScopeContainer): void {
    const key = labelKey(scope, boundary);
    this.#alignedFailures.set(key, (this.#alignedFailures.get(key) ?? 0) + delta);
  }

  /** NUMA node → CPUs, as `kubelet_cpu_manager_allocation_per_numa` reports it. */
  perNuma(): ReadonlyMap<number, number> {
    return this.#perNuma;
  }

  /**
   * Upstream's `updateAllocationPerNUMAMetric`: sets the gauge of every NUMA node holding some
   * of `assigned`. Nodes holding none keep their last value, as upstream.
   */
  updatePerNuma(topology: CpuTopology, assigned: CpuSet): void {
    const counts = new Map<number, number>();
    for (const cpu of assigned) {
      const numa = Math.max(topology.numaOf[cpu] ?? 0, 0);
      counts.set(numa, (counts.get(numa) ?? 0) + 1);
    }
    for (const [numa, count] of counts) this.#perNuma.set(numa, count);
  }

  /** Upstream's `initializeMetrics`, run when the static policy starts. */
  initialize(topology: CpuTopology, available: CpuSet, assigned: CpuSet): void {
    this.sharedPoolMillicores = available.size * 1000;
    this.addAlignedFailure(alignedPhysicalCpu, 0);
    this.addAligned(alignedPhysicalCpu, 0);
    this.addAligned(alignedUncoreCache, 0);
    this.exclusiveCpus = assigned.size;
    this.updatePerNuma(topology, assigned);
  }

  /** Upstream's `updateMetricsOnAllocate`, after a new exclusive allocation. */
  onAllocate(topology: CpuTopology, cpus: CpuSet, assigned: CpuSet): void {
    this.exclusiveCpus += cpus.size;
    this.sharedPoolMillicores -= cpus.size * 1000;
    if (isAlignedAtUncoreCache(topology, cpus)) this.addAligned(alignedUncoreCache, 1);
    this.updatePerNuma(topology, assigned);
  }

  /** Upstream's `updateMetricsOnRelease`, after CPUs went back to the shared pool. */
  onRelease(topology: CpuTopology, released: CpuSet, assigned: CpuSet): void {
    this.exclusiveCpus -= released.size;
    this.sharedPoolMillicores += released.size * 1000;
    this.updatePerNuma(topology, assigned.difference(released));
  }

  /** The families `/metrics` serves, with upstream's help texts. */
  families(): MetricFamily[] {
    const pairs = (values: ReadonlyMap<string, number>) =>
      [...values].map(([key, value]) => {
        const [scope = "", boundary = ""] = key.split("\u0000");
        return { labels: { boundary, scope }, value };
      });
    return [
      {
        name: pinningRequestsTotal,
        help: "The number of cpu core allocations which required pinning.",
        type: "counter",
        samples: [{ labels: {}, value: this.pinningRequests }],
      },
      {
        name: pinningErrorsTotal,
        help: "The number of cpu core allocations which required pinning failed.",
        type: "counter",
        samples: [{ labels: {}, value: this.pinningErrors }],
      },
      {
        name: sharedPoolSizeMillicores,
        help: "The size of the shared CPU pool for non-guaranteed QoS pods, in millicores.",
        type: "gauge",
        samples: [{ labels: {}, value: this.sharedPoolMillicores }],
      },
      {
        name: exclusiveCpuAllocationCount,
        help: "The total number of CPUs exclusively allocated to containers running on this node",
        type: "gauge",
        samples: [{ labels: {}, value: this.exclusiveCpus }],
      },
      {
        name: allocationPerNuma,
        help: "Number of CPUs allocated per NUMA node",
        type: "gauge",
        samples: [...this.#perNuma].map(([numa, value]) => ({
          labels: { numa_node: String(numa) },
          value,
        })),
      },
      {
        name: alignedComputeResourcesCount,
        help: "Cumulative number of aligned compute resources allocated to containers by alignment type.",
        type: "counter",
        samples: pairs(this.#aligned),
      },
      {
        name: alignedComputeResourcesFailureCount,
        help: "Cumulative number of failures to allocate aligned compute resources to containers by alignment type.",
        type: "counter",
        samples: pairs(this.#alignedFailures),
      },
    ];
  }
}

/** The families of a kubelet without a static CPU manager: registered, never set. */
export function idleCpuManagerFamilies(): MetricFamily[] {
  return new CpuManagerMetrics().families();
}
