/**
 * Which daemon pods to create and delete (upstream's `manage` / `podsShouldBeOnNode` and
 * `rollingUpdate`). Pure: the sync executes the result.
 */
import {
  type DaemonSet,
  type IntOrString,
  isPodReady,
  type Node,
  type Pod,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { isPodAvailable } from "../framework/index.ts";
import { type NodeVerdict, nodeShouldRunDaemonPod } from "./placement.ts";
import { isPodUpdated } from "./revision.ts";

type DS = DeepReadonly<DaemonSet>;
type P = DeepReadonly<Pod>;

/** An event the plan wants recorded on the DaemonSet. */
export interface PlanEvent {
  readonly type: "Normal" | "Warning";
  readonly reason: string;
  readonly message: string;
}

/** The writes of one step. */
export interface NodeActions {
  /** Nodes to create a daemon pod on. */
  readonly createOn: readonly string[];
  readonly deletePods: readonly P[];
  readonly events: readonly PlanEvent[];
  /** Nodes whose failed pod is deleted now (their backoff advances). */
  readonly failedOn: readonly string[];
  /** Retry after this long: a failed pod waits out its backoff. */
  readonly retryAfterMs?: number;
}

/** `podByCreationTimestampAndPhase`: scheduled pods first, then oldest first, then by name. */
export function compareDaemonPods(a: P, b: P): number {
  const sa = (a.spec.nodeName ?? "") !== "";
  const sb = (b.spec.nodeName ?? "") !== "";
  if (sa !== sb) return sa ? -1 : 1;
  const ta = Date.parse(a.metadata.creationTimestamp ?? "") || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? "") || 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata.name ?? "";
  const nb = b.metadata.name ?? "";
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** `GetScaledValueFromIntOrPercent`: an integer, or a percentage of `total` rounded. */
export function scaledValue(
  value: IntOrString | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  const match = /^([0-9]+)%$/.exec(value);
  if (match === null) throw new Error(`invalid value for IntOrString: invalid value "${value}"`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** `SurgeCount`: 0 unless RollingUpdate asks for maxSurge. */
export function surgeCount(ds: DS, total: number): number {
  const strategy = ds.spec.updateStrategy;
  if ((strategy?.type ?? "RollingUpdate") !== "RollingUpdate") return 0;
  return scaledValue(strategy?.rollingUpdate?.maxSurge, total, true);
}

/** `UnavailableCount`: 0 unless RollingUpdate sets maxUnavailable. */
export function unavailableCount(ds: DS, total: number): number {
  const strategy = ds.spec.updateStrategy;
  if ((strategy?.type ?? "RollingUpdate") !== "RollingUpdate") return 0;
  return scaledValue(strategy?.rollingUpdate?.maxUnavailable, total, true);
}

/** What the manage step reads. */
export interface ManageInput {
  readonly ds: DS;
  readonly nodes: readonly DeepReadonly<Node>[];
  /** The owned pods by target node (pods both finished and being deleted left out). */
  readonly podsByNode: ReadonlyMap<string, readonly P[]>;
  readonly hash: string;
  readonly generation: string | undefined;
  readonly now: Date;
  /** Ms left of the failed-pod backoff on `node` (0 when a failed pod may be deleted now). */
  readonly failedBackoffMs: (node: string) => number;
}

/** `manage`: per node, `podsShouldBeOnNode`; then unscheduled pods of vanished nodes. */
export function planManage(input: ManageInput): NodeActions {
  const { ds, podsByNode, hash, now } = input;
  const createOn: string[] = [];
  const deletePods: P[] = [];
  const events: PlanEvent[] = [];
  const failedOn: string[] = [];
  let retryAfterMs: number | undefined;
  const surge = surgeCount(ds, 1) > 0;
  const minReady = ds.spec.minReadySeconds ?? 0;
  for (const node of input.nodes) {
    const name = node.metadata.name ?? "";
    const verdict: NodeVerdict = nodeShouldRunDaemonPod(node, ds);
    const pods = podsByNode.get(name);
    if (verdict.shouldRun && pods === undefined) {
      createOn.push(name);
      continue;
    }
    if (pods === undefined) continue;
    if (!verdict.shouldContinueRunning) {
      deletePods.push(...pods.filter((p) => p.metadata.deletionTimestamp === undefined));
      continue;
    }
    const running: P[] = [];
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp !== undefined) continue;
      const where = `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`;
      if (pod.status?.phase === "Failed") {
        const wait = input.failedBackoffMs(name);
        if (wait > 0) {
          retryAfterMs = Math.min(retryAfterMs ?? wait, wait);
          continue;
        }
        failedOn.push(name);
        events.push({
          type: "Warning",
          reason: "FailedDaemonPod",
          message: `Found failed daemon pod ${where} on node ${name}, will try to kill it`,
        });
        deletePods.push(pod);
      } else if (pod.status?.phase === "Succeeded") {
        events.push({
          type: "Normal",
          reason: "SucceededDaemonPod",
          message: `Found succeeded daemon pod ${where} on node ${name}, will try to delete it`,
        });
        deletePods.push(pod);
      } else {
        running.push(pod);
      }
    }
    running.sort(compareDaemonPods);
    if (!surge) {
      // More than one running pod: keep the oldest.
      deletePods.push(...running.slice(1));
      continue;
    }
    if (running.length <= 1) {
      if (running.length === 0 && verdict.shouldRun) createOn.push(name);
      continue;
    }
    // Surging: keep the oldest new pod, and the oldest old pod while the new one is not available.
    let oldestNew: P | undefined;
    let oldestOld: P | undefined;
    for (const pod of running) {
      if (isPodUpdated(pod, hash, input.generation)) {
        if (oldestNew === undefined) {
          oldestNew = pod;
          continue;
        }
      } else if (oldestOld === undefined) {
        oldestOld = pod;
        continue;
      }
      deletePods.push(pod);
    }
    if (oldestNew !== undefined && oldestOld !== undefined) {
      if (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReady, now)) {
        deletePods.push(oldestOld);
      }
    }
  }
  // Unscheduled pods meant for nodes that no longer exist: the pod GC cannot see them.
  const existing = new Set(input.nodes.map((n) => n.metadata.name ?? ""));
  for (const [node, pods] of podsByNode) {
    if (existing.has(node)) continue;
    deletePods.push(...pods.filter((p) => (p.spec.nodeName ?? "") === ""));
  }
  return {
    createOn,
    deletePods,
    events,
    failedOn,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/**
 * `findUpdatedPodsOnNode`: the one new and the one old pod not being deleted; `undefined` when
 * there are more of either (the manage step prunes them first).
 */
function updatedPodsOn(
  pods: readonly P[],
  hash: string,
  generation: string | undefined,
): { newPod?: P; oldPod?: P } | undefined {
  let newPod: P | undefined;
  let oldPod: P | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod !== undefined) return undefined;
      newPod = pod;
    } else {
      if (oldPod !== undefined) return undefined;
      oldPod = pod;
    }
  }
  return {
    ...(newPod === undefined ? {} : { newPod }),
    ...(oldPod === undefined ? {} : { oldPod }),
  };
}

/**
 * `rollingUpdate`: without surge, delete old pods (unavailable ones always, available ones while
 * fewer than maxUnavailable daemon pods are unavailable) and let manage recreate them; with
 * maxSurge, create new pods beside old available ones (at most maxSurge at a time) and delete
 * each old pod once its replacement is available. Nodes are visited in name order.
 */
export function planRollingUpdate(input: Omit<ManageInput, "failedBackoffMs">): NodeActions {
  const { ds, hash, generation, now } = input;
  const minReady = ds.spec.minReadySeconds ?? 0;
  const available = (pod: P): boolean => isPodAvailable(pod, minReady, now);
  const verdicts = new Map<string, NodeVerdict>();
  const byNode = new Map<string, readonly P[]>(input.podsByNode);
  let desired = 0;
  for (const node of input.nodes) {
    const name = node.metadata.name ?? "";
    const verdict = nodeShouldRunDaemonPod(node, ds);
    verdicts.set(name, verdict);
    if (!verdict.shouldRun) continue;
    desired++;
    if (!byNode.has(name)) byNode.set(name, []);
  }
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const names = [...byNode.keys()].sort();
  const none: NodeActions = { createOn: [], deletePods: [], events: [], failedOn: [] };

  if (maxSurge === 0) {
    let unavailable = 0;
    const replacements: P[] = [];
    const candidates: P[] = [];
    for (const name of names) {
      const found = updatedPodsOn(byNode.get(name) ?? [], hash, generation);
      if (found === undefined) {
        unavailable++;
        continue;
      }
      const { newPod, oldPod } = found;
      if ((oldPod === undefined) === (newPod === undefined)) {
        unavailable++;
      } else if (newPod !== undefined) {
        if (!available(newPod)) unavailable++;
      } else if (oldPod !== undefined) {
        if (!available(oldPod)) {
          replacements.push(oldPod);
          unavailable++;
        } else if (unavailable < maxUnavailable) {
          candidates.push(oldPod);
        }
      }
    }
    const room = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
    return { ...none, deletePods: [...replacements, ...candidates.slice(0, room)] };
  }

  const deletePods: P[] = [];
  const shouldNotRun: P[] = [];
  const candidateNodes: string[] = [];
  const allowedNodes: string[] = [];
  let surging = 0;
  let availableCount = 0;
  for (const name of names) {
    const found = updatedPodsOn(byNode.get(name) ?? [], hash, generation);
    if (found === undefined) {
      surging++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod !== undefined) {
      if (available(oldPod)) availableCount++;
    } else if (newPod !== undefined && available(newPod)) {
      availableCount++;
    }
    if (oldPod === undefined) continue;
    const shouldRun = verdicts.get(name)?.shouldRun ?? false;
    if (newPod === undefined) {
      if (!available(oldPod)) {
        if (!shouldRun) deletePods.push(oldPod);
        else allowedNodes.push(name);
      } else if (!shouldRun) {
        shouldNotRun.push(oldPod);
      } else if (surging < maxSurge) {
        candidateNodes.push(name);
      }
      continue;
    }
    if (!available(newPod)) {
      surging++;
      continue;
    }
    deletePods.push(oldPod);
  }
  const deletable = Math.min(Math.max(0, availableCount - desired), shouldNotRun.length);
  deletePods.push(...shouldNotRun.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - surging), candidateNodes.length);
  return { ...none, deletePods, createOn: [...allowedNodes, ...candidateNodes.slice(0, room)] };
}
