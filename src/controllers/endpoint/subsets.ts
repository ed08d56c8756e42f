/**
 * The Endpoints a Service's pods make: upstream's `syncService` loop (addEndpointSubset for each
 * pod and port) followed by `RepackSubsets`, which merges addresses that offer the same ports.
 * Pure.
 */
import {
  type EndpointAddress,
  type EndpointPort,
  type EndpointSubset,
  isPodReady,
  type Pod,
  parseIpSloppy,
  type Service,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  findPort,
  podIpv4,
  podReference,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from "../framework/index.ts";

type P = DeepReadonly<Pod>;
type S = DeepReadonly<Service>;

interface Entry {
  readonly address: EndpointAddress;
  readonly ready: boolean;
  /** undefined: a headless Service without ports. */
  readonly port: EndpointPort | undefined;
}

/** The address a pod serves the Service on (`podToEndpointAddressForService`), if it has one. */
function addressOf(pod: P, service: S): EndpointAddress | undefined {
  const ip = podIpv4(pod);
  if (ip === undefined) return undefined;
  const address: EndpointAddress = { ip };
  // Upstream always points at the pod's nodeName; an unbound pod (which has no IP in practice)
  // gets none rather than an empty name that validation would refuse.
  const nodeName = pod.spec?.nodeName ?? "";
  if (nodeName !== "") address.nodeName = nodeName;
  address.targetRef = podReference(pod);
  if (shouldSetHostname(pod, service)) address.hostname = pod.spec?.hostname ?? "";
  return address;
}

/** Every (address, readiness, port) the Service's pods contribute, in pod order. */
function entriesFor(service: S, pods: readonly P[]): Entry[] {
  const spec = service.spec ?? {};
  const publishNotReady = spec.publishNotReadyAddresses === true;
  const entries: Entry[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = addressOf(pod, service);
    if (address === undefined) continue;
    const ready = publishNotReady || isPodReady(pod);
    const ports = spec.ports ?? [];
    // A headless Service may have no ports: its addresses alone.
    if (ports.length === 0) {
      if (spec.clusterIP === "None") entries.push({ address, ready, port: undefined });
      continue;
    }
    for (const servicePort of ports) {
      const port = findPort(pod, servicePort);
      // A named target port this pod does not have: the pod is not behind this port.
      if (port === undefined) continue;
      const endpointPort: EndpointPort = {
        name: servicePort.name ?? "",
        port,
        protocol: servicePort.protocol ?? "TCP",
      };
      if (servicePort.appProtocol !== undefined) endpointPort.appProtocol = servicePort.appProtocol;
      entries.push({ address, ready, port: endpointPort });
    }
  }
  return entries;
}

const addressKey = (a: EndpointAddress): string => `${a.ip}/${a.targetRef?.uid ?? ""}`;

/** `LessEndpointAddress`: by the address's bytes, then the target's UID. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const x = parseIpSloppy(a.ip) ?? [];
  const y = parseIpSloppy(b.ip) ?? [];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return (a.targetRef?.uid ?? "").localeCompare(b.targetRef?.uid ?? "");
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  return (
    (a.name ?? "").localeCompare(b.name ?? "") ||
    a.port - b.port ||
    (a.protocol ?? "").localeCompare(b.protocol ?? "")
  );
}

/**
 * `RepackSubsets`: one subset per set of (address, readiness) pairs, listing every port those
 * addresses share; an address ready on a port stays ready there. Addresses are sorted by IP,
 * ports by name and number, subsets by their first address.
 */
export function repackSubsets(entries: readonly Entry[]): EndpointSubset[] {
  const byPort = new Map<string, { port: EndpointPort | undefined; addrs: Map<string, Entry> }>();
  for (const entry of entries) {
    const portKey = entry.port === undefined ? "" : JSON.stringify(entry.port);
    let group = byPort.get(portKey);
    if (group === undefined) {
      group = { port: entry.port, addrs: new Map() };
      byPort.set(portKey, group);
    }
    const key = addressKey(entry.address);
    const seen = group.addrs.get(key);
    if (seen === undefined || (!seen.ready && entry.ready)) group.addrs.set(key, entry);
  }
  const bySet = new Map<string, { entries: Entry[]; ports: EndpointPort[] }>();
  for (const group of byPort.values()) {
    const members = [...group.addrs.values()];
    const setKey = members
      .map((e) => `${addressKey(e.address)}=${e.ready}`)
      .sort()
      .join(",");
    let subset = bySet.get(setKey);
    if (subset === undefined) {
      subset = { entries: members, ports: [] };
      bySet.set(setKey, subset);
    }
    if (group.port !== undefined) subset.ports.push(group.port);
  }
  const subsets: EndpointSubset[] = [];
  for (const { entries: members, ports } of bySet.values()) {
    const subset: EndpointSubset = {};
    const ready = members.filter((e) => e.ready).map((e) => e.address);
    const notReady = members.filter((e) => !e.ready).map((e) => e.address);
    if (ready.length > 0) subset.addresses = ready.sort(compareAddresses);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (ports.length > 0) subset.ports = ports.sort(comparePorts);
    subsets.push(subset);
  }
  const first = (s: EndpointSubset): EndpointAddress | undefined =>
    s.addresses?.[0] ?? s.notReadyAddresses?.[0];
  return subsets.sort((a, b) => {
    const x = first(a);
    const y = first(b);
    const byAddress = x === undefined || y === undefined ? 0 : compareAddresses(x, y);
    return byAddress || JSON.stringify(a.ports ?? []).localeCompare(JSON.stringify(b.ports ?? []));
  });
}

/** The subsets of the Service's Endpoints, from the pods its selector matches. */
export function computeEndpointSubsets(service: S, pods: readonly P[]): EndpointSubset[] {
  return repackSubsets(entriesFor(service, pods));
}

/** `maxCapacity`: Endpoints hold at most 1000 addresses; the rest are dropped. */
export const maxEndpointsCapacity = 1000;

/** `endpoints.kubernetes.io/over-capacity`: set to `truncated` when addresses were dropped. */
export const overCapacityAnnotation = "endpoints.kubernetes.io/over-capacity";

/**
 * `truncateEndpoints`: keeps at most 1000 addresses. When the ready ones alone are too many,
 * every subset keeps its share of them (rounded up) and no not-ready ones; otherwise the
 * not-ready ones are cut in the same way. Returns whether anything was dropped.
 */
export function truncateSubsets(subsets: EndpointSubset[]): boolean {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += s.addresses?.length ?? 0;
    notReady += s.notReadyAddresses?.length ?? 0;
  }
  if (ready + notReady <= maxEndpointsCapacity) return false;
  const truncateReady = ready > maxEndpointsCapacity;
  const max = truncateReady ? maxEndpointsCapacity : maxEndpointsCapacity - ready;
  const total = truncateReady ? ready : notReady;
  let room = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses?.length : s.notReadyAddresses?.length) ?? 0;
    const share = Math.min(Math.ceil((inSubset / total) * max), room);
    if (truncateReady) {
      s.addresses = (s.addresses ?? []).slice(0, share);
      delete s.notReadyAddresses;
      room -= s.addresses.length;
      if (s.addresses.length === 0) delete s.addresses;
    } else {
      s.notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, share);
      room -= s.notReadyAddresses.length;
      if (s.notReadyAddresses.length === 0) delete s.notReadyAddresses;
    }
  }
  return true;
}
