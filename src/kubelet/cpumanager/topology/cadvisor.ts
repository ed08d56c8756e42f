/**
 * cAdvisor's view of a machine's CPUs (github.com/google/cadvisor/info/v1 `Node`, `Core`,
 * `Cache`): what a kubelet serves at `/spec/` and what upstream's `topology.Discover` reads.
 * Field names are the wire names.
 */

/** One cache: `{"id": 0, "size": 32768, "type": "Data", "level": 1}` (size in bytes). */
export interface CadvisorCache {
  readonly id: number;
  readonly size: number;
  readonly type: "Data" | "Instruction" | "Unified";
  readonly level: number;
}

/** One physical core and its hardware threads (logical CPUs). */
export interface CadvisorCore {
  /** cAdvisor's per-socket core id (`topology/core_id`). */
  readonly core_id: number;
  readonly thread_ids: readonly number[];
  /** L1 and L2 caches private to the core. */
  readonly caches: readonly CadvisorCache[];
  /** L3 caches smaller or larger than the NUMA node (split L3: AMD CCX, Arm clusters). */
  readonly uncore_caches: readonly CadvisorCache[];
  readonly socket_id: number;
  readonly book_id?: string;
  readonly drawer_id?: string;
}

/** One NUMA node. */
export interface CadvisorNode {
  readonly node_id: number;
  /** Bytes of memory attached to this node. */
  readonly memory: number;
  readonly hugepages: readonly { readonly page_size: number; readonly num_pages: number }[];
  readonly cores: readonly CadvisorCore[];
  /** Caches shared by exactly the node's CPUs (an L3 that spans the whole NUMA node). */
  readonly caches: readonly CadvisorCache[];
  readonly distances: readonly number[];
}
