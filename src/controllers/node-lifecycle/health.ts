/**
 * Node health as the node lifecycle controller sees it (upstream's `tryUpdateNodeHealth`): a node
 * is heard from when its Ready condition's heartbeat changes or its Lease in kube-node-lease is
 * renewed; times are this controller's own observation times, so clock skew does not matter.
 * A node not heard from for the grace period gets its Ready, MemoryPressure, DiskPressure and
 * PIDPressure conditions set to Unknown. Pure.
 */
import type { Lease, Node, NodeCondition } from "../../api/index.ts";
import { type DeepReadonly, rfc3339 } from "../../util/index.ts";

/** What this controller remembers of a node between passes (`nodeHealthData`). */
export interface NodeHealth {
  /** When the node was last heard from (epoch ms). */
  readonly probeTimestamp: number;
  /** When its Ready condition last changed, as observed (epoch ms). */
  readonly readyTransitionTimestamp: number;
  /** The Ready condition last seen, if any. */
  readonly ready: DeepReadonly<NodeCondition> | undefined;
  /** The Lease renewTime last seen (epoch ms). */
  readonly leaseRenewTime: number | undefined;
}

export interface HealthTimings {
  /** Silence after which a node that posted status is Unknown (--node-monitor-grace-period). */
  readonly gracePeriodMs: number;
  /** Silence allowed to a node that never posted status (--node-startup-grace-period). */
  readonly startupGracePeriodMs: number;
}

export interface HealthAssessment {
  /** The record to keep when no status write is needed (or it failed). */
  readonly health: NodeHealth;
  /** The Ready condition as it was on the node (a placeholder Unknown one when missing). */
  readonly observedReady: DeepReadonly<NodeCondition>;
  /** The Ready condition after this pass (the written one when `conditions` is set). */
  readonly currentReady: DeepReadonly<NodeCondition> | undefined;
  /** New `status.conditions` to write: the node went silent. */
  readonly conditions?: NodeCondition[];
  /** The record to keep once `conditions` were written. */
  readonly healthAfterWrite?: NodeHealth;
}

/** The condition types marked Unknown when a node goes silent (NetworkUnavailable is not). */
export const silencedConditionTypes = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

function timeOf(text: string | null | undefined): number | undefined {
  if (text === undefined || text === null || text === "") return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `tryUpdateNodeHealth`. */
export function assessNodeHealth(
  previous: NodeHealth | undefined,
  node: DeepReadonly<Node>,
  lease: DeepReadonly<Lease> | undefined,
  now: Date,
  timings: HealthTimings,
): HealthAssessment {
  const nowMs = now.getTime();
  const created = timeOf(node.metadata.creationTimestamp) ?? nowMs;
  const conditions = node.status?.conditions ?? [];
  const currentReady = conditions.find((c) => c.type === "Ready");
  let health: NodeHealth | undefined = previous;
  let observedReady: DeepReadonly<NodeCondition>;
  let grace: number;
  if (currentReady === undefined) {
    observedReady = {
      type: "Ready",
      status: "Unknown",
      lastHeartbeatTime: node.metadata.creationTimestamp ?? rfc3339(now),
      lastTransitionTime: node.metadata.creationTimestamp ?? rfc3339(now),
    };
    grace = timings.startupGracePeriodMs;
    health =
      health === undefined
        ? {
            probeTimestamp: created,
            readyTransitionTimestamp: created,
            ready: undefined,
            leaseRenewTime: undefined,
          }
        : { ...health, ready: undefined };
  } else {
    observedReady = currentReady;
    grace = timings.gracePeriodMs;
  }
  const saved = previous?.ready;
  const leaseBefore = previous?.leaseRenewTime;
  if (health === undefined) {
    health = {
      probeTimestamp: nowMs,
      readyTransitionTimestamp: nowMs,
      ready: currentReady,
      leaseRenewTime: undefined,
    };
  } else if (saved === undefined && currentReady !== undefined) {
    health = {
      probeTimestamp: nowMs,
      readyTransitionTimestamp: nowMs,
      ready: currentReady,
      leaseRenewTime: undefined,
    };
  } else if (saved !== undefined && currentReady === undefined) {
    health = {
      probeTimestamp: nowMs,
      readyTransitionTimestamp: nowMs,
      ready: undefined,
      leaseRenewTime: undefined,
    };
  } else if (
    saved !== undefined &&
    currentReady !== undefined &&
    saved.lastHeartbeatTime !== currentReady.lastHeartbeatTime
  ) {
    const transitioned = saved.lastTransitionTime !== currentReady.lastTransitionTime;
    health = {
      probeTimestamp: nowMs,
      readyTransitionTimestamp: transitioned ? nowMs : health.readyTransitionTimestamp,
      ready: currentReady,
      leaseRenewTime: undefined,
    };
  }
  // A renewed Lease is a heartbeat too.
  const renewed = timeOf(lease?.spec?.renewTime);
  if (renewed !== undefined && (leaseBefore === undefined || leaseBefore < renewed)) {
    health = { ...health, probeTimestamp: nowMs, leaseRenewTime: renewed };
  } else {
    health = { ...health, leaseRenewTime: leaseBefore };
  }
  if (nowMs <= health.probeTimestamp + grace) {
    return { health, observedReady, currentReady };
  }
  const time = rfc3339(now);
  const next = conditions.map((c) => structuredClone(c) as NodeCondition);
  for (const type of silencedConditionTypes) {
    const current = next.find((c) => c.type === type);
    if (current === undefined) {
      next.push({
        type,
        status: "Unknown",
        reason: "NodeStatusNeverUpdated",
        message: "Kubelet never posted node status.",
        lastHeartbeatTime: node.metadata.creationTimestamp ?? time,
        lastTransitionTime: time,
      });
    } else if (current.status !== "Unknown") {
      current.status = "Unknown";
      current.reason = "NodeStatusUnknown";
      current.message = "Kubelet stopped posting node status.";
      current.lastTransitionTime = time;
    }
  }
  const nextReady = next.find((c) => c.type === "Ready");
  const unchanged =
    currentReady !== undefined &&
    nextReady !== undefined &&
    JSON.stringify(nextReady) === JSON.stringify(currentReady);
  if (unchanged) return { health, observedReady, currentReady };
  return {
    health,
    observedReady,
    currentReady: nextReady,
    conditions: next,
    healthAfterWrite: {
      probeTimestamp: health.probeTimestamp,
      readyTransitionTimestamp: nowMs,
      ready: nextReady,
      leaseRenewTime: health.leaseRenewTime,
    },
  };
}
