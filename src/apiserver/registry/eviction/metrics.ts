/**
 * Eviction counts by result. Upstream's kube-apiserver has no eviction-specific metric: an
 * eviction shows only as `apiserver_request_total{resource="pods",subresource="eviction",code}`
 * (which gantry reports too). This counter adds what that one cannot say: whether a 429 came
 * from a budget, and which kind of budget (per pod or per pod group) decided.
 */
import { Counter, type Registry } from "prom-client";

/** How an eviction ended: deleted (or dry-run approved), refused by a budget, or failed. */
export type EvictionResult = "evicted" | "denied" | "error";

/**
 * Which budget decided: none (no budget selects the pod, or the pod bypasses budgets), a
 * per-pod budget, or a group-scoped one (`budgetScope: PodGroup`).
 */
export type EvictionBudgetScope = "none" | "Pod" | "PodGroup";

/** What the eviction subresource reports. Calls are cheap and never throw. */
export interface EvictionMetrics {
  /** One eviction request that reached the decision, and how it ended. */
  observe(result: EvictionResult, scope: EvictionBudgetScope): void;
}

/** Discards everything. */
export const noEvictionMetrics: EvictionMetrics = Object.freeze({ observe() {} });

/** The counter's name on `/metrics`. */
export const evictionsMetricName = "apiserver_pod_evictions_total";

/** Registers the counter on `registry` (the API server's, so `/metrics` serves it). */
export function newEvictionMetrics(registry: Registry): EvictionMetrics {
  const evictions = new Counter({
    name: evictionsMetricName,
    help: "Number of pod eviction requests by result (evicted, denied by a disruption budget, error) and by the scope of the budget that decided (none, Pod, PodGroup).",
    labelNames: ["result", "budget_scope"],
    registers: [registry],
  });
  return {
    observe: (result, scope) => evictions.inc({ result, budget_scope: scope }),
  };
}
