/**
 * The cluster config's `controllerManager:` section: the kube-controller-manager settings that
 * decide how fast a failed emulated node is noticed and emptied (the node lifecycle
 * controller's --node-* flags, the pod garbage collector's threshold) and how often every
 * ResourceQuota is recounted (--resource-quota-sync-period). Names follow
 * `KubeControllerManagerConfiguration`; durations are Go duration strings in the file and
 * milliseconds here.
 */
import { formatDuration } from "../../util/index.ts";
import {
  checkKeys,
  childPath,
  type Problems,
  readDuration,
  readInteger,
  readObject,
} from "./reader.ts";

export interface ControllerManagerSettings {
  /** How often node health is checked (--node-monitor-period). */
  readonly nodeMonitorPeriodMs: number;
  /** Silence after which a node is marked Unknown (--node-monitor-grace-period). */
  readonly nodeMonitorGracePeriodMs: number;
  /** Silence allowed to a node that never posted status (--node-startup-grace-period). */
  readonly nodeStartupGracePeriodMs: number;
  /** Nodes per second tainted NoExecute in a healthy zone (--node-eviction-rate). */
  readonly nodeEvictionRate: number;
  /** The rate in a partially disrupted large zone (--secondary-node-eviction-rate). */
  readonly secondaryNodeEvictionRate: number;
  /** Zones up to this size stop tainting when partially disrupted (--large-cluster-size-threshold). */
  readonly largeClusterSizeThreshold: number;
  /** Share of not-Ready nodes making a zone partially disrupted (--unhealthy-zone-threshold). */
  readonly unhealthyZoneThreshold: number;
  /** Terminated pods kept before the oldest are deleted; 0 keeps all (--terminated-pod-gc-threshold). */
  readonly terminatedPodGcThreshold: number;
  /** How often every ResourceQuota's usage is recounted in full (--resource-quota-sync-period). */
  readonly resourceQuotaSyncPeriodMs: number;
}

/** kube-controller-manager's defaults (1.32+: the grace period went from 40 s to 50 s). */
export const defaultControllerManagerSettings: ControllerManagerSettings = Object.freeze({
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  terminatedPodGcThreshold: 12_500,
  resourceQuotaSyncPeriodMs: 300_000,
});

/** The keys a `controllerManager:` section may hold. */
export const controllerManagerFields = [
  "nodeMonitorPeriod",
  "nodeMonitorGracePeriod",
  "nodeStartupGracePeriod",
  "nodeEvictionRate",
  "secondaryNodeEvictionRate",
  "largeClusterSizeThreshold",
  "unhealthyZoneThreshold",
  "terminatedPodGCThreshold",
  "resourceQuotaSyncPeriod",
] as const;

const durationFields = {
  nodeMonitorPeriod: "nodeMonitorPeriodMs",
  nodeMonitorGracePeriod: "nodeMonitorGracePeriodMs",
  nodeStartupGracePeriod: "nodeStartupGracePeriodMs",
  resourceQuotaSyncPeriod: "resourceQuotaSyncPeriodMs",
} as const;

function readNumber(
  value: unknown,
  path: string,
  problems: Problems,
  max = Number.POSITIVE_INFINITY,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? "≥ 0" : `from 0 to ${max}`;
    problems.add(path, `must be a number ${range}, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

/** The plain numbers of `controllerManager:`: key, setting, and how each is read. */
const numberFields: readonly {
  readonly key: string;
  readonly field: keyof ControllerManagerSettings;
  readonly read: (value: unknown, path: string, problems: Problems) => number | undefined;
}[] = [
  { key: "nodeEvictionRate", field: "nodeEvictionRate", read: (v, p, q) => readNumber(v, p, q) },
  {
    key: "secondaryNodeEvictionRate",
    field: "secondaryNodeEvictionRate",
    read: (v, p, q) => readNumber(v, p, q),
  },
  {
    key: "largeClusterSizeThreshold",
    field: "largeClusterSizeThreshold",
    read: (v, p, q) => readInteger(v, p, q, 0),
  },
  {
    key: "unhealthyZoneThreshold",
    field: "unhealthyZoneThreshold",
    read: (v, p, q) => readNumber(v, p, q, 1),
  },
  {
    key: "terminatedPodGCThreshold",
    field: "terminatedPodGcThreshold",
    read: (v, p, q) => readInteger(v, p, q, 0),
  },
];

/** Reads `controllerManager:`; absent keys take `defaultControllerManagerSettings`. */
export function readControllerManagerSettings(
  value: unknown,
  path: string,
  problems: Problems,
): ControllerManagerSettings {
  const object = readObject(value, path, problems);
  if (object === undefined) return defaultControllerManagerSettings;
  checkKeys(object, controllerManagerFields, path, problems);
  const at = (key: string): string => childPath(path, key);
  const settings: { -readonly [K in keyof ControllerManagerSettings]: number } = {
    ...defaultControllerManagerSettings,
  };
  for (const [key, field] of Object.entries(durationFields)) {
    const ms = readDuration(object[key], at(key), problems);
    if (ms === undefined) continue;
    if (ms === 0) problems.add(at(key), "must be longer than 0s");
    else settings[field] = ms;
  }
  for (const { key, field, read } of numberFields) {
    const number = read(object[key], at(key), problems);
    if (number !== undefined) settings[field] = number;
  }
  if (settings.nodeMonitorGracePeriodMs < settings.nodeMonitorPeriodMs) {
    problems.add(
      at("nodeMonitorGracePeriod"),
      `${formatDuration(settings.nodeMonitorGracePeriodMs)} is shorter than nodeMonitorPeriod ${formatDuration(settings.nodeMonitorPeriodMs)}; make the grace period several monitor periods long`,
    );
  }
  return settings;
}

/**
 * A pool whose kubelets report less often than the grace period would be marked Unknown while
 * healthy: the node's Lease is renewed every quarter of its duration.
 */
export function heartbeatProblem(
  kubelet: { readonly nodeLeaseDurationSeconds: number },
  settings: ControllerManagerSettings,
  path: string,
): string | undefined {
  const renewMs = (kubelet.nodeLeaseDurationSeconds * 1000) / 4;
  if (renewMs < settings.nodeMonitorGracePeriodMs) return undefined;
  return `${childPath(path, "nodeLeaseDurationSeconds")}: the Lease is renewed every ${formatDuration(renewMs)}, not within controllerManager.nodeMonitorGracePeriod ${formatDuration(settings.nodeMonitorGracePeriodMs)}, so healthy nodes would be marked Unknown; use a shorter one, such as ${Math.max(1, Math.floor((settings.nodeMonitorGracePeriodMs * 4) / 1000 / 2))}`;
}
