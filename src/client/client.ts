import type { KubeObject, Status } from "../api/index.ts";
import type { DeepReadonly, JsonObject } from "../util/index.ts";

/**
 * Names one API resource: where its URLs live (`group`, `version`, `resource`), what it holds
 * (`kind`) and whether objects live in a namespace.
 */
export interface ResourceRef {
  /** "" for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural name in URLs: `pods`. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

function ref(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
): ResourceRef {
  return Object.freeze({ group, version, resource, kind, namespaced });
}

// The built-in resources components use. Their names mirror client-go's typed clients.
export const podsResource = ref("", "v1", "pods", "Pod", true);
export const nodesResource = ref("", "v1", "nodes", "Node", false);
export const namespacesResource = ref("", "v1", "namespaces", "Namespace", false);
export const eventsResource = ref("", "v1", "events", "Event", true);
export const configMapsResource = ref("", "v1", "configmaps", "ConfigMap", true);
export const secretsResource = ref("", "v1", "secrets", "Secret", true);
export const servicesResource = ref("", "v1", "services", "Service", true);
export const endpointsResource = ref("", "v1", "endpoints", "Endpoints", true);
export const endpointSlicesResource = ref(
  "discovery.k8s.io",
  "v1",
  "endpointslices",
  "EndpointSlice",
  true,
);
export const serviceAccountsResource = ref("", "v1", "serviceaccounts", "ServiceAccount", true);
export const replicationControllersResource = ref(
  "",
  "v1",
  "replicationcontrollers",
  "ReplicationController",
  true,
);
export const resourceQuotasResource = ref("", "v1", "resourcequotas", "ResourceQuota", true);
export const limitRangesResource = ref("", "v1", "limitranges", "LimitRange", true);
export const persistentVolumesResource = ref(
  "",
  "v1",
  "persistentvolumes",
  "PersistentVolume",
  false,
);
export const persistentVolumeClaimsResource = ref(
  "",
  "v1",
  "persistentvolumeclaims",
  "PersistentVolumeClaim",
  true,
);
export const podTemplatesResource = ref("", "v1", "podtemplates", "PodTemplate", true);
export const storageClassesResource = ref(
  "storage.k8s.io",
  "v1",
  "storageclasses",
  "StorageClass",
  false,
);
export const deploymentsResource = ref("apps", "v1", "deployments", "Deployment", true);
export const replicaSetsResource = ref("apps", "v1", "replicasets", "ReplicaSet", true);
export const statefulSetsResource = ref("apps", "v1", "statefulsets", "StatefulSet", true);
export const daemonSetsResource = ref("apps", "v1", "daemonsets", "DaemonSet", true);
export const controllerRevisionsResource = ref(
  "apps",
  "v1",
  "controllerrevisions",
  "ControllerRevision",
  true,
);
export const jobsResource = ref("batch", "v1", "jobs", "Job", true);
export const cronJobsResource = ref("batch", "v1", "cronjobs", "CronJob", true);
export const leasesResource = ref("coordination.k8s.io", "v1", "leases", "Lease", true);
export const ingressesResource = ref("networking.k8s.io", "v1", "ingresses", "Ingress", true);
export const ingressClassesResource = ref(
  "networking.k8s.io",
  "v1",
  "ingressclasses",
  "IngressClass",
  false,
);
export const networkPoliciesResource = ref(
  "networking.k8s.io",
  "v1",
  "networkpolicies",
  "NetworkPolicy",
  true,
);
export const podDisruptionBudgetsResource = ref(
  "policy",
  "v1",
  "poddisruptionbudgets",
  "PodDisruptionBudget",
  true,
);
export const priorityClassesResource = ref(
  "scheduling.k8s.io",
  "v1",
  "priorityclasses",
  "PriorityClass",
  false,
);
export const workloadsResource = ref(
  "scheduling.k8s.io",
  "v1alpha1",
  "workloads",
  "Workload",
  true,
);
export const podGroupsResource = ref(
  "scheduling.k8s.io",
  "v1alpha1",
  "podgroups",
  "PodGroup",
  true,
);
export const customResourceDefinitionsResource = ref(
  "apiextensions.k8s.io",
  "v1",
  "customresourcedefinitions",
  "CustomResourceDefinition",
  false,
);

/** Every built-in ResourceRef above, in discovery order. */
export const builtInResources: readonly ResourceRef[] = Object.freeze([
  podsResource,
  nodesResource,
  namespacesResource,
  eventsResource,
  configMapsResource,
  secretsResource,
  servicesResource,
  endpointsResource,
  serviceAccountsResource,
  replicationControllersResource,
  resourceQuotasResource,
  limitRangesResource,
  persistentVolumesResource,
  persistentVolumeClaimsResource,
  podTemplatesResource,
  deploymentsResource,
  replicaSetsResource,
  statefulSetsResource,
  daemonSetsResource,
  jobsResource,
  cronJobsResource,
  ingressesResource,
  ingressClassesResource,
  networkPoliciesResource,
  leasesResource,
  endpointSlicesResource,
  storageClassesResource,
  podDisruptionBudgetsResource,
  priorityClassesResource,
  workloadsResource,
  podGroupsResource,
  customResourceDefinitionsResource,
]);

/** What every request may carry. */
export interface RequestOptions {
  /** Aborts the request; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Options of `list`: the query parameters of a collection GET. */
export interface ListOptions extends RequestOptions {
  /** `app=web,tier!=db`: upstream's label selector syntax. */
  readonly labelSelector?: string;
  /** `spec.nodeName=n1,metadata.name!=x`. */
  readonly fieldSelector?: string;
  /** At most this many items; the response then carries `metadata.continue`. */
  readonly limit?: number;
  /** The token from the previous page's `metadata.continue`. */
  readonly continue?: string;
  /**
   * Unset: the most recent state (a consistent read). "0": any state the server has cached.
   * A revision: at least that fresh (or exactly it with `resourceVersionMatch: "Exact"`).
   */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: "Exact" | "NotOlderThan";
}

/** Options of `watch`. */
export interface WatchOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * Events after this revision. Unset or "0": synthetic ADDED events for the current state
   * first, then changes.
   */
  readonly resourceVersion?: string;
  /** Ask for periodic BOOKMARK events carrying the latest revision. */
  readonly allowWatchBookmarks?: boolean;
  /** The server ends the watch after this long. */
  readonly timeoutSeconds?: number;
  readonly sendInitialEvents?: boolean;
}

/** One list page: fresh objects and the collection's revision. */
export interface ListResult<T extends KubeObject> {
  items: T[];
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

/** The object of a BOOKMARK event: only the revision (and annotations) mean anything. */
export interface BookmarkObject {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly metadata: {
    readonly resourceVersion: string;
    readonly annotations?: Readonly<Record<string, string>>;
  };
}

/** One event of a watch stream, as the server sends it. */
export type WatchEvent<T extends KubeObject> =
  | { readonly type: "ADDED" | "MODIFIED" | "DELETED"; readonly object: T }
  | { readonly type: "BOOKMARK"; readonly object: BookmarkObject }
  /** The watch cannot go on (410 Expired for a too old revision); the stream ends after it. */
  | { readonly type: "ERROR"; readonly object: Status };

/** Options every write takes. */
export interface WriteOptions extends RequestOptions {
  /** Recorded in `managedFields`. @default the client's default, else the server's choice */
  readonly fieldManager?: string;
  /** Validate and admit, but persist nothing (`dryRun=All`). @default false */
  readonly dryRun?: boolean;
  /** How the server treats unknown or duplicate fields. @default the server's ("Warn") */
  readonly fieldValidation?: "Ignore" | "Warn" | "Strict";
}

/** `merge` = RFC 7386, `strategic` = Kubernetes' strategic merge, `json` = RFC 6902, `apply` = SSA. */
export type PatchType = "merge" | "strategic" | "json" | "apply";

export interface PatchOptions extends WriteOptions {
  /** Apply only: take ownership of fields other managers own instead of failing with 409. */
  readonly force?: boolean;
  /** Patch a subresource (`status`, `scale`) instead of the object. */
  readonly subresource?: string;
}

/** Options of `delete` (metav1.DeleteOptions, with `dryRun` as a flag). */
export interface DeleteOptions extends RequestOptions {
  /** 0 deletes at once; unset uses the object's own default (pods: their grace period). */
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: "Orphan" | "Background" | "Foreground";
  /** The delete fails with 409 Conflict unless the live object still has this uid / revision. */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

/** Options of `deleteCollection`: which objects (as `list` selects them) and how to delete each. */
export interface DeleteCollectionOptions extends DeleteOptions {
  /** `app=web,tier!=db`: only objects with matching labels. @default every object */
  readonly labelSelector?: string;
  /** `metadata.name!=keep`: only objects with matching fields. @default every object */
  readonly fieldSelector?: string;
}

/**
 * An object as callers hand it in: their own copy or one read from a cache. Inputs do not drive
 * type inference: name the kind (`client.create<Pod>(podsResource, pod)`) to check the input and
 * type the result; without it both are `KubeObject`.
 */
export type ObjectInput<T extends KubeObject> = T | DeepReadonly<T>;

/**
 * The API as every component sees it: generic over kinds, one method per verb.
 *
 * Namespaces: for a namespaced resource, single-object calls need a namespace (a TypeError
 * otherwise); `list`/`watch` with `undefined` (or "") span all namespaces. Cluster-scoped
 * resources take `undefined` (or "") and reject anything else with a TypeError.
 *
 * Results are fresh objects decoded from the response: the caller owns them and may mutate them.
 * Inputs are never mutated. Failures reject with an `ApiError` rebuilt from the server's Status
 * (code, reason, message, details), or a `TransportError` when the server could not be reached
 * or the connection broke (always safe to retry). Nothing is retried automatically.
 */
export interface Client {
  /** GET one object. 404 NotFound when it does not exist. Idempotent. */
  get<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    options?: RequestOptions,
  ): Promise<T>;

  /**
   * GET a collection (one page when `limit` is set). `metadata.resourceVersion` is the
   * collection's revision: watch from it to see every later change. Idempotent.
   */
  list<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    options?: ListOptions,
  ): Promise<ListResult<T>>;

  /**
   * Streams changes. The request starts when iteration starts; a non-2xx answer rejects the
   * first `next()` with an ApiError. Events arrive in revision order. The iteration ends when
   * the server closes the stream (its timeout, or after an ERROR event) or when `signal`
   * aborts (then quietly, without an error); a broken connection throws a TransportError.
   * Leaving the loop early closes the request.
   */
  watch<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    options: WatchOptions,
    signal: AbortSignal,
  ): AsyncIterable<WatchEvent<T>>;

  /**
   * POST a new object into `object.metadata.namespace`. 409 AlreadyExists if the name is taken;
   * not idempotent (with `generateName` each call creates another object). Returns the stored
   * object (name, uid, resourceVersion, defaults filled in).
   */
  create<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    object: ObjectInput<NoInfer<T>>,
    options?: WriteOptions,
  ): Promise<T>;

  /**
   * PUT the whole object. With `metadata.resourceVersion` set it is a compare-and-swap: 409
   * Conflict when the object changed since. Status changes are ignored for kinds with a status
   * subresource (use `updateStatus`).
   */
  update<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    object: ObjectInput<NoInfer<T>>,
    options?: WriteOptions,
  ): Promise<T>;

  /** PUT the status subresource: only `status` changes; same concurrency rules as `update`. */
  updateStatus<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    object: ObjectInput<NoInfer<T>>,
    options?: WriteOptions,
  ): Promise<T>;

  /**
   * PATCH one object (or `options.subresource`). `body` is a JSON value: an array of operations
   * for `json`, an object otherwise; `apply` needs a `fieldManager` and creates the object when
   * it is missing. Merge, strategic and apply patches without a resourceVersion never conflict.
   */
  patch<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    patchType: PatchType,
    body: unknown,
    options?: PatchOptions,
  ): Promise<T>;

  /**
   * DELETE one object. Resolves with the object when it still exists afterwards (graceful
   * deletion or finalizers pending: it now has `deletionTimestamp`), or `undefined` once it is
   * gone. 404 when it does not exist; 409 Conflict when `preconditions` do not hold.
   */
  delete<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<T | undefined>;

  /**
   * DELETE a collection: every object of `resource` in `namespace` that the selectors match is
   * deleted as `delete` would delete it (finalizers and grace periods still apply). A namespaced
   * resource needs a namespace. Resolves once the server has answered; 405 MethodNotAllowed when
   * the resource does not serve `deletecollection`. Safe to repeat.
   */
  deleteCollection(
    resource: ResourceRef,
    namespace: string | undefined,
    options?: DeleteCollectionOptions,
  ): Promise<void>;

  /**
   * GET any path of the server (`kubectl get --raw`), such as a node-proxy path, and resolve to
   * the body of a 2xx answer as text; other codes reject with the ApiError the Status names.
   */
  getRaw(path: string, options?: RequestOptions): Promise<string>;

  /** GET a subresource (`deployments/NAME/scale`, `pods/NAME/status`). Idempotent. */
  getSubresource<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    subresource: string,
    options?: RequestOptions,
  ): Promise<T>;

  /**
   * PUT a subresource with a whole object (`namespaces/NAME/finalize`, `deployments/NAME/scale`)
   * and return what the server answers (for `scale` a Scale, for `finalize` the Namespace). The
   * object's `metadata.resourceVersion`, when set, is a precondition as on `update`; its
   * namespace and name must match the call's.
   */
  updateSubresource<T extends KubeObject = KubeObject>(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    subresource: string,
    object: ObjectInput<KubeObject>,
    options?: WriteOptions,
  ): Promise<T>;

  /**
   * POST to a subresource (`pods/binding`, `pods/eviction`) and return the response body
   * (usually a Success Status). Not idempotent: binding a bound pod is a 409 Conflict.
   */
  createSubresource(
    resource: ResourceRef,
    namespace: string | undefined,
    name: string,
    subresource: string,
    body: unknown,
    options?: WriteOptions,
  ): Promise<JsonObject>;
}
