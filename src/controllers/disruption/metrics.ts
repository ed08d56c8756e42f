/**
 * The disruption controller's metrics for group-aware budgets. The controller reports through
 * this interface; `newDisruptionMetrics` puts them on a prom-client registry (the API server's,
 * so `/metrics` serves them), and `noDisruptionMetrics` drops them.
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** How a reconcile counted: per pod, per group, or per pod after a group-mode fallback. */
export type ReconcileMode = "pod" | "group" | "fallback";

/** What the controller reports. Calls are cheap and never throw. */
export interface DisruptionMetrics {
  /** One successful or failed reconcile of a budget in `mode`. */
  reconciled(mode: ReconcileMode): void;
  /** A group-scoped budget found misconfigured input (mixed pods, no groups, invalid refs). */
  misconfigured(): void;
  /** How many budgets currently have `budgetScope: PodGroup` (or `usePodGroups: true`). */
  pdbsUsingPodGrouping(count: number): void;
}

/** Discards everything. */
export const noDisruptionMetrics: DisruptionMetrics = Object.freeze({
  reconciled() {},
  misconfigured() {},
  pdbsUsingPodGrouping() {},
});

/** Registers the metrics on `registry`. */
export function newDisruptionMetrics(registry: Registry): DisruptionMetrics {
  const reconciliations = new Counter({
    name: "disruption_controller_reconciliations_total",
    help: "Number of PodDisruptionBudget reconciliations by counting mode (pod, group, fallback).",
    labelNames: ["mode"],
    registers: [registry],
  });
  const misconfig = new Counter({
    name: "disruption_controller_pdb_grouping_misconfig_total",
    help: "Number of group-scoped PodDisruptionBudget syncs that found misconfigured pod groups.",
    registers: [registry],
  });
  const grouping = new Gauge({
    name: "disruption_controller_pdbs_using_pod_grouping",
    help: "Number of PodDisruptionBudgets that count pod groups (budgetScope: PodGroup).",
    registers: [registry],
  });
  return {
    reconciled: (mode) => reconciliations.inc({ mode }),
    misconfigured: () => misconfig.inc(),
    pdbsUsingPodGrouping: (count) => grouping.set(count),
  };
}
