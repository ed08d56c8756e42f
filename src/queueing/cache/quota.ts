/**
 * Quota arithmetic of Kueue's cache (pkg/cache, resource_node.go) for ClusterQueues in flat
 * cohorts: nominal quota, borrowing and lending limits, usage, and what a ClusterQueue can
 * still use (`available`) or could ever use (`potentialAvailable`). Amounts are numbers: `cpu`
 * in millicores, every other resource in whole units. Keys are `flavor/resource`.
 */
import {
  type ClusterQueue,
  formatQuantity,
  type KueueWorkload,
  parseQuantity,
  quantityAmount,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** `flavor/resource` → amount. */
export type FlavorResourceAmounts = Map<string, number>;

export function frKey(flavor: string, resource: string): string {
  return `${flavor}/${resource}`;
}

/** One ClusterQueue's quotas and usage in a snapshot. Usage is mutable within a cycle. */
export interface QuotaNode {
  readonly name: string;
  readonly cohort: string | undefined;
  readonly nominal: ReadonlyMap<string, number>;
  readonly borrowingLimit: ReadonlyMap<string, number>;
  readonly lendingLimit: ReadonlyMap<string, number>;
  readonly usage: FlavorResourceAmounts;
}

/** The quotas of a ClusterQueue's spec, with no usage yet. */
export function quotaNodeOf(cq: DeepReadonly<ClusterQueue>): QuotaNode {
  const nominal = new Map<string, number>();
  const borrowingLimit = new Map<string, number>();
  const lendingLimit = new Map<string, number>();
  for (const group of cq.spec.resourceGroups ?? []) {
    for (const flavor of group.flavors) {
      for (const resource of flavor.resources) {
        const key = frKey(flavor.name, resource.name);
        nominal.set(key, quantityAmount(resource.name, String(resource.nominalQuota)));
        if (resource.borrowingLimit !== undefined) {
          borrowingLimit.set(key, quantityAmount(resource.name, String(resource.borrowingLimit)));
        }
        if (resource.lendingLimit !== undefined) {
          lendingLimit.set(key, quantityAmount(resource.name, String(resource.lendingLimit)));
        }
      }
    }
  }
  const cohort = cq.spec.cohort === undefined || cq.spec.cohort === "" ? undefined : cq.spec.cohort;
  return {
    name: cq.metadata.name ?? "",
    cohort,
    nominal,
    borrowingLimit,
    lendingLimit,
    usage: new Map(),
  };
}

/** The ClusterQueues of a snapshot by name, and the members of each cohort. */
export class QuotaTree {
  readonly nodes = new Map<string, QuotaNode>();
  readonly #cohorts = new Map<string, QuotaNode[]>();

  add(node: QuotaNode): void {
    this.nodes.set(node.name, node);
    if (node.cohort !== undefined) {
      const members = this.#cohorts.get(node.cohort) ?? [];
      members.push(node);
      this.#cohorts.set(node.cohort, members);
    }
  }

  /** The ClusterQueues of a cohort (empty for an unknown cohort). */
  members(cohort: string): readonly QuotaNode[] {
    return this.#cohorts.get(cohort) ?? [];
  }

  /** Capacity a ClusterQueue keeps for itself: nominal minus what it may lend. */
  static localQuota(node: QuotaNode, key: string): number {
    const lending = node.lendingLimit.get(key);
    return lending === undefined ? 0 : Math.max(0, (node.nominal.get(key) ?? 0) - lending);
  }

  #cohortSubtree(cohort: string, key: string): number {
    let total = 0;
    for (const member of this.#cohorts.get(cohort) ?? []) {
      total += (member.nominal.get(key) ?? 0) - QuotaTree.localQuota(member, key);
    }
    return total;
  }

  #cohortUsage(cohort: string, key: string): number {
    let total = 0;
    for (const member of this.#cohorts.get(cohort) ?? []) {
      total += Math.max(0, (member.usage.get(key) ?? 0) - QuotaTree.localQuota(member, key));
    }
    return total;
  }

  /** What the ClusterQueue can still take now (may be negative after over-admission). */
  available(node: QuotaNode, key: string): number {
    const nominal = node.nominal.get(key) ?? 0;
    const usage = node.usage.get(key) ?? 0;
    if (node.cohort === undefined) return nominal - usage;
    const local = QuotaTree.localQuota(node, key);
    const parent = this.#cohortSubtree(node.cohort, key) - this.#cohortUsage(node.cohort, key);
    const borrowing = node.borrowingLimit.get(key);
    const capped =
      borrowing === undefined
        ? parent
        : Math.min(parent, nominal - local - Math.max(0, usage - local) + borrowing);
    return Math.max(0, local - usage) + capped;
  }

  /** What the ClusterQueue could take with no usage anywhere. */
  potentialAvailable(node: QuotaNode, key: string): number {
    const nominal = node.nominal.get(key) ?? 0;
    if (node.cohort === undefined) return nominal;
    const borrowing = node.borrowingLimit.get(key);
    const viaCohort = QuotaTree.localQuota(node, key) + this.#cohortSubtree(node.cohort, key);
    return borrowing === undefined ? viaCohort : Math.min(nominal + borrowing, viaCohort);
  }

  /** Usage above nominal: what the ClusterQueue borrows. */
  static borrowed(node: QuotaNode, key: string): number {
    return Math.max(0, (node.usage.get(key) ?? 0) - (node.nominal.get(key) ?? 0));
  }
}

/** Resources Kueue prints as binary SI (`1Gi`). */
function isBinaryResource(resource: string): boolean {
  return (
    resource === "memory" || resource === "ephemeral-storage" || resource.startsWith("hugepages-")
  );
}

/** An amount as the canonical quantity Kueue prints: `1500m`, `1`, `1Gi`, `10`. */
export function formatAmount(resource: string, amount: number): string {
  if (resource === "cpu") {
    return formatQuantity({ unscaled: BigInt(Math.round(amount)), scale: -3, format: "DecimalSI" });
  }
  return formatQuantity({
    unscaled: BigInt(Math.round(amount)),
    scale: 0,
    format: isBinaryResource(resource) ? "BinarySI" : "DecimalSI",
  });
}

/** Parses a quantity of `resource` into an amount (millicores for cpu). */
export function amountOf(resource: string, quantity: string | number): number {
  parseQuantity(String(quantity));
  return quantityAmount(resource, String(quantity));
}

/**
 * What an admitted Workload uses per `flavor/resource`: each PodSet's per-pod requests times
 * its count minus its reclaimable pods, on the flavors of its assignment.
 */
export function workloadUsage(
  workload: DeepReadonly<KueueWorkload>,
  perPod: (podSet: string) => ReadonlyMap<string, number>,
): FlavorResourceAmounts {
  const usage: FlavorResourceAmounts = new Map();
  for (const assignment of workload.status?.admission?.podSetAssignments ?? []) {
    const podSet = workload.spec.podSets.find((p) => p.name === assignment.name);
    const count = assignment.count ?? podSet?.count ?? 0;
    const reclaimable =
      workload.status?.reclaimablePods?.find((r) => r.name === assignment.name)?.count ?? 0;
    const pods = Math.max(0, count - reclaimable);
    for (const [resource, flavor] of Object.entries(assignment.flavors ?? {})) {
      const amount =
        resource === "pods" ? pods : (perPod(assignment.name).get(resource) ?? 0) * pods;
      const key = frKey(flavor, resource);
      usage.set(key, (usage.get(key) ?? 0) + amount);
    }
  }
  return usage;
}
