// The public surface of client/: what controllers, the scheduler and kubelets use to talk to
// the API server. Named exports only; see README.md for the semantics.

// client: the interface, options and resources
export {
  type BookmarkObject,
  builtInResources,
  type Client,
  configMapsResource,
  controllerRevisionsResource,
  cronJobsResource,
  customResourceDefinitionsResource,
  type DeleteCollectionOptions,
  type DeleteOptions,
  daemonSetsResource,
  deploymentsResource,
  endpointSlicesResource,
  endpointsResource,
  eventsResource,
  ingressClassesResource,
  ingressesResource,
  jobsResource,
  type ListOptions,
  type ListResult,
  leasesResource,
  limitRangesResource,
  namespacesResource,
  networkPoliciesResource,
  nodesResource,
  type ObjectInput,
  type PatchOptions,
  type PatchType,
  persistentVolumeClaimsResource,
  persistentVolumesResource,
  podDisruptionBudgetsResource,
  podGroupsResource,
  podsResource,
  podTemplatesResource,
  priorityClassesResource,
  type RequestOptions,
  type ResourceRef,
  replicaSetsResource,
  replicationControllersResource,
  resourceQuotasResource,
  secretsResource,
  serviceAccountsResource,
  servicesResource,
  statefulSetsResource,
  storageClassesResource,
  type WatchEvent,
  type WatchOptions,
  type WriteOptions,
  workloadsResource,
} from "./client.ts";
// errors
export {
  fromStatus,
  isAlreadyExists,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  isResourceExpired,
  isTooLargeResourceVersion,
  isTooManyRequests,
  TransportError,
} from "./errors.ts";
// events: recorders, the broadcaster that writes them, and its correlator
export {
  type EventBroadcaster,
  type EventBroadcasterDeps,
  type EventBroadcasterOptions,
  type EventRecorder,
  type EventSource,
  type EventType,
  type FlushableEventRecorder,
  newEventBroadcaster,
  newEventRecorder,
  referenceTo,
} from "./events/broadcaster.ts";
export {
  type CorrelateResult,
  type CorrelatorOptions,
  combinedMessagePrefix,
  EventCorrelator,
  eventKey,
} from "./events/correlator.ts";
// HTTP transport and kubeconfig
export { type HttpClient, type HttpClientOptions, newClient } from "./http-transport.ts";
// informers, listers and indexers
export {
  type Indexer,
  type Indexers,
  type IndexFunc,
  keyOf,
  namespaceIndex,
  namespaceIndexFunc,
} from "./informer/indexer.ts";
export {
  type EventHandler,
  type HandlerRegistration,
  type InformerOptions,
  newSharedInformer,
  type SharedInformer,
  stripManagedFields,
} from "./informer/informer.ts";
export {
  type InformerFactory,
  type InformerFactoryOptions,
  type InformerScope,
  newInformerFactory,
} from "./informer/informer-factory.ts";
export { type Lister, newLister } from "./informer/lister.ts";
export { DeletedFinalStateUnknown, deletedObject } from "./informer/tombstone.ts";
export type { BackoffOptions } from "./internal/backoff.ts";
export {
  decodeCertificateAuthority,
  type KubeconfigCluster,
  loadKubeconfig,
} from "./kubeconfig.ts";
export {
  type LeaderElectionChecker,
  type LeaderHealthzAdaptor,
  newLeaderHealthzAdaptor,
} from "./leader-election/healthz-adaptor.ts";
export {
  type LeaderCallbacks,
  type LeaderElectionConfig,
  type LeaderElectionDeps,
  type LeaderMetrics,
  runLeaderElection,
  validateLeaderElectionConfig,
} from "./leader-election/leader-election.ts";
// workqueue
export { type DelayingQueue, newDelayingQueue } from "./workqueue/delaying-queue.ts";
export { type GetResult, newQueue, type WorkQueue } from "./workqueue/queue.ts";
export {
  defaultControllerRateLimiter,
  newBucketRateLimiter,
  newItemExponentialFailureRateLimiter,
  newMaxOfRateLimiter,
  type RateLimiter,
} from "./workqueue/rate-limiters.ts";
export {
  newRateLimitingQueue,
  type RateLimitingQueue,
  type RateLimitingQueueOptions,
} from "./workqueue/rate-limiting-queue.ts";
