/**
 * What the EndpointSlices of one Service must become: upstream's staging/src/k8s.io/endpointslice
 * reconciler in one pure function. Pods become endpoints (`podToEndpoint`), grouped by the
 * ports they resolve (`getEndpointPorts`); each group's existing slices keep their unchanged
 * endpoints in place, changed ones are replaced, new ones fill slices with room before new
 * slices of at most `maxEndpointsPerSlice` are made; slices of ports no pod has any more go
 * (or are recycled for a new group), and a Service with no endpoints keeps one empty
 * placeholder slice.
 */
import {
  type Endpoint,
  type EndpointSlice,
  type EndpointSlicePort,
  endpointSliceManagedByLabel,
  endpointSliceServiceNameLabel,
  isDns1123Subdomain,
  isPodReady,
  maskTrailingDash,
  type Node,
  type OwnerReference,
  type Pod,
  type Service,
  semanticEqual,
} from "../../api/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  findPort,
  headlessServiceLabel,
  isHeadless,
  podIpv4,
  podReference,
  sameLabels,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from "../framework/index.ts";

/** `endpointslice-controller.k8s.io`: the managed-by value of this controller's slices. */
export const controllerName = "endpointslice-controller.k8s.io";

/** `topology.kubernetes.io/zone`: copied from the pod's node to its endpoint's `zone`. */
export const zoneLabel = "topology.kubernetes.io/zone";

/** Upstream's --max-endpoints-per-slice default. */
export const defaultMaxEndpointsPerSlice = 100;

type P = DeepReadonly<Pod>;
type S = DeepReadonly<Service>;
type ES = DeepReadonly<EndpointSlice>;

export interface SlicePlan {
  /** New slices (with `generateName`). */
  readonly create: EndpointSlice[];
  /** Existing slices with new endpoints, ports or labels (whole objects, ready to PUT). */
  readonly update: EndpointSlice[];
  readonly delete: ES[];
}

/** `podToEndpoint`. */
export function podToEndpoint(
  pod: P,
  ip: string,
  node: DeepReadonly<Node> | undefined,
  service: S,
): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const endpoint: Endpoint = {
    addresses: [ip],
    conditions: { ready, serving, terminating },
    targetRef: podReference(pod),
  };
  const nodeName = pod.spec?.nodeName ?? "";
  if (nodeName !== "") endpoint.nodeName = nodeName;
  const zone = node?.metadata.labels?.[zoneLabel] ?? "";
  if (zone !== "") endpoint.zone = zone;
  if (shouldSetHostname(pod, service)) endpoint.hostname = pod.spec?.hostname ?? "";
  return endpoint;
}

/** `getEndpointPorts`: the Service's ports this pod resolves, sorted by name. */
export function endpointPorts(service: S, pod: P): EndpointSlicePort[] {
  const ports: EndpointSlicePort[] = [];
  for (const servicePort of service.spec?.ports ?? []) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const entry: EndpointSlicePort = {
      name: servicePort.name ?? "",
      port,
      protocol: servicePort.protocol ?? "TCP",
    };
    if (servicePort.appProtocol !== undefined) entry.appProtocol = servicePort.appProtocol;
    ports.push(entry);
  }
  return ports.sort(
    (a, b) => (a.name ?? "").localeCompare(b.name ?? "") || (a.port ?? 0) - (b.port ?? 0),
  );
}

/** `setEndpointSliceLabels`: the Service's labels, the headless label, and the reserved two. */
export function sliceLabels(service: S): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.metadata.labels ?? {})) {
    if (key === endpointSliceServiceNameLabel || key === endpointSliceManagedByLabel) continue;
    labels[key] = value;
  }
  if (isHeadless(service)) labels[headlessServiceLabel] = "";
  else delete labels[headlessServiceLabel];
  labels[endpointSliceServiceNameLabel] = service.metadata.name ?? "";
  labels[endpointSliceManagedByLabel] = controllerName;
  return labels;
}

/** `getEndpointSlicePrefix`: `<service>-` when that is a valid name prefix. */
export function slicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return isDns1123Subdomain(maskTrailingDash(prefix)).length === 0 ? prefix : serviceName;
}

/** `ownedBy`: the Service is the slice's controller. */
export function isOwnedBy(slice: ES, service: S): boolean {
  return (slice.metadata.ownerReferences ?? []).some(
    (ref) => ref.controller === true && ref.kind === "Service" && ref.uid === service.metadata.uid,
  );
}

function ownerOf(service: S): OwnerReference {
  return {
    apiVersion: "v1",
    kind: "Service",
    name: service.metadata.name ?? "",
    uid: service.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

const portsKey = (ports: readonly DeepReadonly<EndpointSlicePort>[] | null | undefined): string =>
  JSON.stringify(
    [...(ports ?? [])]
      .map((p) => [p.name ?? "", p.port ?? 0, p.protocol ?? "TCP", p.appProtocol ?? ""])
      .sort(),
  );

const endpointId = (e: DeepReadonly<Endpoint>): string =>
  e.targetRef?.uid !== undefined && e.targetRef.uid !== ""
    ? e.targetRef.uid
    : (e.addresses[0] ?? "");

interface Group {
  ports: EndpointSlicePort[];
  endpoints: Map<string, Endpoint>;
}

/** The desired endpoints of the Service's pods, grouped by the ports each resolves. */
export function desiredGroups(
  service: S,
  pods: readonly P[],
  nodeOf: (name: string) => DeepReadonly<Node> | undefined,
): Map<string, Group> {
  const groups = new Map<string, Group>();
  const sorted = [...pods].sort((a, b) =>
    (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""),
  );
  for (const pod of sorted) {
    // Terminating pods stay, with their terminating condition.
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ip = podIpv4(pod);
    if (ip === undefined) continue;
    const ports = endpointPorts(service, pod);
    const key = portsKey(ports);
    let group = groups.get(key);
    if (group === undefined) {
      group = { ports, endpoints: new Map() };
      groups.set(key, group);
    }
    const endpoint = podToEndpoint(pod, ip, nodeOf(pod.spec?.nodeName ?? ""), service);
    group.endpoints.set(endpointId(endpoint), endpoint);
  }
  return groups;
}

function newSlice(
  service: S,
  ports: EndpointSlicePort[],
  labels: Record<string, string>,
): EndpointSlice {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      generateName: slicePrefix(service.metadata.name ?? ""),
      namespace: service.metadata.namespace ?? "",
      labels: { ...labels },
      ownerReferences: [ownerOf(service)],
    },
    addressType: "IPv4",
    endpoints: [],
    ports,
  };
}

/**
 * The creates, updates and deletes that bring `existing` (this controller's IPv4 slices of the
 * Service, not being deleted) to what the pods need.
 */
export function planEndpointSlices(
  service: S,
  pods: readonly P[],
  nodeOf: (name: string) => DeepReadonly<Node> | undefined,
  existing: readonly ES[],
  maxEndpointsPerSlice = defaultMaxEndpointsPerSlice,
): SlicePlan {
  const labels = sliceLabels(service);
  const groups = desiredGroups(service, pods, nodeOf);
  const create: EndpointSlice[] = [];
  const update = new Map<string, EndpointSlice>();
  const remove: ES[] = [];
  const byKey = new Map<string, ES[]>();
  const sortedExisting = [...existing].sort((a, b) =>
    (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""),
  );
  for (const slice of sortedExisting) {
    if (slice.addressType !== "IPv4" || !isOwnedBy(slice, service)) {
      remove.push(slice);
      continue;
    }
    const key = portsKey(slice.ports);
    byKey.set(key, [...(byKey.get(key) ?? []), slice]);
  }
  const copy = (slice: ES): EndpointSlice => structuredClone(slice) as EndpointSlice;

  for (const [key, slices] of byKey) {
    const group = groups.get(key);
    if (group === undefined) {
      remove.push(...slices);
      continue;
    }
    const unchanged: EndpointSlice[] = [];
    const changed: EndpointSlice[] = [];
    for (const slice of slices) {
      const kept: Endpoint[] = [];
      let dirty = !sameLabels(slice.metadata.labels, labels);
      for (const endpoint of slice.endpoints ?? []) {
        const id = endpointId(endpoint);
        const wanted = group.endpoints.get(id);
        if (wanted === undefined) {
          dirty = true;
          continue;
        }
        if (!semanticEqual(wanted, endpoint)) dirty = true;
        kept.push(wanted);
        group.endpoints.delete(id);
      }
      const next = copy(slice);
      next.endpoints = kept;
      next.metadata.labels = { ...labels };
      if (dirty && kept.length === 0) remove.push(slice);
      else if (dirty) changed.push(next);
      else unchanged.push(next);
    }
    // New endpoints fill slices being written anyway, then unchanged ones with room.
    const pending = [...group.endpoints.values()];
    for (const slice of [...changed, ...unchanged]) {
      const endpoints = slice.endpoints ?? [];
      while (pending.length > 0 && endpoints.length < maxEndpointsPerSlice) {
        endpoints.push(pending.shift() as Endpoint);
        if (!changed.includes(slice)) changed.push(slice);
      }
      slice.endpoints = endpoints;
    }
    for (const slice of changed) update.set(slice.metadata.name ?? "", slice);
    while (pending.length > 0) {
      const slice = newSlice(service, group.ports, labels);
      slice.endpoints = pending.splice(0, maxEndpointsPerSlice);
      create.push(slice);
    }
    groups.delete(key);
  }
  // Port groups no slice has yet.
  for (const group of groups.values()) {
    const pending = [...group.endpoints.values()];
    while (pending.length > 0) {
      const slice = newSlice(service, group.ports, labels);
      slice.endpoints = pending.splice(0, maxEndpointsPerSlice);
      create.push(slice);
    }
  }

  // With nothing left, one empty placeholder slice says the Service is managed here.
  const survivors = existing.length - remove.length;
  if (survivors === 0 && create.length === 0) {
    const placeholder = remove.find(
      (s) =>
        s.addressType === "IPv4" &&
        isOwnedBy(s, service) &&
        (s.endpoints ?? []).length === 0 &&
        (s.ports ?? []).length === 0,
    );
    if (placeholder !== undefined && remove.length === 1) {
      remove.length = 0;
      if (!sameLabels(placeholder.metadata.labels, labels)) {
        const next = copy(placeholder);
        next.metadata.labels = { ...labels };
        update.set(next.metadata.name ?? "", next);
      }
    } else {
      create.push(newSlice(service, [], labels));
    }
  }

  // Slices about to go are recycled for slices about to be made (`finalize`).
  while (create.length > 0) {
    const recyclable = remove.findIndex((s) => s.addressType === "IPv4");
    if (recyclable < 0) break;
    const [old] = remove.splice(recyclable, 1);
    const made = create.shift() as EndpointSlice;
    if (old === undefined) break;
    const next = copy(old);
    next.metadata.labels = made.metadata.labels ?? {};
    next.metadata.ownerReferences = made.metadata.ownerReferences ?? [];
    next.endpoints = made.endpoints;
    next.ports = made.ports ?? [];
    update.set(next.metadata.name ?? "", next);
  }
  return { create, update: [...update.values()], delete: remove };
}
