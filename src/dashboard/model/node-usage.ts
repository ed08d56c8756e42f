/**
 * The Cluster view's rows: per node, what it can hold (`status.allocatable`) against what its
 * pods ask for (the scheduler's sum of `podRequests` over the pods bound to it that are not
 * finished), its Ready condition and whether it is cordoned.
 */
import {
  isPodTerminal,
  type Node,
  type Pod,
  podRequests,
  resourceListAmounts,
} from "../../api/index.ts";

export interface ResourceUsage {
  readonly resource: string;
  readonly requested: number;
  readonly allocatable: number;
}

export interface NodeRow {
  readonly name: string;
  /** "True", "False" or "Unknown" (no Ready condition yet counts as Unknown). */
  readonly ready: string;
  readonly cordoned: boolean;
  readonly podCount: number;
  readonly cpu: ResourceUsage;
  readonly memory: ResourceUsage;
  readonly pods: ResourceUsage;
  /** Extended resources (e.g. nvidia.com/gpu) the node offers or its pods request. */
  readonly extended: readonly ResourceUsage[];
}

export interface ClusterSummary {
  readonly nodes: number;
  readonly notReady: number;
  readonly cordoned: number;
  readonly cpu: ResourceUsage;
  readonly memory: ResourceUsage;
  readonly pods: number;
}

const standard = new Set(["cpu", "memory", "pods", "ephemeral-storage"]);

function isExtended(resource: string): boolean {
  return !standard.has(resource) && !resource.startsWith("hugepages-");
}

/** What a pod requests and a node offers, as amounts; a caller may remember them per object. */
export interface AmountsOf {
  readonly podRequests: (pod: Pod) => ReadonlyMap<string, number>;
  readonly allocatable: (node: Node) => ReadonlyMap<string, number>;
}

const computeAmounts: AmountsOf = {
  podRequests: (pod) => podRequests(pod),
  allocatable: (node) => resourceListAmounts(node.status?.allocatable),
};

/**
 * `nodeRows` that remembers each pod's requests and node's allocatable by object, so that after
 * one watch event only the changed object is parsed again (store objects are never mutated: a
 * change is a new object), and returns the last result while both lists are the same arrays.
 */
export function newNodeRowsMemo(): (
  nodes: readonly Node[],
  pods: readonly Pod[],
) => { rows: NodeRow[]; summary: ClusterSummary } {
  const requests = new WeakMap<Pod, ReadonlyMap<string, number>>();
  const allocatable = new WeakMap<Node, ReadonlyMap<string, number>>();
  const amounts: AmountsOf = {
    podRequests: (pod) => remember(requests, pod, computeAmounts.podRequests),
    allocatable: (node) => remember(allocatable, node, computeAmounts.allocatable),
  };
  let last:
    | { nodes: readonly Node[]; pods: readonly Pod[]; result: ReturnType<typeof nodeRows> }
    | undefined;
  return (nodes, pods) => {
    if (last?.nodes !== nodes || last.pods !== pods) {
      last = { nodes, pods, result: nodeRows(nodes, pods, amounts) };
    }
    return last.result;
  };
}

function remember<K extends object, V>(cache: WeakMap<K, V>, key: K, compute: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = compute(key);
    cache.set(key, value);
  }
  return value;
}

/** Every node's row, in name order, and the totals. */
export function nodeRows(
  nodes: readonly Node[],
  pods: readonly Pod[],
  amounts: AmountsOf = computeAmounts,
): { rows: NodeRow[]; summary: ClusterSummary } {
  const requested = new Map<string, Map<string, number>>();
  const podCounts = new Map<string, number>();
  for (const pod of pods) {
    const node = pod.spec.nodeName;
    if (node === undefined || node === "" || isPodTerminal(pod)) continue;
    podCounts.set(node, (podCounts.get(node) ?? 0) + 1);
    const sums = requested.get(node) ?? new Map<string, number>();
    for (const [resource, amount] of amounts.podRequests(pod)) {
      sums.set(resource, (sums.get(resource) ?? 0) + amount);
    }
    requested.set(node, sums);
  }
  const rows = nodes
    .map((node): NodeRow => {
      const name = node.metadata.name ?? "";
      const allocatable = amounts.allocatable(node);
      const asked = requested.get(name) ?? new Map<string, number>();
      const podCount = podCounts.get(name) ?? 0;
      const usage = (resource: string, used = asked.get(resource) ?? 0): ResourceUsage => ({
        resource,
        requested: used,
        allocatable: allocatable.get(resource) ?? 0,
      });
      const extendedNames = new Set(
        [...allocatable.keys(), ...asked.keys()].filter((r) => isExtended(r)),
      );
      return {
        name,
        ready: node.status?.conditions?.find((c) => c.type === "Ready")?.status ?? "Unknown",
        cordoned: node.spec?.unschedulable === true,
        podCount,
        cpu: usage("cpu"),
        memory: usage("memory"),
        pods: usage("pods", podCount),
        extended: [...extendedNames].sort().map((r) => usage(r)),
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const total = (pick: (row: NodeRow) => ResourceUsage, resource: string): ResourceUsage => ({
    resource,
    requested: rows.reduce((sum, r) => sum + pick(r).requested, 0),
    allocatable: rows.reduce((sum, r) => sum + pick(r).allocatable, 0),
  });
  return {
    rows,
    summary: {
      nodes: rows.length,
      notReady: rows.filter((r) => r.ready !== "True").length,
      cordoned: rows.filter((r) => r.cordoned).length,
      cpu: total((r) => r.cpu, "cpu"),
      memory: total((r) => r.memory, "memory"),
      pods: rows.reduce((sum, r) => sum + r.podCount, 0),
    },
  };
}
