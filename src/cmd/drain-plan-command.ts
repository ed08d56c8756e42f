/**
 * `gantry drain-plan NODE [--execute] [-o json]`: for every pod on a node, the budget that
 * governs it, whether it can be evicted now, and which pod group its eviction would break; and
 * an eviction order that keeps groups whole (pods of groups already broken, or that break
 * anyway, go first). `--execute` evicts in that order through the Eviction API, so every
 * budget is honoured.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  ApiError,
  countPodGroups,
  effectiveBudgetScope,
  isPodReady,
  type LabelSelector,
  matchesLabels,
  type Pod,
  type PodDisruptionBudget,
  type PodGroup,
  type PodGroupSource,
  podGroupMembership,
  selectorFromLabelSelector,
  type Workload,
} from "../api/index.ts";
import {
  type Client,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  workloadsResource,
} from "../client/index.ts";
import { clientForKubeconfig } from "./kubeconfig-client.ts";

export const drainPlanUsage = `Usage: gantry drain-plan NODE [options]

For every pod on NODE: the PodDisruptionBudget that governs it, whether it can be evicted
now, and which pod group its eviction would break; then an eviction order that keeps pod
groups whole (pods of groups that are already broken, or that break anyway, go first).

Options:
  --execute           Evict the pods in that order through the Eviction API (budgets apply)
  -o, --output FMT    table (default) or json
  --data-dir DIR      The data dir of the running gantry up (default ./.gantry)
  --kubeconfig FILE   Use this kubeconfig instead
`;

/** One pod's line of the plan. */
export interface PlannedEviction {
  readonly namespace: string;
  readonly name: string;
  /** The governing budget, `""` for none. */
  readonly pdb: string;
  /** yes: no budget spent; budget: spends one unit that is there; no: would be refused. */
  readonly evictable: "yes" | "budget" | "no";
  /** The pod's group (`podgroup/NAME`, `workload/W/G/KEY`), `""` when it has none. */
  readonly group: string;
  /** True when this eviction takes a healthy group below its minCount. */
  readonly breaksGroup: boolean;
  readonly reason: string;
}

/** What the planner reads: the node's pods and, per namespace, budgets, pods and groups. */
export interface DrainPlanInput {
  readonly nodePods: readonly Pod[];
  readonly budgets: readonly PodDisruptionBudget[];
  readonly pods: readonly Pod[];
  readonly workloads: readonly Workload[];
  readonly podGroups: readonly PodGroup[];
}

function selects(selector: LabelSelector | undefined, pod: Pod): boolean {
  try {
    return matchesLabels(selectorFromLabelSelector(selector), pod.metadata.labels ?? {});
  } catch (error: unknown) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

function sourceFor(input: DrainPlanInput, namespace: string): PodGroupSource {
  const inNs = <T extends { metadata: { namespace?: string } }>(list: readonly T[]) =>
    list.filter((o) => (o.metadata.namespace ?? "") === namespace);
  const workloads = inNs(input.workloads);
  const groups = inNs(input.podGroups);
  return {
    workload: (name) => workloads.find((w) => w.metadata.name === name),
    podGroup: (name) => groups.find((g) => g.metadata.name === name),
    podGroupsOf: (workload, template) =>
      groups.filter(
        (g) => g.spec.workloadRef.name === workload && g.spec.podGroupTemplateName === template,
      ),
  };
}

/** Rank in the proposed order: bypassing pods, broken groups, free surplus, then breakers. */
function rankOf(plan: PlannedEviction): number {
  if (plan.pdb === "") return 0;
  if (plan.reason.startsWith("group already broken")) return 1;
  if (!plan.breaksGroup && plan.evictable === "yes") return 2;
  return plan.breaksGroup ? 4 : 3;
}

/** The plan for the node's pods, in the proposed eviction order. Pure. */
export function planDrain(input: DrainPlanInput): PlannedEviction[] {
  const plans: PlannedEviction[] = [];
  for (const pod of input.nodePods) {
    const namespace = pod.metadata.namespace ?? "";
    const name = pod.metadata.name ?? "";
    const base = { namespace, name, group: "", breaksGroup: false };
    const phase = pod.status?.phase;
    if (
      phase === "Pending" ||
      phase === "Succeeded" ||
      phase === "Failed" ||
      pod.metadata.deletionTimestamp !== undefined
    ) {
      plans.push({
        ...base,
        pdb: "",
        evictable: "yes",
        reason: "pending, finished or terminating",
      });
      continue;
    }
    const budgets = input.budgets.filter(
      (b) => (b.metadata.namespace ?? "") === namespace && selects(b.spec.selector, pod),
    );
    const budget = budgets[0];
    if (budget === undefined) {
      plans.push({ ...base, pdb: "", evictable: "yes", reason: "no budget" });
      continue;
    }
    const pdb = budget.metadata.name ?? "";
    if (budgets.length > 1) {
      plans.push({ ...base, pdb, evictable: "no", reason: "more than one budget" });
      continue;
    }
    const allowed = budget.status?.disruptionsAllowed ?? 0;
    const spend = (reason: string, more: Partial<PlannedEviction> = {}): PlannedEviction => ({
      ...base,
      ...more,
      pdb,
      evictable: allowed > 0 ? "budget" : "no",
      reason:
        allowed > 0 ? `${reason}: spends 1 of ${allowed}` : `${reason}: no disruptions allowed`,
    });
    if (effectiveBudgetScope(budget.spec) !== "PodGroup") {
      plans.push(spend(isPodReady(pod) ? "ready pod" : "unready pod"));
      continue;
    }
    const source = sourceFor(input, namespace);
    const selected = input.pods.filter(
      (p) => (p.metadata.namespace ?? "") === namespace && selects(budget.spec.selector, p),
    );
    const counts = countPodGroups(selected, source, budget.status?.disruptedPods ?? {});
    const membership = podGroupMembership(pod, source);
    if (membership.kind === "missing") {
      plans.push({ ...base, pdb, evictable: "no", reason: membership.message });
      continue;
    }
    const key = counts.groupOfPod.get(name) ?? "";
    const group = counts.groups.get(key);
    if (group === undefined || group.healthyPods < group.minCount) {
      plans.push({ ...base, pdb, group: key, evictable: "yes", reason: "group already broken" });
      continue;
    }
    if (!isPodReady(pod) || group.healthyPods - 1 >= group.minCount) {
      plans.push({
        ...base,
        pdb,
        group: key,
        evictable: "yes",
        reason: `group keeps ${group.healthyPods - (isPodReady(pod) ? 1 : 0)} of minCount ${group.minCount}`,
      });
      continue;
    }
    plans.push(spend(`breaks group ${key}`, { group: key, breaksGroup: true }));
  }
  return plans
    .map((plan, index) => ({ plan, index }))
    .sort(
      (a, b) =>
        rankOf(a.plan) - rankOf(b.plan) ||
        a.plan.group.localeCompare(b.plan.group) ||
        a.index - b.index,
    )
    .map(({ plan }) => plan);
}

/** The plan as a table, one line per pod in eviction order. */
export function formatPlan(plans: readonly PlannedEviction[]): string {
  const rows = [
    ["ORDER", "NAMESPACE", "POD", "PDB", "EVICT NOW", "GROUP", "REASON"],
    ...plans.map((p, i) => [
      String(i + 1),
      p.namespace,
      p.name,
      p.pdb === "" ? "<none>" : p.pdb,
      p.evictable,
      p.group === "" ? "<none>" : p.group,
      p.reason,
    ]),
  ];
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd((widths[c] ?? 0) + 3)))
        .join("")
        .trimEnd(),
    )
    .join("\n")
    .concat("\n");
}

/** Where the command writes. */
export interface DrainPlanIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

async function readInput(client: Client, node: string): Promise<DrainPlanInput> {
  const nodePods = (
    await client.list<Pod>(podsResource, undefined, { fieldSelector: `spec.nodeName=${node}` })
  ).items;
  const namespaces = [...new Set(nodePods.map((p) => p.metadata.namespace ?? ""))];
  const input = { nodePods, budgets: [], pods: [], workloads: [], podGroups: [] } as {
    nodePods: Pod[];
    budgets: PodDisruptionBudget[];
    pods: Pod[];
    workloads: Workload[];
    podGroups: PodGroup[];
  };
  for (const ns of namespaces) {
    input.budgets.push(
      ...(await client.list<PodDisruptionBudget>(podDisruptionBudgetsResource, ns)).items,
    );
    input.pods.push(...(await client.list<Pod>(podsResource, ns)).items);
    input.workloads.push(...(await client.list<Workload>(workloadsResource, ns)).items);
    input.podGroups.push(...(await client.list<PodGroup>(podGroupsResource, ns)).items);
  }
  return input;
}

/** Runs `gantry drain-plan ARGS`; resolves to the exit code. */
export async function runDrainPlanCommand(
  argv: readonly string[],
  io: DrainPlanIo,
): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      allowPositionals: true;
      options: {
        execute: { type: "boolean" };
        output: { type: "string"; short: "o" };
        "data-dir": { type: "string" };
        kubeconfig: { type: "string" };
        help: { type: "boolean"; short: "h" };
      };
    }>
  >;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        execute: { type: "boolean" },
        output: { type: "string", short: "o" },
        "data-dir": { type: "string" },
        kubeconfig: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error: unknown) {
    io.err(`gantry drain-plan: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.out(drainPlanUsage);
    return 0;
  }
  const [node, ...extra] = parsed.positionals;
  const output = parsed.values.output ?? "table";
  if (node === undefined || extra.length > 0 || (output !== "table" && output !== "json")) {
    io.err(`gantry drain-plan: give one node name and -o table|json\n${drainPlanUsage}`);
    return 2;
  }
  const kubeconfig =
    parsed.values.kubeconfig ?? join(parsed.values["data-dir"] ?? "./.gantry", "kubeconfig");
  let client: ReturnType<typeof clientForKubeconfig>;
  try {
    client = clientForKubeconfig(kubeconfig, "drain-plan");
  } catch (error: unknown) {
    io.err(`gantry drain-plan: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const plans = planDrain(await readInput(client, node));
    if (output === "json") io.out(`${JSON.stringify({ node, pods: plans }, null, 2)}\n`);
    else io.out(formatPlan(plans));
    if (parsed.values.execute !== true) return 0;
    let failed = 0;
    for (const plan of plans) {
      try {
        await client.createSubresource(podsResource, plan.namespace, plan.name, "eviction", {
          apiVersion: "policy/v1",
          kind: "Eviction",
          metadata: { name: plan.name, namespace: plan.namespace },
        });
        io.out(`pod/${plan.name} evicted\n`);
      } catch (error: unknown) {
        failed++;
        io.err(
          `error when evicting pods/"${plan.name}" -n "${plan.namespace}": ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
    return failed === 0 ? 0 : 1;
  } catch (error: unknown) {
    io.err(`gantry drain-plan: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    client.close();
  }
}
