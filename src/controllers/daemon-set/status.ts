/** DaemonSet status (upstream's `updateDaemonSetStatus`). Pure. */
import {
  type DaemonSet,
  type DaemonSetStatus,
  isPodReady,
  type Node,
  type Pod,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { isPodAvailable } from "../framework/index.ts";
import { nodeShouldRunDaemonPod } from "./placement.ts";
import { compareDaemonPods } from "./plan.ts";
import { isPodUpdated } from "./revision.ts";

export interface DaemonSetStatusInput {
  readonly ds: DeepReadonly<DaemonSet>;
  readonly nodes: readonly DeepReadonly<Node>[];
  readonly podsByNode: ReadonlyMap<string, readonly DeepReadonly<Pod>[]>;
  readonly hash: string;
  readonly generation: string | undefined;
  /** Raise observedGeneration (only when the sync acted on this generation). */
  readonly observeGeneration: boolean;
  readonly now: Date;
}

/**
 * Per node that should run the pod: desired; scheduled when it has a daemon pod; the oldest
 * pod counts as ready, available (Ready for minReadySeconds) and updated (current hash). Pods
 * on nodes that should not run one are misscheduled; unavailable = desired − available. The
 * counters upstream omits when zero (updated, available, unavailable) are left out then.
 */
export function computeDaemonSetStatus(input: DaemonSetStatusInput): DaemonSetStatus {
  const { ds, now } = input;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let updated = 0;
  let available = 0;
  const minReady = ds.spec.minReadySeconds ?? 0;
  for (const node of input.nodes) {
    const pods = input.podsByNode.get(node.metadata.name ?? "") ?? [];
    const scheduled = pods.length > 0;
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (scheduled) misscheduled++;
      continue;
    }
    desired++;
    const oldest = [...pods].sort(compareDaemonPods)[0];
    if (oldest === undefined) continue;
    current++;
    if (isPodReady(oldest)) {
      ready++;
      if (isPodAvailable(oldest, minReady, now)) available++;
    }
    if (isPodUpdated(oldest, input.hash, input.generation)) updated++;
  }
  const status: DaemonSetStatus = {
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    desiredNumberScheduled: desired,
    numberReady: ready,
  };
  const observed = input.observeGeneration
    ? (ds.metadata.generation ?? 0)
    : (ds.status?.observedGeneration ?? 0);
  if (observed > 0) status.observedGeneration = observed;
  if (updated > 0) status.updatedNumberScheduled = updated;
  if (available > 0) status.numberAvailable = available;
  if (desired - available > 0) status.numberUnavailable = desired - available;
  if (ds.status?.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount;
  const conditions = ds.status?.conditions;
  if (conditions !== undefined && conditions.length > 0) {
    status.conditions = structuredClone(conditions) as NonNullable<DaemonSetStatus["conditions"]>;
  }
  return status;
}
