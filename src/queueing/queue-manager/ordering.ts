/**
 * The order of a ClusterQueue's pending Workloads (pkg/queue, `queueOrderingFunc`): higher
 * priority first, then older (queue-order timestamp: creation, or the last eviction), then by
 * name so the order is total.
 */
import type { KueueWorkload } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

export function workloadPriority(workload: DeepReadonly<KueueWorkload>): number {
  return workload.spec.priority ?? 0;
}

/** When the Workload joined its queue: its creation, or its last eviction's transition. */
export function queueOrderTimestamp(workload: DeepReadonly<KueueWorkload>): number {
  const evicted = workload.status?.conditions?.find(
    (c) => c.type === "Evicted" && c.status === "True",
  );
  const at = evicted?.lastTransitionTime ?? workload.metadata.creationTimestamp ?? "";
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Negative when `a` goes before `b`. */
export function compareWorkloads(
  a: DeepReadonly<KueueWorkload>,
  b: DeepReadonly<KueueWorkload>,
): number {
  const byPriority = workloadPriority(b) - workloadPriority(a);
  if (byPriority !== 0) return byPriority;
  const byTime = queueOrderTimestamp(a) - queueOrderTimestamp(b);
  if (byTime !== 0) return byTime;
  const ka = `${a.metadata.namespace ?? ""}/${a.metadata.name ?? ""}`;
  const kb = `${b.metadata.namespace ?? ""}/${b.metadata.name ?? ""}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Sorts `list` in queue order, reading each Workload's timestamp once. */
export function sortWorkloads<T extends DeepReadonly<KueueWorkload>>(list: T[]): T[] {
  const keyed = list.map((w) => ({
    w,
    priority: workloadPriority(w),
    time: queueOrderTimestamp(w),
    key: `${w.metadata.namespace ?? ""}/${w.metadata.name ?? ""}`,
  }));
  keyed.sort(
    (a, b) =>
      b.priority - a.priority || a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  for (let i = 0; i < keyed.length; i++) list[i] = (keyed[i] as { w: T }).w;
  return list;
}
