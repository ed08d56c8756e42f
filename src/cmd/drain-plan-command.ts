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
  type DrainPlanInput,
  type PlannedEviction,
  type Pod,
  type PodDisruptionBudget,
  type PodGroup,
  planDrain,
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

// The planner itself is pure and lives in api/ (the dashboard draws the same plan).
export { type DrainPlanInput, type PlannedEviction, planDrain };

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
