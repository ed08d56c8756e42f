/**
 * Zone disruption (upstream's `ComputeZoneState`, `handleDisruption`, `setLimiterInZone`): how
 * many nodes of a zone are not Ready decides how fast NoExecute taints may be added there, and
 * when every zone is fully disrupted (the control plane is more likely cut off than every node
 * dead) no node is tainted at all. Pure.
 */
import type { Node, NodeCondition } from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

export type ZoneState = "Initial" | "Normal" | "PartialDisruption" | "FullDisruption";

/** The label that keeps a node out of the disruption counts. */
export const excludeDisruptionLabel = "node.kubernetes.io/exclude-disruption";

/** `GetZoneKey`: region and zone (GA labels, else the beta failure-domain ones). */
export function zoneKey(node: DeepReadonly<Node>): string {
  const labels = node.metadata.labels ?? {};
  const region =
    labels["topology.kubernetes.io/region"] ??
    labels["failure-domain.beta.kubernetes.io/region"] ??
    "";
  const zone =
    labels["topology.kubernetes.io/zone"] ?? labels["failure-domain.beta.kubernetes.io/zone"] ?? "";
  if (region === "" && zone === "") return "";
  return `${region}:\u0000:${zone}`;
}

/** `ComputeZoneState`: Full when no node is Ready; Partial when >2 and ≥ threshold are not. */
export function computeZoneState(
  readyConditions: readonly (DeepReadonly<NodeCondition> | undefined)[],
  unhealthyThreshold: number,
): { unhealthy: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const condition of readyConditions) {
    if (condition?.status === "True") ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { unhealthy: notReady, state: "FullDisruption" };
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyThreshold) {
    return { unhealthy: notReady, state: "PartialDisruption" };
  }
  return { unhealthy: notReady, state: "Normal" };
}

/** The limits `setLimiterInZone` applies. */
export interface EvictionRates {
  /** Nodes per second tainted in a healthy zone (--node-eviction-rate). */
  readonly evictionQps: number;
  /** Nodes per second in a partially disrupted large zone (--secondary-node-eviction-rate). */
  readonly secondaryEvictionQps: number;
  /** Zones with at most this many nodes stop tainting when partially disrupted. */
  readonly largeClusterThreshold: number;
}

/** `setLimiterInZone`: the NoExecute tainting rate of a zone in `state` with `size` nodes. */
export function zoneEvictionQps(state: ZoneState, size: number, rates: EvictionRates): number {
  switch (state) {
    case "Initial":
    case "Normal":
    case "FullDisruption":
      return rates.evictionQps;
    case "PartialDisruption":
      return size > rates.largeClusterThreshold ? rates.secondaryEvictionQps : 0;
  }
}
