/**
 * What the endpoints and endpointslice controllers share about pods and Services: upstream's
 * `endpointsliceutil.ShouldPodBeInEndpoints`, `ShouldSetHostname`, `podutil.FindPort`, the
 * address a pod serves a Service on, and the trigger-time tracker behind the
 * `endpoints.kubernetes.io/last-change-trigger-time` annotation.
 */
import {
  isIpv4,
  isPodTerminal,
  type ObjectReference,
  type Pod,
  parseIpSloppy,
  podCondition,
  type Service,
  type ServicePort,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";

type P = DeepReadonly<Pod>;
type S = DeepReadonly<Service>;

/** `v1.EndpointsLastChangeTriggerTime`. */
export const lastChangeTriggerTimeAnnotation = "endpoints.kubernetes.io/last-change-trigger-time";

/** `v1.IsHeadlessService`: on the Endpoints and EndpointSlices of a Service without a cluster IP. */
export const headlessServiceLabel = "service.kubernetes.io/headless";

/**
 * `ShouldPodBeInEndpoints`: not finished, has an IP, and (unless `includeTerminating`) not being
 * deleted.
 */
export function shouldPodBeInEndpoints(pod: P, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if ((pod.status?.podIP ?? "") === "" && (pod.status?.podIPs ?? []).length === 0) return false;
  return includeTerminating || pod.metadata.deletionTimestamp === undefined;
}

/** `ShouldSetHostname`: the pod's hostname, when its subdomain is this Service. */
export function shouldSetHostname(pod: P, service: S): boolean {
  return (
    (pod.spec?.hostname ?? "") !== "" &&
    pod.spec?.subdomain === service.metadata.name &&
    pod.metadata.namespace === service.metadata.namespace
  );
}

/** Whether the Service has no cluster IP (`!helper.IsServiceIPSet`): headless or none yet. */
export function isHeadless(service: S): boolean {
  const ip = service.spec?.clusterIP ?? "";
  return ip === "" || ip === "None";
}

/**
 * `FindPort`: a numeric target port as it is, a named one from the pod's containers (and
 * restartable init containers) with that name and the Service port's protocol; undefined when
 * the pod has no such port.
 */
export function findPort(pod: P, servicePort: DeepReadonly<ServicePort>): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === "number") return target;
  const protocol = servicePort.protocol ?? "TCP";
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === "Always"),
  ];
  for (const container of containers) {
    for (const port of container.ports ?? []) {
      if (port.name === target && (port.protocol ?? "TCP") === protocol) {
        return port.containerPort;
      }
    }
  }
  return undefined;
}

/** The pod's IPv4 address (gantry serves IPv4 single-stack Services), if it has one. */
export function podIpv4(pod: P): string | undefined {
  const candidates = [pod.status?.podIP ?? "", ...(pod.status?.podIPs ?? []).map((p) => p.ip)];
  return candidates.find((ip) => {
    const parsed = parseIpSloppy(ip);
    return parsed !== undefined && isIpv4(parsed);
  });
}

/** The `targetRef` of a pod's endpoint. */
export function podReference(pod: P): ObjectReference {
  return {
    kind: "Pod",
    namespace: pod.metadata.namespace ?? "",
    name: pod.metadata.name ?? "",
    uid: pod.metadata.uid ?? "",
  };
}

/**
 * Upstream's `TriggerTimeTracker`: remembers, per Service, the Ready transition times of its
 * pods and the Service's creation time seen at the last sync, and answers the earliest of
 * those that changed since (undefined when none did). One per controller, never shared.
 */
export class TriggerTimeTracker {
  readonly #states = new Map<string, { pods: Map<string, number>; service: number }>();

  compute(key: string, service: S, pods: readonly P[]): Date | undefined {
    const before = this.#states.get(key);
    let earliest: number | undefined;
    const consider = (t: number) => {
      earliest = earliest === undefined ? t : Math.min(earliest, t);
    };
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const when = Date.parse(podCondition(pod, "Ready")?.lastTransitionTime ?? "");
      if (Number.isNaN(when)) continue;
      const name = pod.metadata.name ?? "";
      podTimes.set(name, when);
      if (when > (before?.pods.get(name) ?? Number.NEGATIVE_INFINITY)) consider(when);
    }
    const created = Date.parse(service.metadata.creationTimestamp ?? "");
    const serviceTime = Number.isNaN(created) ? Number.NEGATIVE_INFINITY : created;
    if (serviceTime > (before?.service ?? Number.NEGATIVE_INFINITY)) consider(serviceTime);
    this.#states.set(key, { pods: podTimes, service: serviceTime });
    return earliest === undefined ? undefined : new Date(earliest);
  }

  forget(key: string): void {
    this.#states.delete(key);
  }
}

/** Label maps equal whatever their key order; a missing map is an empty one. */
export function sameLabels(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const x = Object.entries(a ?? {});
  return x.length === Object.keys(b ?? {}).length && x.every(([k, v]) => b?.[k] === v);
}
