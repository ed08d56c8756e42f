/**
 * The `kubernetes` Service in `default`, as kube-apiserver keeps it (pkg/controlplane/controller/
 * kubernetesservice and the lease endpoint reconciler): ClusterIP 10.96.0.1, port `https`
 * 443/TCP to the API server's secure port, labels `component=apiserver` and
 * `provider=kubernetes`, no selector; its Endpoints list every API server's address (each
 * server adds its own at start and every 10 s, and takes it out when it stops, unless it is the
 * last), and the EndpointSlice `kubernetes` mirrors the Endpoints' first subset, as upstream's
 * EndpointsAdapter writes it.
 */
import { networkInterfaces } from "node:os";
import {
  ApiError,
  type EndpointSlice,
  type EndpointSubset,
  type Endpoints,
  fieldPath,
  isIpv4,
  type KubeObject,
  parseIpSloppy,
  type Service,
  validateNonSpecialIp,
} from "../api/index.ts";
import type { ApiServer } from "../apiserver/index.ts";
import { type Clock, errorMessage, type Logger } from "../util/index.ts";

export const kubernetesServiceName = "kubernetes";
/** The first host of 10.96.0.0/12, which the allocator never hands out. */
export const kubernetesServiceIp = "10.96.0.1";
/** kube-apiserver's `--endpoint-reconciler` interval. */
export const endpointReconcileIntervalMs = 10_000;
/** `discovery.LabelSkipMirror`: the mirroring controller leaves these Endpoints alone. */
const skipMirrorLabel = "endpointslice.kubernetes.io/skip-mirror";

/** One API server's entry in the Endpoints. */
export interface ApiServerAddress {
  readonly ip: string;
  readonly port: number;
}

const context = () => ({
  user: { username: "system:apiserver", groups: ["system:masters"] },
  dryRun: false,
  fieldManager: "kube-apiserver",
  warnings: [] as string[],
  subresource: "",
});

/**
 * The address the Endpoints list for this server: the advertised host when it is an IPv4
 * address an endpoint may have, else (loopback or unspecified, as a local `gantry up` binds) the
 * first non-internal IPv4 address of the machine, as kube-apiserver's `ChooseHostInterface`;
 * undefined when there is none.
 */
export function endpointAddressFor(
  advertised: string,
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): string | undefined {
  const usable = (ip: string): boolean => {
    const parsed = parseIpSloppy(ip);
    return (
      parsed !== undefined &&
      isIpv4(parsed) &&
      validateNonSpecialIp(ip, fieldPath("ip")).length === 0
    );
  };
  if (usable(advertised)) return advertised;
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) {
      if (entry.family === "IPv4" && !entry.internal && usable(entry.address)) return entry.address;
    }
  }
  return undefined;
}

/** The Service as `CreateOrUpdateMasterServiceIfNeeded` makes it. */
export function kubernetesService(securePort: number): Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: kubernetesServiceName,
      namespace: "default",
      labels: { component: "apiserver", provider: "kubernetes" },
    },
    spec: {
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: securePort }],
      clusterIP: kubernetesServiceIp,
      sessionAffinity: "None",
      type: "ClusterIP",
    },
  };
}

function addressesOf(endpoints: Endpoints | undefined): ApiServerAddress[] {
  const out: ApiServerAddress[] = [];
  for (const subset of endpoints?.subsets ?? []) {
    for (const port of subset.ports ?? []) {
      for (const address of subset.addresses ?? []) out.push({ ip: address.ip, port: port.port });
    }
  }
  return out;
}

/**
 * Pure: the subsets with `self` added (`present`) or taken out, one subset per port with its
 * addresses sorted; undefined when taking it out would leave none (upstream refuses to erase
 * every API server's address).
 */
export function kubernetesSubsets(
  current: Endpoints | undefined,
  self: ApiServerAddress,
  present: boolean,
): EndpointSubset[] | undefined {
  const others = addressesOf(current).filter((a) => a.ip !== self.ip || a.port !== self.port);
  const all = present ? [...others, self] : others;
  if (all.length === 0) return undefined;
  const ports = [...new Set(all.map((a) => a.port))].sort((a, b) => a - b);
  return ports.map((port) => ({
    addresses: [...new Set(all.filter((a) => a.port === port).map((a) => a.ip))]
      .sort()
      .map((ip) => ({ ip })),
    ports: [{ name: "https", port, protocol: "TCP" }],
  }));
}

/** `endpointSliceFromEndpoints`: the first subset's ports and addresses, IPv4. */
export function kubernetesEndpointSlice(subsets: readonly EndpointSubset[]): EndpointSlice {
  const first = subsets[0];
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      name: kubernetesServiceName,
      namespace: "default",
      labels: { "kubernetes.io/service-name": kubernetesServiceName },
    },
    addressType: "IPv4",
    endpoints: [
      ...(first?.addresses ?? []).map((a) => ({ addresses: [a.ip], conditions: { ready: true } })),
      ...(first?.notReadyAddresses ?? []).map((a) => ({
        addresses: [a.ip],
        conditions: { ready: false },
      })),
    ],
    ports: (first?.ports ?? []).map((p) => ({
      name: p.name ?? "",
      port: p.port,
      protocol: p.protocol ?? "TCP",
    })),
  };
}

type Store = NonNullable<ReturnType<ApiServer["store"]>>;

function storeOf(server: ApiServer, group: string, resource: string): Store {
  const store = server.store(group, "v1", resource);
  if (store === undefined) throw new RangeError(`Cannot find the ${resource} store`);
  return store;
}

const isReason = (error: unknown, reason: string): boolean =>
  error instanceof ApiError && error.reason === reason;

/** Creates `object` unless it exists; otherwise `update` rewrites the stored one (or returns it). */
async function createOrUpdate(
  store: Store,
  object: KubeObject,
  update: (current: KubeObject) => KubeObject | undefined,
): Promise<void> {
  const name = object.metadata.name ?? "";
  for (;;) {
    let exists = true;
    try {
      await store.get("default", name);
    } catch (error: unknown) {
      if (!isReason(error, "NotFound")) throw error;
      exists = false;
    }
    if (!exists) {
      try {
        await store.create("default", structuredClone(object), context());
        return;
      } catch (error: unknown) {
        // Another API server made it first: update theirs.
        if (!isReason(error, "AlreadyExists")) throw error;
        continue;
      }
    }
    await store.update("default", name, (current) => update(current) ?? current, context());
    return;
  }
}

/** Creates the `kubernetes` Service unless it exists (an existing one is left as it is). */
export async function ensureKubernetesService(
  server: ApiServer,
  securePort: number,
): Promise<void> {
  await createOrUpdate(
    storeOf(server, "", "services"),
    kubernetesService(securePort),
    () => undefined,
  );
}

/** Puts this server's address into (or, on shutdown, out of) the Endpoints and the slice. */
export async function reconcileKubernetesEndpoints(
  server: ApiServer,
  self: ApiServerAddress,
  present: boolean,
): Promise<void> {
  const endpoints = storeOf(server, "", "endpoints");
  const update = (current: KubeObject): KubeObject | undefined => {
    const subsets = kubernetesSubsets(current as Endpoints, self, present);
    if (subsets === undefined) return undefined;
    const next = structuredClone(current) as Endpoints;
    next.subsets = subsets;
    next.metadata.labels = { ...(next.metadata.labels ?? {}), [skipMirrorLabel]: "true" };
    return next;
  };
  if (present) {
    const fresh: Endpoints = {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: {
        name: kubernetesServiceName,
        namespace: "default",
        labels: { [skipMirrorLabel]: "true" },
      },
      subsets: kubernetesSubsets(undefined, self, true) ?? [],
    };
    await createOrUpdate(endpoints, fresh, update);
  } else {
    try {
      await endpoints.update("default", kubernetesServiceName, (c) => update(c) ?? c, context());
    } catch (error: unknown) {
      if (isReason(error, "NotFound")) return;
      throw error;
    }
  }
  const stored = (await endpoints.get("default", kubernetesServiceName)) as Endpoints;
  const slice = kubernetesEndpointSlice(stored.subsets ?? []);
  await createOrUpdate(storeOf(server, "discovery.k8s.io", "endpointslices"), slice, (current) => {
    const have = current as EndpointSlice;
    const same =
      JSON.stringify([have.endpoints, have.ports, have.metadata.labels, have.addressType]) ===
      JSON.stringify([slice.endpoints, slice.ports, slice.metadata.labels, slice.addressType]);
    if (same) return undefined;
    return {
      ...structuredClone(have),
      addressType: slice.addressType,
      endpoints: slice.endpoints,
      ports: slice.ports,
      metadata: { ...structuredClone(have.metadata), labels: slice.metadata.labels ?? {} },
    } as EndpointSlice;
  });
}

export interface KubernetesServiceDeps {
  readonly server: ApiServer;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Writes the Service and this server's address once (awaited), then keeps the address in every
 * 10 s until `signal` aborts; the returned `stopped` resolves after the loop has ended and the
 * address has been taken out again.
 */
export async function startKubernetesServiceReconciler(
  deps: KubernetesServiceDeps,
  self: ApiServerAddress | undefined,
  securePort: number,
  signal: AbortSignal,
): Promise<{ readonly stopped: Promise<void> }> {
  const reconcile = async (): Promise<void> => {
    try {
      await ensureKubernetesService(deps.server, securePort);
      if (self !== undefined) await reconcileKubernetesEndpoints(deps.server, self, true);
    } catch (error: unknown) {
      deps.logger.error("Cannot reconcile the kubernetes Service", { error: errorMessage(error) });
    }
  };
  await reconcile();
  if (self === undefined) {
    deps.logger.info(
      "No IPv4 address for the kubernetes Service's endpoints; leaving them out",
      {},
    );
    return { stopped: Promise.resolve() };
  }
  const loop = async (): Promise<void> => {
    while (!signal.aborted) {
      try {
        await deps.clock.sleep(endpointReconcileIntervalMs, signal);
      } catch (error: unknown) {
        if (signal.aborted) break;
        throw error;
      }
      await reconcile();
    }
    try {
      await reconcileKubernetesEndpoints(deps.server, self, false);
    } catch (error: unknown) {
      deps.logger.error("Cannot remove this API server from the kubernetes Service's endpoints", {
        error: errorMessage(error),
      });
    }
  };
  return { stopped: loop() };
}
