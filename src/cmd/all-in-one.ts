import { randomBytes, X509Certificate } from "node:crypto";
import { setMaxListeners } from "node:events";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { Registry } from "prom-client";
import { builtInKinds, defaultTolerations, generateJobSelector, qosClassOf } from "../api/index.ts";
import {
  ApiServer,
  type ApiServerOptions,
  type AuditLog,
  type Authenticator,
  newAnonymousAuthenticator,
  newClientCertificateAuthenticator,
  newGangAdmission,
  newRbacAuthorizer,
  newStaticTokenAuthenticator,
  newTokenAuthenticator,
  type ObjectLookup,
  type ObjectReader,
  type PodSecurityConfiguration,
  parseTokenFile,
  withClientCertificates,
} from "../apiserver/index.ts";
import type { NodeFleet } from "../kubelet/index.ts";
import { newQueueingMetrics, parseQueueingConfig, type QueueingConfig } from "../queueing/index.ts";
import { runCompactor, type Storage } from "../storage/index.ts";
import { type Logger, systemClock, systemRandom } from "../util/index.ts";
import { bootstrap } from "./bootstrap.ts";
import {
  controlPlaneCredentials,
  ensureClientCertificates,
  readCertificateBundle,
  writeCredentialKubeconfigs,
} from "./client-certificates.ts";
import { type ComponentSocket, listenComponentSocket } from "./component-socket.ts";
import { type Components, type ComponentsOptions, startComponents } from "./components.ts";
import { renderKubeconfig } from "./kubeconfig.ts";
import { endpointAddressFor, startKubernetesServiceReconciler } from "./kubernetes-service.ts";
import { type AuditSettings, openAuditLog, preciseNow } from "./overload-flags.ts";
import { queueingAdmission } from "./queueing-admission.ts";
import {
  ensureDefaultServiceAccounts,
  newServiceAccountIssuer,
  type ServiceAccountSettings,
} from "./service-accounts.ts";
import { type EtcdSettings, openStorage, type StorageKind } from "./storage.ts";
import { advertisedHost, ensurePki, isLoopbackAddress, isUnspecifiedAddress } from "./tls.ts";

export interface AllInOneOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly address: string;
  readonly storage: StorageKind;
  /** Where etcd is, for `storage: "etcd"`. */
  readonly etcd?: EtcdSettings;
  readonly logger: Logger;
  /**
   * Serve https with a CA, serving certificate and admin token kept in `DATA_DIR/pki/`, and
   * require the token. Without it the address must be a loopback one (anonymous plain http).
   * @default undefined (plain http)
   */
  readonly tls?: {
    /** Extra names and addresses for the serving certificate (`--tls-san`). */
    readonly sans: readonly string[];
  };
  /** Receives human-readable progress lines for slow start-up steps. @default ignored */
  readonly progress?: (line: string) => void;
  /**
   * The scheduler, controllers and emulated nodes to run beside the API server. Without them
   * only the API server runs (`gantry apiserver`). @default none
   */
  readonly components?: ComponentsOptions;
  /**
   * The queueing pod webhook's config when the API server runs alone (`gantry apiserver`; the
   * controllers then run in `gantry queueing`). With `components`, their queueing config is
   * used instead. @default no webhook without components
   */
  readonly queueing?: QueueingConfig;
  /**
   * Read-only requests served at once (`--max-requests-inflight`); more get a 429. 0: no limit.
   * @default 400
   */
  readonly maxRequestsInFlight?: number;
  /**
   * Mutating requests served at once (`--max-mutating-requests-inflight`); 0: no limit.
   * @default 200
   */
  readonly maxMutatingRequestsInFlight?: number;
  /**
   * API priority and fairness (`--enable-priority-and-fairness`): the priority levels share the
   * two limits' seats and each user's requests wait in fair queues; false: the two limits alone.
   * @default true
   */
  readonly enablePriorityAndFairness?: boolean;
  /** `--request-timeout` for requests that are not long-running, in ms. @default 60000 */
  readonly requestTimeoutMs?: number;
  /** Watches one user may have open at once (`--max-watches-per-user`); 0: no cap. @default 1000 */
  readonly maxWatchesPerUser?: number;
  /** The audit policy and log (`--audit-policy-file`, `--audit-log-*`). @default no auditing */
  readonly audit?: AuditSettings;
  /**
   * `strict` rejects a pod naming a PodGroup that does not exist, and a PodGroup whose Workload
   * or template does not (`--gang-admission`). @default "lenient"
   */
  readonly gangAdmission?: "lenient" | "strict";
  /**
   * `RBAC` authorizes every request against roles and bindings (`system:masters`, the admin
   * token's group, may do anything); `AlwaysAllow` lets every authenticated request through
   * (`--authorization-mode`). @default "RBAC" with `tls`, "AlwaysAllow" on plain http
   */
  readonly authorizationMode?: "RBAC" | "AlwaysAllow";
  /**
   * A static token file (`--token-auth-file`: `token,user,uid,"group1,group2"` per line) whose
   * users authenticate beside the admin. @default none
   */
  readonly tokenAuthFile?: string;
  /**
   * PodSecurity admission's defaults and exemptions (from `--admission-control-config-file`).
   * @default privileged everywhere, no exemptions
   */
  readonly podSecurity?: PodSecurityConfiguration;
  /**
   * A PEM bundle of CAs whose client certificates identify users (`--client-ca-file`), trusted
   * beside the cluster CA; needs `tls`. @default only the cluster CA
   */
  readonly clientCaFile?: string;
  /**
   * The dashboard's built bundle, served at `/ui/` (a 503 there until `npm run build:ui` has
   * built it). @default the checkout's dist/ui
   */
  readonly dashboardDir?: string;
  /**
   * Service accounts: bound tokens signed with DATA_DIR/pki/sa.key (TokenRequest, their
   * authentication, the issuer's discovery documents), each bootstrap namespace's `default`
   * ServiceAccount, and the ServiceAccount admission plugin when `admission` is set.
   * @default none (`gantry up` and `gantry apiserver` always pass the flags' settings)
   */
  readonly serviceAccounts?: ServiceAccountSettings;
  /**
   * Admission plugins left out (`--disable-admission-plugins`: `LimitRanger`, `ResourceQuota`).
   * @default none
   */
  readonly disabledAdmissionPlugins?: readonly string[];
}

/** Where `npm run build:ui` writes the dashboard (src/dashboard/vite.config.ts). */
export const defaultDashboardDir = join(import.meta.dirname, "..", "..", "dist", "ui");

/** A running control plane in one process. */
export interface AllInOne extends AsyncDisposable {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly server: ApiServer;
  /** The emulated nodes, when `components.cluster` was given. */
  readonly fleet: NodeFleet | undefined;
  /** What runs beside the API server: in this thread or in worker threads; a failure. */
  readonly components: Components;
  close(): Promise<void>;
}

/** The message `gantry up` prints when asked to serve plain http beyond loopback. */
export function plainHttpRefusal(address: string): string {
  return `Cannot serve plain http on ${address}: plain http is allowed only on a loopback address (127.0.0.1, ::1 or localhost), with anonymous access. Add --tls to serve https with a generated CA, serving certificate and bearer token, or bind --address 127.0.0.1`;
}

/** Starts storage, the API server and the HTTP(S) listener; writes the kubeconfig. */
export async function startAllInOne(options: AllInOneOptions): Promise<AllInOne> {
  if (options.tls === undefined && !isLoopbackAddress(options.address)) {
    throw new Error(plainHttpRefusal(options.address));
  }
  const progress = options.progress ?? (() => undefined);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const pki =
    options.tls === undefined
      ? undefined
      : await ensurePki({
          dir: join(dataDir, "pki"),
          hosts: [options.address, ...options.tls.sans],
          now: systemClock.now(),
          progress,
        });
  if (options.clientCaFile !== undefined && pki === undefined) {
    throw new Error("Cannot use a client CA file without tls: client certificates need https");
  }
  // As kubeadm: the admin and each separately run component get a client certificate.
  const clientCertificates =
    pki === undefined
      ? undefined
      : await ensureClientCertificates({
          dir: join(dataDir, "pki"),
          credentials: controlPlaneCredentials,
          now: systemClock.now(),
          progress,
        });
  const clientCas =
    pki === undefined
      ? []
      : [
          pki.caCertPem,
          ...(options.clientCaFile === undefined
            ? []
            : readCertificateBundle(options.clientCaFile)),
        ];
  // Plain http: kubectl sends no credentials to http servers, so everyone is anonymous; the
  // kubeconfig's token only matters to clients that send it anyway.
  const token = pki?.adminToken ?? randomBytes(24).toString("base64url");
  const serviceAccountTokens =
    options.serviceAccounts === undefined
      ? undefined
      : await newServiceAccountIssuer(options.serviceAccounts, {
          pkiDir: join(dataDir, "pki"),
          clock: systemClock,
          logger: options.logger,
          progress,
        });
  // Service account tokens are checked against the watch cache of the API server made below.
  let liveObjects: ObjectReader | undefined;
  const tokenUsers = [
    ...(options.tokenAuthFile === undefined
      ? []
      : [
          newStaticTokenAuthenticator(
            parseTokenFile(readFileSync(options.tokenAuthFile, "utf8"), options.tokenAuthFile),
          ),
        ]),
    ...(serviceAccountTokens === undefined
      ? []
      : [
          serviceAccountTokens.authenticator(
            (resource, namespace, name) =>
              liveObjects?.get(resource, namespace, name) as ReturnType<ObjectLookup>,
          ),
        ]),
  ];
  const authenticate: Authenticator =
    pki === undefined
      ? newAnonymousAuthenticator(token, tokenUsers)
      : withClientCertificates(
          newClientCertificateAuthenticator({
            roots: clientCas.map((pem) => new X509Certificate(pem)),
            now: () => systemClock.now(),
          }),
          newTokenAuthenticator(token, undefined, tokenUsers),
        );
  const authorizationMode =
    options.authorizationMode ?? (pki === undefined ? "AlwaysAllow" : "RBAC");

  // Kueue's plain-pod queueing runs with the components: its webhook, its controllers and its
  // metrics (on the API server's /metrics). The cluster config's raw `queueing:` section, when
  // kept, configures it; without one it is on and inert until pods carry a queue name.
  const metricsRegistry = new Registry();
  const queueingConfig =
    options.components === undefined
      ? options.queueing
      : (options.components.queueing?.config ??
        parseQueueingConfig(
          (options.components.cluster as { queueing?: unknown } | undefined)?.queueing,
        ));
  const queueingMetrics =
    queueingConfig?.enabled === true ? newQueueingMetrics(metricsRegistry) : undefined;
  const storage: Storage = await openStorage(options.storage, dataDir, options.etcd);
  const auditLog =
    options.audit === undefined ? undefined : await openAuditLog(options.audit, options.logger);
  const apiServer = await newApiServerOrClose(storage, auditLog, {
    storage,
    clock: systemClock,
    random: systemRandom,
    logger: options.logger,
    authenticate,
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    defaultTolerations: defaultTolerations as never,
    generateJobSelector: generateJobSelector as never,
    metricsRegistry,
    ...(authorizationMode === "RBAC" ? { authorize: newRbacAuthorizer } : {}),
    dashboardDir: options.dashboardDir ?? defaultDashboardDir,
    ...(options.podSecurity === undefined ? {} : { podSecurity: options.podSecurity }),
    extraAdmission: (reader) => [
      ...(options.gangAdmission === "strict" ? [newGangAdmission(reader)] : []),
      ...(queueingConfig?.enabled === true
        ? queueingAdmission(queueingConfig, queueingMetrics)(reader)
        : []),
    ],
    ...(options.maxRequestsInFlight === undefined
      ? {}
      : { maxRequestsInFlight: options.maxRequestsInFlight }),
    ...(options.maxMutatingRequestsInFlight === undefined
      ? {}
      : { maxMutatingRequestsInFlight: options.maxMutatingRequestsInFlight }),
    enablePriorityAndFairness: options.enablePriorityAndFairness ?? true,
    ...(options.requestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.requestTimeoutMs }),
    maxWatchesPerUser: options.maxWatchesPerUser ?? 1000,
    ...(auditLog === undefined || options.audit === undefined
      ? {}
      : { audit: { policy: options.audit.policy, sink: auditLog, now: preciseNow } }),
    ...(serviceAccountTokens === undefined ? {} : { serviceAccountTokens }),
    serviceAccountAdmission: options.serviceAccounts?.admission === true,
    ...(options.disabledAdmissionPlugins === undefined
      ? {}
      : { disabledAdmissionPlugins: options.disabledAdmissionPlugins }),
  });
  liveObjects = apiServer.reader;
  const stop = new AbortController();
  const { done } = await apiServer.start(stop.signal);
  done.catch((error: unknown) => options.logger.error("Watch cache failed", { error }));
  await bootstrap(apiServer);
  if (options.serviceAccounts !== undefined) await ensureDefaultServiceAccounts(apiServer);
  // As kube-apiserver's --etcd-compaction-interval: old revisions go every 5 minutes.
  const compactor = runCompactor(
    { storage, clock: systemClock, logger: options.logger },
    {},
    stop.signal,
  );

  // One handler for the TCP port and the components' socket: one set of OpenAPI documents.
  const handler = apiServer.handler();
  const http: Server =
    pki === undefined
      ? createServer({ keepAliveTimeout: 65_000 }, handler)
      : createTlsServer(
          {
            keepAliveTimeout: 65_000,
            cert: pki.servingCertPem,
            key: pki.servingKeyPem,
            // Ask for a client certificate but let token clients in: the x509 authenticator
            // decides, as kube-apiserver's --client-ca-file does.
            ca: clientCas,
            requestCert: true,
            rejectUnauthorized: false,
          },
          handler,
        );
  const bindAddress = options.address.replace(/^\[(.*)\]$/, "$1");
  try {
    await new Promise<void>((resolveListen, reject) => {
      http.once("error", reject);
      http.listen(options.port, bindAddress, () => resolveListen());
    });
  } catch (error: unknown) {
    stop.abort();
    await done.catch(() => undefined);
    await compactor;
    await storage.close();
    await auditLog?.close();
    throw error;
  }
  const port = (http.address() as AddressInfo).port;
  const hostOf = (address: string): string => (address.includes(":") ? `[${address}]` : address);
  const bound = hostOf(bindAddress);
  const advertised = hostOf(advertisedHost(options.address, options.tls?.sans ?? []));
  const url = `${pki === undefined ? "http" : "https"}://${advertised}:${port}`;
  apiServer.setAddress(`${advertised}:${port}`);
  // The kubernetes Service and this server's address in its endpoints, before anyone asks.
  const stopKubernetesService = new AbortController();
  const endpointIp = endpointAddressFor(advertisedHost(options.address, options.tls?.sans ?? []));
  const kubernetesService = await startKubernetesServiceReconciler(
    { server: apiServer, clock: systemClock, logger: options.logger },
    endpointIp === undefined ? undefined : { ip: endpointIp, port },
    port,
    stopKubernetesService.signal,
  );
  const kubeconfigPath = join(dataDir, "kubeconfig");
  if (pki === undefined || clientCertificates === undefined) {
    writeFileSync(kubeconfigPath, renderKubeconfig({ server: url, token }), { mode: 0o600 });
    chmodSync(kubeconfigPath, 0o600);
  } else {
    // The admin's kubeconfig authenticates with its certificate; the components' are beside it.
    writeCredentialKubeconfigs({
      dataDir,
      server: url,
      caPem: pki.caCertPem,
      credentials: controlPlaneCredentials,
      certificates: clientCertificates,
    });
  }
  options.logger.v(1).info("Listening", { address: `${bound}:${port}`, tls: pki !== undefined });

  const stopComponents = new AbortController();
  // Every informer, watch and worker of the components listens on this one signal.
  setMaxListeners(0, stopComponents.signal);
  let componentsReady = false;
  apiServer.addReadyCheck(() => componentsReady);
  const internalHost = isUnspecifiedAddress(bindAddress) ? "127.0.0.1" : bound;
  const socket: ComponentSocket | undefined =
    options.components === undefined
      ? undefined
      : await listenComponentSocket(dataDir, handler, options.logger);
  const components = await startComponents(
    {
      server: `${pki === undefined ? "http" : "https"}://${internalHost}:${port}`,
      token,
      ...(pki === undefined ? {} : { ca: pki.caCertPem }),
      ...(socket === undefined ? {} : { socketPath: socket.path }),
    },
    {
      ...options.components,
      dataDir,
      metricsRegistry,
      ...(queueingConfig === undefined || options.components === undefined
        ? {}
        : {
            queueing: {
              config: queueingConfig,
              ...(queueingMetrics === undefined ? {} : { metrics: queueingMetrics }),
            },
          }),
    },
    options.logger,
    stopComponents.signal,
  );
  componentsReady = true;

  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    stopComponents.abort();
    await components.done;
    stopKubernetesService.abort();
    await kubernetesService.stopped;
    stop.abort();
    await socket?.close();
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
    await done.catch(() => undefined);
    await compactor;
    await storage.close();
    // The audit log goes last: every request, including the components' last ones, is in it.
    await auditLog?.close();
  };
  return {
    url,
    kubeconfigPath,
    server: apiServer,
    fleet: components.fleet,
    components,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * The API server, or the storage and audit log closed again when its options are invalid (a
 * RangeError).
 */
async function newApiServerOrClose(
  storage: Storage,
  auditLog: AuditLog | undefined,
  options: ApiServerOptions,
): Promise<ApiServer> {
  try {
    return new ApiServer(options);
  } catch (error: unknown) {
    await storage.close();
    await auditLog?.close();
    throw error;
  }
}
