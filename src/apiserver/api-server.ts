import type { IncomingMessage, ServerResponse } from "node:http";
import { Registry } from "prom-client";
import type { CustomResourceDefinition, KindDefinition, KubeObject } from "../api/index.ts";
import type { Storage } from "../storage/index.ts";
import type { Clock, JsonObject, Logger, Random } from "../util/index.ts";
import { AdmissionChain, type AdmissionPlugin, type ObjectReader } from "./admission/index.ts";
import { orderAdmissionPlugins } from "./admission/order.ts";
import { newDefaultIngressClass } from "./admission/plugins/default-ingress-class.ts";
import { newDefaultStorageClass } from "./admission/plugins/default-storage-class.ts";
import { newDefaultTolerationSeconds } from "./admission/plugins/default-toleration-seconds.ts";
import { newLimitRanger } from "./admission/plugins/limit-ranger.ts";
import { newNamespaceLifecycle } from "./admission/plugins/namespace-lifecycle.ts";
import {
  newPodSecurity,
  type PodSecurityConfiguration,
} from "./admission/plugins/pod-security/index.ts";
import { newPriority } from "./admission/plugins/priority.ts";
import { newResourceQuota } from "./admission/plugins/resource-quota.ts";
import { newServiceAccountAdmission } from "./admission/plugins/service-account.ts";
import { newStorageObjectInUseProtection } from "./admission/plugins/storage-object-in-use-protection.ts";
import type { Auditing } from "./audit/index.ts";
import type { Authenticator } from "./authn.ts";
import {
  type Authorizer,
  clusterRoleBindingsSegment,
  newAlwaysAllowAuthorizer,
  newCachePolicySource,
  type PolicySource,
  roleBindingsSegment,
  subjectIndex,
  subjectIndexName,
} from "./authz/index.ts";
import { CrdController, crdSegment } from "./crd/crd-controller.ts";
import { newCrdStrategy } from "./crd/crd-strategy.ts";
import { newDashboardAssets } from "./dashboard-assets.ts";
import { type FieldManager, newFieldManager } from "./fieldmanager/index.ts";
import type { ProtobufDecoder } from "./http/body.ts";
import { type ApiServerMetrics, newApiServerMetrics } from "./metrics.ts";
import {
  type AuditConfig,
  newOverloadProtection,
  newServerAuditing,
  type OverloadProtection,
} from "./overload.ts";
import { decodeProtobufObject } from "./protobuf/index.ts";
import { builtInStrategies } from "./registry/builtin-strategies.ts";
import {
  type EvictionMetrics,
  evictionBudgetIndexes,
  evictionPodIndexes,
  newEvictionMetrics,
} from "./registry/eviction/index.ts";
import { newFieldManagement } from "./registry/field-management.ts";
import type { Store } from "./registry/generic/store.ts";
import { newRbacEscalationCheck } from "./registry/rbac-escalation.ts";
import { newResourceQuotaAccess } from "./registry/resource-quota-access.ts";
import { ResourceRegistry } from "./registry/resource-registry.ts";
import { newServiceAllocation } from "./registry/service-allocation.ts";
import { newHttpHandler } from "./server.ts";
import type { ServiceAccountTokens } from "./serviceaccount/index.ts";
import { Tables } from "./tables.ts";
import { FrameMemo } from "./watch/event-frame.ts";
import { WatchCache } from "./watch-cache/index.ts";

export interface ApiServerOptions {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly authenticate: Authenticator;
  /** Every built-in kind to serve. */
  readonly kinds: readonly KindDefinition[];
  readonly qosClassOf: (pod: KubeObject) => string;
  readonly defaultTolerations?: (pod: KubeObject) => unknown[];
  readonly generateJobSelector?: (job: KubeObject, uid: string) => void;
  /**
   * PodSecurity admission's defaults and exemptions (the PodSecurityConfiguration of
   * `--admission-control-config-file`). @default privileged everywhere, no exemptions
   */
  readonly podSecurity?: PodSecurityConfiguration;
  /** Admission plugins after the built-in ones (gang, queueing), in order. */
  readonly extraAdmission?: (reader: ObjectReader) => readonly AdmissionPlugin[];
  /**
   * Admission plugins left out of the chain, by upstream's names (`--disable-admission-plugins`:
   * `LimitRanger`, `ResourceQuota`, …). @default none
   */
  readonly disabledAdmissionPlugins?: readonly string[];
  /** Where metrics go; other components may share the registry. @default a new Registry */
  readonly metricsRegistry?: Registry;
  /** @default 60000 */
  readonly bookmarkIntervalMs?: number;
  /** @default 10000 */
  readonly watchHistorySize?: number;
  /**
   * Read-only requests (get, list) served at once, as kube-apiserver's
   * `--max-requests-inflight` without priority and fairness; more get a 429. Watches and other
   * long-running requests are not counted; `system:masters` users are never turned away.
   * 0 means no limit. @default 400
   */
  readonly maxRequestsInFlight?: number;
  /** Mutating requests served at once (`--max-mutating-requests-inflight`); 0: no limit. @default 200 */
  readonly maxMutatingRequestsInFlight?: number;
  /**
   * API priority and fairness (`--enable-priority-and-fairness`) instead of the two pools: the
   * priority levels share both limits' seats, and requests wait in fair queues per user.
   * @default false (the commands turn it on, as kube-apiserver does)
   */
  readonly enablePriorityAndFairness?: boolean;
  /** `--request-timeout` for requests that are not long-running (504 after it). @default 60000 */
  readonly requestTimeoutMs?: number;
  /** Watches one user may have open at once (`--max-watches-per-user`); 0: no cap. @default 0 */
  readonly maxWatchesPerUser?: number;
  /** The audit policy and log (`--audit-policy-file`, `--audit-log-path`). @default no auditing */
  readonly audit?: AuditConfig;
  /**
   * Builds the authorizer every request after authentication goes through, given the RBAC
   * policy as the watch cache holds it (`newRbacAuthorizer` for `--authorization-mode RBAC`).
   * Role and binding writes are checked for privilege escalation against it.
   * @default AlwaysAllow
   */
  readonly authorize?: (policy: PolicySource) => Authorizer;
  /**
   * The dashboard's built bundle (dist/ui), served at `/ui/`; a 503 there while it is not built.
   * @default undefined (no dashboard: `/ui/` is a 404)
   */
  readonly dashboardDir?: string;
  /**
   * Service account tokens: the `serviceaccounts/token` subresource (TokenRequest) and the
   * issuer's OpenID discovery documents. @default none (both 404)
   */
  readonly serviceAccountTokens?: ServiceAccountTokens;
  /**
   * Run the ServiceAccount admission plugin on new pods (after NamespaceLifecycle, as in
   * upstream's recommended order). Pods then need their service account to exist, which the
   * controller manager's serviceaccount controller sees to for `default`. @default false
   */
  readonly serviceAccountAdmission?: boolean;
}

const root = "/registry/";

/**
 * The API server: registry, watch cache, admission and HTTP handling, without a socket. `cmd/`
 * binds it to a listener.
 */
export class ApiServer {
  readonly registry: ResourceRegistry;
  readonly cache: WatchCache;
  readonly tables = new Tables();
  readonly metrics: ApiServerMetrics;
  /** The eviction subresource's counts, on the same registry as `metrics`. */
  readonly evictionMetrics: EvictionMetrics;
  readonly reader: ObjectReader;
  /** The admission chain's plugin names, in the order they run (`admissionPluginOrder`). */
  readonly admissionPlugins: readonly string[];
  /** Decides every request after authentication (and the access reviews). */
  readonly authorizer: Authorizer;
  readonly #options: ApiServerOptions;
  readonly #shutdown = new AbortController();
  readonly #crds: CrdController;
  readonly #overload: OverloadProtection;
  readonly #auditing: Auditing | undefined;
  /** Remembers each kind's resolved schema types across writes. */
  readonly #fieldManager: FieldManager = newFieldManager();
  /** The bytes of the event the watch cache is fanning out, shared by its watchers. */
  readonly #watchFrames = new FrameMemo();
  #ready = false;
  readonly #readyChecks: (() => boolean)[] = [];
  #address = "127.0.0.1:6443";

  constructor(options: ApiServerOptions) {
    this.#options = options;
    this.cache = new WatchCache(options.storage, options.logger, {
      root,
      historySize: options.watchHistorySize ?? 10_000,
      indexes: {
        pods: evictionPodIndexes,
        "poddisruptionbudgets.policy": evictionBudgetIndexes,
        [clusterRoleBindingsSegment]: { [subjectIndexName]: subjectIndex },
        [roleBindingsSegment]: { [subjectIndexName]: subjectIndex },
      },
    });
    this.reader = this.#newReader();
    const policy = newCachePolicySource(this.cache, root);
    this.authorizer = options.authorize?.(policy) ?? newAlwaysAllowAuthorizer();
    const fieldManager = this.#fieldManager;
    // The chain runs in admissionPluginOrder (upstream's recommended order), whatever the order here.
    const plugins = orderAdmissionPlugins(
      [
        newNamespaceLifecycle(this.reader),
        newLimitRanger({ reader: this.reader, clock: options.clock }),
        ...(options.serviceAccountAdmission === true
          ? [
              newServiceAccountAdmission(this.reader, {
                clock: options.clock,
                random: options.random,
              }),
            ]
          : []),
        newPriority(this.reader),
        ...(options.defaultTolerations === undefined
          ? []
          : [newDefaultTolerationSeconds(options.defaultTolerations)]),
        newDefaultStorageClass(this.reader),
        newStorageObjectInUseProtection(),
        newDefaultIngressClass(this.reader),
        // Validating only: it sees every mutation, the webhooks' (gang, Kueue) included.
        newPodSecurity(this.reader, {
          clock: options.clock,
          ...(options.podSecurity === undefined ? {} : { configuration: options.podSecurity }),
        }),
        ...(options.extraAdmission?.(this.reader) ?? []),
        newRbacEscalationCheck(this.authorizer, policy),
        newResourceQuota({
          quotas: newResourceQuotaAccess({
            reader: this.reader,
            store: () => this.registry.lookup("", "v1", "resourcequotas"),
          }),
          clock: options.clock,
        }),
      ],
      new Set(options.disabledAdmissionPlugins ?? []),
    );
    this.admissionPlugins = plugins.map((p) => p.name);
    const admission = new AdmissionChain(plugins);
    this.registry = new ResourceRegistry({
      storage: options.storage,
      cache: this.cache,
      clock: options.clock,
      random: options.random,
      admission,
      fields: newFieldManagement(fieldManager),
      root,
    });
    const metricsRegistry = options.metricsRegistry ?? new Registry();
    this.#overload = newOverloadProtection(options, {
      clock: options.clock,
      random: options.random,
      registry: metricsRegistry,
      signal: this.#shutdown.signal,
    });
    this.#auditing =
      options.audit === undefined
        ? undefined
        : newServerAuditing(options.audit, options.clock, metricsRegistry);
    const limiter = this.#overload.limiter;
    this.metrics = newApiServerMetrics(metricsRegistry, {
      inFlight: () => limiter.inFlight(),
    });
    this.evictionMetrics = newEvictionMetrics(metricsRegistry);
    // Default tolerations come from the DefaultTolerationSeconds admission plugin, not the strategy.
    const strategies = builtInStrategies({
      qosClassOf: options.qosClassOf,
      ...(options.generateJobSelector === undefined
        ? {}
        : { generateJobSelector: options.generateJobSelector }),
    });
    const crdStrategy = newCrdStrategy({
      crds: () =>
        this.reader.list(crdSegment, "") as unknown as readonly CustomResourceDefinition[],
    });
    const serviceAllocation = newServiceAllocation({
      services: () => this.reader.list("services", "") as unknown as readonly KubeObject[],
      random: options.random,
      clock: options.clock,
    });
    for (const definition of options.kinds) {
      const key = `${definition.group}/${definition.resource}`;
      this.registry.add({
        definition,
        strategy:
          key === "apiextensions.k8s.io/customresourcedefinitions"
            ? crdStrategy
            : key === "/services"
              ? serviceAllocation
              : (strategies.get(key) ?? {}),
      });
    }
    this.#crds = new CrdController({
      registry: this.registry,
      cache: this.cache,
      tables: this.tables,
      logger: options.logger,
      clock: options.clock,
      crds: () => this.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
    });
  }

  /** Whether the cache is loaded and every added readiness check passes. */
  get ready(): boolean {
    return this.#ready && this.#readyChecks.every((check) => check());
  }

  /** Adds a condition of `/readyz`: the components started beside the server, for example. */
  addReadyCheck(check: () => boolean): void {
    this.#readyChecks.push(check);
  }

  setAddress(address: string): void {
    this.#address = address;
  }

  /** The request listener for `http.createServer`. */
  handler(): (req: IncomingMessage, res: ServerResponse) => void {
    return newHttpHandler({
      registry: this.registry,
      cache: this.cache,
      storage: this.#options.storage,
      registryRoot: root,
      clock: this.#options.clock,
      random: this.#options.random,
      tables: this.tables,
      protobuf: decodeProtobufObject as ProtobufDecoder,
      fieldManager: this.#fieldManager,
      bookmarkIntervalMs: this.#options.bookmarkIntervalMs ?? 60_000,
      watchFrames: this.#watchFrames,
      shutdown: this.#shutdown.signal,
      logger: this.#options.logger,
      metrics: this.metrics,
      evictionMetrics: this.evictionMetrics,
      authenticate: this.#options.authenticate,
      authorizer: this.authorizer,
      address: () => this.#address,
      isReady: () => this.ready,
      limiter: this.#overload.limiter,
      deadlines: this.#overload.deadlines,
      requestTimeoutMs: this.#overload.requestTimeoutMs,
      ...(this.#overload.watchLimiter === undefined
        ? {}
        : { watchLimiter: this.#overload.watchLimiter }),
      ...(this.#auditing === undefined ? {} : { auditing: this.#auditing }),
      ...(this.#options.dashboardDir === undefined
        ? {}
        : { dashboard: newDashboardAssets({ dir: this.#options.dashboardDir }) }),
      ...(this.#options.serviceAccountTokens === undefined
        ? {}
        : { serviceAccountTokens: this.#options.serviceAccountTokens }),
    });
  }

  /**
   * Loads the watch cache, then serves the custom resources of every stored CRD; resolves once
   * ready. The cache follows storage and the CRD controller follows CRDs until `signal` aborts;
   * `done` settles when both have stopped (it rejects if the cache fails).
   */
  async start(signal: AbortSignal): Promise<{ done: Promise<void> }> {
    signal.addEventListener("abort", () => this.#shutdown.abort(), { once: true });
    let markLoaded: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => {
      markLoaded = resolve;
    });
    const cacheDone = this.cache.start(signal, markLoaded);
    await Promise.race([loaded, cacheDone]);
    const crdsDone = this.#crds.start(signal);
    this.#ready = true;
    const done = Promise.all([cacheDone, crdsDone]).then(() => undefined);
    return { done };
  }

  /** The store of a built-in or custom resource. */
  store(group: string, version: string, resource: string): Store | undefined {
    return this.registry.lookup(group, version, resource);
  }

  #newReader(): ObjectReader {
    const get = (segment: string, namespace: string, name: string): JsonObject | undefined => {
      const key =
        namespace === "" ? `${root}${segment}/${name}` : `${root}${segment}/${namespace}/${name}`;
      return this.cache.resource(segment).get(key)?.object as JsonObject | undefined;
    };
    return {
      get,
      getFresh: async (segment, namespace, name) => {
        await this.cache.waitUntilFresh();
        return get(segment, namespace, name);
      },
      list: (segment, namespace) =>
        [...this.cache.resource(segment).list(namespace)].map((c) => c.object),
    };
  }
}
