/**
 * Kueue's flavor assignment (pkg/scheduler/flavorassigner) without preemption: for each PodSet
 * and each resource group covering its requests, the first flavor (in the ClusterQueue's order)
 * whose taints the pods tolerate, whose node labels match the pods' node selector and required
 * node affinity, and whose quota fits the request; with `whenCanBorrow: TryNextFlavor` a flavor
 * that fits only by borrowing is kept as a fallback while later flavors are tried. Messages are
 * Kueue's.
 */
import {
  type ClusterQueue,
  compileNodeSelectorTerm,
  type KueueWorkload,
  type NodeSelectorTerm,
  type Pod,
  type PodSetAssignment,
  type PodSpec,
  podRequests,
  type ResourceFlavor,
  tolerationsTolerateTaint,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type FlavorResourceAmounts,
  formatAmount,
  frKey,
  type QuotaNode,
  type QuotaTree,
} from "../cache/quota.ts";

export type AssignmentResult =
  | {
      readonly kind: "fit";
      readonly podSetAssignments: PodSetAssignment[];
      /** What admitting adds to the ClusterQueue's usage. */
      readonly usage: FlavorResourceAmounts;
      /** Whether some resource goes above the ClusterQueue's nominal quota. */
      readonly borrows: boolean;
    }
  | { readonly kind: "noFit"; readonly message: string };

/** The per-pod requests of a PodSet (millicores for cpu), as the pod would compute them. */
export function podSetRequests(
  podSet: DeepReadonly<KueueWorkload["spec"]["podSets"][number]>,
): Map<string, number> {
  const pod = { metadata: {}, spec: podSet.template.spec } as unknown as DeepReadonly<Pod>;
  return podRequests(pod);
}

type Flavor = DeepReadonly<ResourceFlavor>;

function untoleratedTaint(pod: DeepReadonly<PodSpec>, flavor: Flavor): string | undefined {
  const tolerations = [...(pod.tolerations ?? []), ...(flavor.spec?.tolerations ?? [])];
  for (const taint of flavor.spec?.nodeTaints ?? []) {
    if (taint.effect !== "NoSchedule" && taint.effect !== "NoExecute") continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) {
      return `${taint.key}=${taint.value ?? ""}:${taint.effect}`;
    }
  }
  return undefined;
}

/** Whether the pod's node selector and required affinity, on `keys` only, match the labels. */
function matchesFlavorLabels(
  pod: DeepReadonly<PodSpec>,
  labels: Readonly<Record<string, string>>,
  keys: ReadonlySet<string>,
): boolean {
  for (const [key, value] of Object.entries(pod.nodeSelector ?? {})) {
    if (keys.has(key) && labels[key] !== value) return false;
  }
  const terms =
    pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms === undefined || terms.length === 0) return true;
  const node = { metadata: { name: "", labels }, spec: {} };
  return terms.some((term) => {
    const restricted = {
      matchExpressions: (term.matchExpressions ?? []).filter((e) => keys.has(e.key)),
    } as DeepReadonly<NodeSelectorTerm>;
    if ((restricted.matchExpressions ?? []).length === 0) return true;
    return compileNodeSelectorTerm(restricted)?.(node as never) ?? false;
  });
}

interface FlavorChoice {
  readonly flavor: string;
  readonly borrows: boolean;
}

/**
 * Assigns flavors to every PodSet of `workload` in ClusterQueue `node` of `tree`, counting what
 * earlier PodSets of the same workload already take. Pure: the tree is not changed.
 */
export function assignFlavors(
  workload: DeepReadonly<KueueWorkload>,
  cq: DeepReadonly<ClusterQueue>,
  flavors: ReadonlyMap<string, Flavor>,
  tree: QuotaTree,
  node: QuotaNode,
): AssignmentResult {
  const groups = cq.spec.resourceGroups ?? [];
  const covers = (resource: string): boolean =>
    groups.some((g) => g.coveredResources.includes(resource));
  const taken: FlavorResourceAmounts = new Map();
  const assignments: PodSetAssignment[] = [];
  const failures: string[] = [];
  let borrows = false;
  const reclaimable = new Map(
    (workload.status?.reclaimablePods ?? []).map((r) => [r.name, r.count]),
  );
  for (const podSet of workload.spec.podSets) {
    const count = Math.max(0, podSet.count - (reclaimable.get(podSet.name) ?? 0));
    const perPod = podSetRequests(podSet);
    const total = new Map<string, number>();
    for (const [resource, amount] of perPod) total.set(resource, amount * count);
    if (covers("pods")) total.set("pods", count);
    const reasons: string[] = [];
    const chosen: Record<string, string> = {};
    const usageHere: FlavorResourceAmounts = new Map();
    for (const resource of total.keys()) {
      if (!covers(resource)) reasons.push(`resource ${resource} unavailable in ClusterQueue`);
    }
    for (const group of groups) {
      const requested = group.coveredResources.filter((r) => total.has(r));
      if (requested.length === 0) continue;
      const labelKeys = new Set<string>();
      for (const f of group.flavors) {
        for (const key of Object.keys(flavors.get(f.name)?.spec?.nodeLabels ?? {}))
          labelKeys.add(key);
      }
      let fallback: FlavorChoice | undefined;
      let choice: FlavorChoice | undefined;
      const groupReasons: string[] = [];
      for (const f of group.flavors) {
        const flavor = flavors.get(f.name);
        if (flavor === undefined) {
          groupReasons.push(`flavor ${f.name} not found`);
          continue;
        }
        const spec = podSet.template.spec ?? { containers: [] };
        const taint = untoleratedTaint(spec, flavor);
        if (taint !== undefined) {
          groupReasons.push(`untolerated taint ${taint} in flavor ${f.name}`);
          continue;
        }
        if (!matchesFlavorLabels(spec, flavor.spec?.nodeLabels ?? {}, labelKeys)) {
          groupReasons.push(`flavor ${f.name} doesn't match node affinity`);
          continue;
        }
        let fits = true;
        let flavorBorrows = false;
        for (const resource of requested) {
          const key = frKey(f.name, resource);
          const value = (total.get(resource) ?? 0) + (taken.get(key) ?? 0);
          const max = tree.potentialAvailable(node, key);
          const available = tree.available(node, key);
          if (value > max) {
            groupReasons.push(
              `insufficient quota for ${resource} in flavor ${f.name}, request > maximum capacity (${formatAmount(resource, value)} > ${formatAmount(resource, max)})`,
            );
            fits = false;
          } else if (value > available) {
            groupReasons.push(
              `insufficient unused quota for ${resource} in flavor ${f.name}, ${formatAmount(resource, value - available)} more needed`,
            );
            fits = false;
          } else if ((node.usage.get(key) ?? 0) + value > (node.nominal.get(key) ?? 0)) {
            flavorBorrows = true;
          }
        }
        if (!fits) continue;
        if (!flavorBorrows || (cq.spec.flavorFungibility?.whenCanBorrow ?? "Borrow") === "Borrow") {
          choice = { flavor: f.name, borrows: flavorBorrows };
          break;
        }
        fallback ??= { flavor: f.name, borrows: true };
      }
      choice ??= fallback;
      if (choice === undefined) {
        reasons.push(...groupReasons);
        continue;
      }
      borrows ||= choice.borrows;
      for (const resource of requested) {
        chosen[resource] = choice.flavor;
        const key = frKey(choice.flavor, resource);
        usageHere.set(key, (usageHere.get(key) ?? 0) + (total.get(resource) ?? 0));
      }
    }
    if (reasons.length > 0) {
      failures.push(
        `couldn't assign flavors to pod set ${podSet.name}: ${[...reasons].sort().join(", ")}`,
      );
      continue;
    }
    for (const [key, amount] of usageHere) taken.set(key, (taken.get(key) ?? 0) + amount);
    const resourceUsage: Record<string, string> = {};
    for (const [resource, amount] of total) {
      if (chosen[resource] !== undefined) resourceUsage[resource] = formatAmount(resource, amount);
    }
    assignments.push({ name: podSet.name, flavors: chosen, resourceUsage, count: podSet.count });
  }
  if (failures.length > 0) return { kind: "noFit", message: failures.join("; ") };
  return { kind: "fit", podSetAssignments: assignments, usage: taken, borrows };
}
