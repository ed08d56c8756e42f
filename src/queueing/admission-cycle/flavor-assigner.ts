/**
 * Kueue's flavor assignment (pkg/scheduler/flavorassigner): for each PodSet and each resource
 * group covering its requests, a flavor (in the ClusterQueue's order) whose taints the pods
 * tolerate and whose node labels match the pods' node selector and required node affinity. Each
 * resource of a flavor is `fit` (the quota is free now), `preempt` (it would be free if admitted
 * workloads were evicted: the request is within the ClusterQueue's nominal quota, or
 * `borrowWithinCohort` allows preempting while borrowing) or `noFit`; the flavor's mode is the
 * worst of its resources. The search stops at a flavor as `flavorFungibility` says
 * (`whenCanBorrow`, `whenCanPreempt`), otherwise the best mode seen wins. Messages are Kueue's.
 */
import {
  type ClusterQueue,
  compileNodeSelectorTerm,
  type KueueWorkload,
  type NodeSelectorTerm,
  type PodSet,
  type PodSetAssignment,
  type PodSpec,
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
import { podSetRequests } from "../cache/requests.ts";

export { podSetRequests };

/** How a resource, a flavor, a PodSet or a Workload can get quota, worst first. */
export type AssignmentMode = "noFit" | "preempt" | "fit";

const modeRank: Readonly<Record<AssignmentMode, number>> = { noFit: 0, preempt: 1, fit: 2 };

function worse(a: AssignmentMode, b: AssignmentMode): AssignmentMode {
  return modeRank[a] <= modeRank[b] ? a : b;
}

export type AssignmentResult =
  | {
      readonly kind: "fit";
      readonly podSetAssignments: PodSetAssignment[];
      /** What admitting adds to the ClusterQueue's usage. */
      readonly usage: FlavorResourceAmounts;
      /** Whether some resource goes above the ClusterQueue's nominal quota. */
      readonly borrows: boolean;
    }
  | {
      /** Every PodSet has flavors, but some resource needs admitted workloads evicted first. */
      readonly kind: "preempt";
      readonly podSetAssignments: PodSetAssignment[];
      readonly usage: FlavorResourceAmounts;
      readonly borrows: boolean;
      /** The `flavor/resource` keys whose quota must be freed by preemption. */
      readonly needPreemption: ReadonlySet<string>;
      /** Why it does not fit now (the Workload's pending message). */
      readonly message: string;
    }
  | { readonly kind: "noFit"; readonly message: string };

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
  readonly mode: AssignmentMode;
  readonly borrows: boolean;
  /** Resources of the group whose mode is `preempt` in this flavor. */
  readonly preempting: readonly string[];
}

/** Kueue's `shouldTryNextFlavor`: whether a flavor of this mode is not good enough to stop at. */
function shouldTryNextFlavor(
  mode: AssignmentMode,
  borrows: boolean,
  fungibility: DeepReadonly<ClusterQueue["spec"]["flavorFungibility"]>,
): boolean {
  const whenCanBorrow = fungibility?.whenCanBorrow ?? "Borrow";
  const whenCanPreempt = fungibility?.whenCanPreempt ?? "TryNextFlavor";
  if (
    mode === "preempt" &&
    whenCanPreempt === "Preempt" &&
    (!borrows || whenCanBorrow === "Borrow")
  )
    return false;
  if (mode === "fit" && (!borrows || whenCanBorrow === "Borrow")) return false;
  return true;
}

/** Whether the ClusterQueue may preempt while it borrows (`borrowWithinCohort`). */
export function canPreemptWhileBorrowing(cq: DeepReadonly<ClusterQueue>): boolean {
  const policy = cq.spec.preemption?.borrowWithinCohort?.policy ?? "Never";
  return policy !== "Never";
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
  requests: (podSet: DeepReadonly<PodSet>) => ReadonlyMap<string, number> = podSetRequests,
): AssignmentResult {
  const groups = cq.spec.resourceGroups ?? [];
  const covers = (resource: string): boolean =>
    groups.some((g) => g.coveredResources.includes(resource));
  const preemptWhileBorrowing = canPreemptWhileBorrowing(cq);
  const taken: FlavorResourceAmounts = new Map();
  const assignments: PodSetAssignment[] = [];
  /** Each PodSet's reasons, in PodSet order; `failed` once one has no flavor at all. */
  const messages: string[] = [];
  let failed = false;
  const needPreemption = new Set<string>();
  let mode: AssignmentMode = "fit";
  let borrows = false;
  const reclaimable = new Map(
    (workload.status?.reclaimablePods ?? []).map((r) => [r.name, r.count]),
  );
  for (const podSet of workload.spec.podSets) {
    const count = Math.max(0, podSet.count - (reclaimable.get(podSet.name) ?? 0));
    const perPod = requests(podSet);
    const total = new Map<string, number>();
    for (const [resource, amount] of perPod) total.set(resource, amount * count);
    if (covers("pods")) total.set("pods", count);
    const reasons: string[] = [];
    const waitReasons: string[] = [];
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
      let best: FlavorChoice | undefined;
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
        let flavorMode: AssignmentMode = "fit";
        let flavorBorrows = false;
        const preempting: string[] = [];
        for (const resource of requested) {
          const key = frKey(f.name, resource);
          const value = (total.get(resource) ?? 0) + (taken.get(key) ?? 0);
          const max = tree.potentialAvailable(node, key);
          const available = tree.available(node, key);
          const nominal = node.nominal.get(key) ?? 0;
          if (node.cohort !== undefined && (node.usage.get(key) ?? 0) + value > nominal) {
            flavorBorrows = true;
          }
          if (value > max) {
            groupReasons.push(
              `insufficient quota for ${resource} in flavor ${f.name}, request > maximum capacity (${formatAmount(resource, value)} > ${formatAmount(resource, max)})`,
            );
            flavorMode = "noFit";
            break;
          }
          if (value <= available) continue;
          groupReasons.push(
            `insufficient unused quota for ${resource} in flavor ${f.name}, ${formatAmount(resource, value - available)} more needed`,
          );
          if (value <= nominal || preemptWhileBorrowing) {
            flavorMode = worse(flavorMode, "preempt");
            preempting.push(resource);
          } else {
            flavorMode = "noFit";
            break;
          }
        }
        const candidate = { flavor: f.name, mode: flavorMode, borrows: flavorBorrows, preempting };
        if (
          flavorMode !== "noFit" &&
          !shouldTryNextFlavor(flavorMode, flavorBorrows, cq.spec.flavorFungibility)
        ) {
          choice = candidate;
          break;
        }
        if (modeRank[flavorMode] > modeRank[best?.mode ?? "noFit"]) best = candidate;
      }
      choice ??= best;
      if (choice === undefined) {
        reasons.push(...groupReasons);
        continue;
      }
      if (choice.mode !== "fit") waitReasons.push(...groupReasons);
      mode = worse(mode, choice.mode);
      borrows ||= choice.borrows;
      for (const resource of choice.preempting) needPreemption.add(frKey(choice.flavor, resource));
      for (const resource of requested) {
        chosen[resource] = choice.flavor;
        const key = frKey(choice.flavor, resource);
        usageHere.set(key, (usageHere.get(key) ?? 0) + (total.get(resource) ?? 0));
      }
    }
    if (reasons.length > 0 || waitReasons.length > 0) {
      messages.push(
        `couldn't assign flavors to pod set ${podSet.name}: ${[...reasons, ...waitReasons].sort().join(", ")}`,
      );
    }
    if (reasons.length > 0) {
      failed = true;
      continue;
    }
    for (const [key, amount] of usageHere) taken.set(key, (taken.get(key) ?? 0) + amount);
    const resourceUsage: Record<string, string> = {};
    for (const [resource, amount] of total) {
      if (chosen[resource] !== undefined) resourceUsage[resource] = formatAmount(resource, amount);
    }
    assignments.push({ name: podSet.name, flavors: chosen, resourceUsage, count: podSet.count });
  }
  if (failed) return { kind: "noFit", message: messages.join("; ") };
  if (mode === "preempt") {
    return {
      kind: "preempt",
      podSetAssignments: assignments,
      usage: taken,
      borrows,
      needPreemption,
      message: messages.join("; "),
    };
  }
  return { kind: "fit", podSetAssignments: assignments, usage: taken, borrows };
}
