/**
 * Pod helpers every workload controller shares (upstream's controller_utils.go and
 * podutil): which pods count, when a pod is available, and in which order to delete pods.
 */
import { isPodReady, isRestartableInitContainer, type Pod, podCondition } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

/** The annotation that ranks pods for scale-down (`controller.kubernetes.io/pod-deletion-cost`). */
export const podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";

/** `IsPodActive`: not Succeeded, not Failed and not being deleted. */
export function isPodActive(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return (
    phase !== "Succeeded" && phase !== "Failed" && pod.metadata.deletionTimestamp === undefined
  );
}

/** `IsPodTerminating`-ish: not terminal but has a deletionTimestamp. */
export function isPodTerminating(pod: DeepReadonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return (
    phase !== "Succeeded" && phase !== "Failed" && pod.metadata.deletionTimestamp !== undefined
  );
}

/** When the pod became Ready, or `undefined` when it is not Ready. */
export function podReadyTime(pod: DeepReadonly<Pod>): number | undefined {
  const ready = podCondition(pod, "Ready");
  if (ready?.status !== "True") return undefined;
  return timeOf(ready.lastTransitionTime ?? undefined);
}

/**
 * `IsPodAvailable`: Ready, and Ready for longer than `minReadySeconds` (strictly, as upstream's
 * `Before(now)`). A Ready pod without a transition time is available only when
 * `minReadySeconds` is 0.
 */
export function isPodAvailable(
  pod: DeepReadonly<Pod>,
  minReadySeconds: number,
  now: Date,
): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = podReadyTime(pod);
  return since !== undefined && since + minReadySeconds * 1000 < now.getTime();
}

/**
 * Milliseconds until a Ready pod becomes available, 0 when it already is, `undefined` when it is
 * not Ready (no timer can help).
 */
export function msUntilAvailable(
  pod: DeepReadonly<Pod>,
  minReadySeconds: number,
  now: Date,
): number | undefined {
  if (!isPodReady(pod)) return undefined;
  if (isPodAvailable(pod, minReadySeconds, now)) return 0;
  const since = podReadyTime(pod);
  if (since === undefined) return undefined;
  return Math.max(1, since + minReadySeconds * 1000 - now.getTime() + 1);
}

/** The pod-deletion-cost annotation as upstream parses it: an int32, 0 when absent or invalid. */
export function podDeletionCost(pod: DeepReadonly<Pod>): number {
  const value = pod.metadata.annotations?.[podDeletionCostAnnotation];
  if (value === undefined) return 0;
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return 0;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < -(2 ** 31) || parsed > 2 ** 31 - 1) return 0;
  return parsed;
}

const phaseOrdinal: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

function timeOf(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `afterOrZero`: a missing time counts as after any other time. */
function afterOrZero(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  return a > b;
}

/** `logarithmicRankDiff`: compares ages on a log2 scale of nanoseconds. */
function logarithmicRankDiff(a: number, b: number, now: number): number {
  const rank = (t: number): number => {
    const ns = (now - t) * 1e6;
    return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
  };
  return rank(a) - rank(b);
}

function maxRestarts(pod: DeepReadonly<Pod>): { regular: number; sidecar: number } {
  let regular = 0;
  for (const status of pod.status?.containerStatuses ?? []) {
    regular = Math.max(regular, status.restartCount);
  }
  const sidecars = new Set(
    (pod.spec.initContainers ?? []).filter(isRestartableInitContainer).map((c) => c.name),
  );
  let sidecar = 0;
  for (const status of pod.status?.initContainerStatuses ?? []) {
    if (sidecars.has(status.name)) sidecar = Math.max(sidecar, status.restartCount);
  }
  return { regular, sidecar };
}

/** A pod with its rank: how many active related pods share its node. */
export interface RankedPod {
  readonly pod: DeepReadonly<Pod>;
  readonly rank: number;
}

/**
 * `ActivePodsWithRanks.Less` with the PodDeletionCost and LogarithmicScaleDown gates on (their
 * upstream defaults): negative when `a` should be deleted before `b`. The order:
 * unassigned < assigned; Pending < Unknown < Running; not ready < ready; lower deletion cost;
 * more related pods on the same node; ready for a shorter time (log scale); more restarts;
 * created more recently (log scale); ties on the log scale break by uid.
 */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: Date): number {
  const pa = a.pod;
  const pb = b.pod;
  const nodeA = pa.spec.nodeName ?? "";
  const nodeB = pb.spec.nodeName ?? "";
  if (nodeA !== nodeB && (nodeA === "" || nodeB === "")) return nodeA === "" ? -1 : 1;
  const phaseA = phaseOrdinal[pa.status?.phase ?? ""] ?? 0;
  const phaseB = phaseOrdinal[pb.status?.phase ?? ""] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(pa);
  const readyB = isPodReady(pb);
  if (readyA !== readyB) return readyA ? 1 : -1;
  const costA = podDeletionCost(pa);
  const costB = podDeletionCost(pb);
  if (costA !== costB) return costA - costB;
  if (a.rank !== b.rank) return b.rank - a.rank;
  const nowMs = now.getTime();
  const uidOrder = (): number => {
    const ua = pa.metadata.uid ?? "";
    const ub = pb.metadata.uid ?? "";
    return ua < ub ? -1 : ua > ub ? 1 : 0;
  };
  const byAge = (ta: number | undefined, tb: number | undefined): number => {
    if (ta === undefined || tb === undefined) return afterOrZero(ta, tb) ? -1 : 1;
    const diff = logarithmicRankDiff(ta, tb, nowMs);
    return diff === 0 ? uidOrder() : diff;
  };
  if (readyA && readyB) {
    const ta = podReadyTime(pa);
    const tb = podReadyTime(pb);
    if (ta !== tb) {
      const order = byAge(ta, tb);
      if (order !== 0) return order;
    }
  }
  const ra = maxRestarts(pa);
  const rb = maxRestarts(pb);
  if (ra.regular !== rb.regular) return rb.regular - ra.regular;
  if (ra.sidecar !== rb.sidecar) return rb.sidecar - ra.sidecar;
  const ca = timeOf(pa.metadata.creationTimestamp ?? undefined);
  const cb = timeOf(pb.metadata.creationTimestamp ?? undefined);
  if (ca !== cb) return byAge(ca, cb);
  return 0;
}

/**
 * `getPodsToDelete`: the `count` pods of `pods` to delete first. `related` are the active pods
 * of this controller and its siblings (same owner), used to prefer pods doubled up on a node.
 * When every pod goes, the order does not matter and `pods` is returned as given.
 */
export function podsToDelete(
  pods: readonly DeepReadonly<Pod>[],
  related: readonly DeepReadonly<Pod>[],
  count: number,
  now: Date,
): DeepReadonly<Pod>[] {
  if (count >= pods.length) return [...pods];
  const onNode = new Map<string, number>();
  for (const pod of related) {
    if (!isPodActive(pod)) continue;
    const node = pod.spec.nodeName ?? "";
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const ranked: RankedPod[] = pods.map((pod) => ({
    pod,
    rank: onNode.get(pod.spec.nodeName ?? "") ?? 0,
  }));
  ranked.sort((a, b) => compareForDeletion(a, b, now));
  return ranked.slice(0, count).map((r) => r.pod);
}
