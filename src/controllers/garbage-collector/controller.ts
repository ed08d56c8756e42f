/**
 * The garbage collector: watches every resource, keeps the owner → dependents graph, and
 * deletes dependents whose owners are all gone (background), deletes the dependents of owners
 * deleted in the foreground before releasing their `foregroundDeletion` finalizer, and releases
 * the dependents of owners deleted with `orphan`. Upstream's pkg/controller/garbagecollector.
 */
import {
  type CustomResourceDefinition,
  type KubeObject,
  type OwnerReference,
  parseApiVersion,
  semanticEqual,
} from "../../api/index.ts";
import {
  builtInResources,
  type Client,
  customResourceDefinitionsResource,
  deletedObject,
  eventsResource,
  type HandlerRegistration,
  type InformerFactory,
  isNotFound,
  type ResourceRef,
  type SharedInformer,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  done,
  type EventRecorder,
  newControllerQueue,
  type ReconcileResult,
  referenceTo,
  resourceOfCrd,
  runWorkers,
} from "../framework/index.ts";
import {
  blockingDependents,
  computeDependentAction,
  DependencyGraph,
  foregroundDeletionFinalizer,
  type GraphNode,
  isDeletingDependents,
  isOrphaning,
  type OwnerState,
  orphanFinalizer,
} from "./graph.ts";
import { deleteObject, removeFinalizer, setOwnerReferences } from "./writes.ts";

export interface GarbageCollectorDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

export interface GarbageCollectorOptions {
  /** Concurrent workers (upstream's --concurrent-gc-syncs). @default 20 */
  readonly workers?: number;
  /**
   * The resources to watch besides the custom resources of CRDs, which are added as their CRDs
   * become established. @default every built-in resource except events
   */
  readonly resources?: readonly ResourceRef[];
}

/** Resources the collector never watches (upstream's DefaultIgnoredResources). */
const ignored = new Set([`${eventsResource.group}/${eventsResource.resource}`]);

function resourceKey(resource: ResourceRef): string {
  return `${resource.group}/${resource.resource}`;
}

function nodeOf(resource: ResourceRef, object: DeepReadonly<KubeObject>): GraphNode {
  return {
    identity: {
      resource,
      namespace: object.metadata.namespace ?? "",
      name: object.metadata.name ?? "",
      uid: object.metadata.uid ?? "",
    },
    owners: object.metadata.ownerReferences ?? [],
    finalizers: [...(object.metadata.finalizers ?? [])],
    deleting: object.metadata.deletionTimestamp !== undefined,
  };
}

export function newGarbageCollector(
  deps: GarbageCollectorDeps,
  options: GarbageCollectorOptions = {},
): Controller {
  const { client } = deps;
  const logger = deps.logger.with({ controller: "garbagecollector" });
  const graph = new DependencyGraph();
  const queue = newControllerQueue(deps.clock);
  /** group/Kind → resource, for resolving owner references. */
  const byKind = new Map<string, ResourceRef>();
  const monitors = new Map<
    string,
    { informer: SharedInformer<KubeObject>; registration?: HandlerRegistration }
  >();
  let started: AbortSignal | undefined;
  let synced = false;
  const reportedInvalid = new Set<string>();

  const enqueue = (uid: string): void => queue.add(uid);
  const enqueueDeletingOwners = (node: GraphNode): void => {
    for (const ref of node.owners) {
      const owner = graph.get(ref.uid);
      if (owner !== undefined && isDeletingDependents(owner)) enqueue(ref.uid);
    }
  };

  const onUpsert = (resource: ResourceRef, object: DeepReadonly<KubeObject>): void => {
    const node = nodeOf(resource, object);
    if (node.identity.uid === "") return;
    const previous = graph.upsert(node);
    const ownersChanged = previous === undefined || !semanticEqual(previous.owners, node.owners);
    if (node.owners.length > 0 && (ownersChanged || previous?.deleting !== node.deleting)) {
      enqueue(node.identity.uid);
    }
    if (isDeletingDependents(node)) {
      enqueue(node.identity.uid);
      if (previous === undefined || !isDeletingDependents(previous)) {
        for (const dependent of graph.dependentsOf(node.identity.uid)) {
          enqueue(dependent.identity.uid);
        }
      }
    }
    if (isOrphaning(node)) enqueue(node.identity.uid);
    if (ownersChanged || previous?.deleting !== node.deleting) {
      enqueueDeletingOwners(node);
      if (previous !== undefined) enqueueDeletingOwners(previous);
    }
  };

  const onDelete = (object: DeepReadonly<KubeObject>): void => {
    const uid = object.metadata.uid ?? "";
    const removed = graph.remove(uid);
    for (const dependent of graph.dependentsOf(uid)) enqueue(dependent.identity.uid);
    if (removed !== undefined) enqueueDeletingOwners(removed);
  };

  const monitor = (resource: ResourceRef): void => {
    const key = resourceKey(resource);
    if (ignored.has(key) || monitors.has(key)) return;
    byKind.set(`${resource.group}/${resource.kind}`, resource);
    const informer = deps.informers.forResource<KubeObject>(resource);
    const entry: { informer: SharedInformer<KubeObject>; registration?: HandlerRegistration } = {
      informer,
    };
    monitors.set(key, entry);
    if (started !== undefined) entry.registration = register(resource, informer);
  };

  const register = (
    resource: ResourceRef,
    informer: SharedInformer<KubeObject>,
  ): HandlerRegistration =>
    informer.addEventHandler({
      onAdd: (object) => onUpsert(resource, object),
      onUpdate: (_old, object) => onUpsert(resource, object),
      onDelete: (deleted) => onDelete(deletedObject(deleted)),
    });

  for (const resource of options.resources ?? builtInResources) monitor(resource);
  // Custom resources are watched once their CRD is established.
  const crds = deps.informers.forResource<CustomResourceDefinition>(
    customResourceDefinitionsResource,
  );

  /**
   * Warns once about an owner reference that can never resolve (`reportInvalidNamespaceOwnerRef`):
   * an owner in another namespace, or a namespaced owner of a cluster-scoped object.
   */
  const reportInvalid = (node: GraphNode, ref: DeepReadonly<OwnerReference>): void => {
    const reportKey = `${node.identity.uid}/${ref.uid}`;
    if (reportedInvalid.has(reportKey)) return;
    reportedInvalid.add(reportKey);
    const { namespace, name, uid, resource } = node.identity;
    deps.events.event(
      referenceTo({ metadata: { name, uid, namespace } }, resource),
      "Warning",
      "OwnerRefInvalidNamespace",
      `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${namespace}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace ${JSON.stringify(namespace)}`,
    );
  };

  /** What an owner reference points at (`classifyReferences` / `isDangling`). */
  const ownerState = async (
    node: GraphNode,
    ref: DeepReadonly<OwnerReference>,
  ): Promise<OwnerState> => {
    const known = graph.get(ref.uid);
    if (known !== undefined) {
      const ownerNamespace = known.identity.resource.namespaced ? known.identity.namespace : "";
      if (ownerNamespace === "" || ownerNamespace === node.identity.namespace) {
        return isDeletingDependents(known) ? "waiting" : "solid";
      }
      // An owner in another namespace does not count: look for it where it should be.
      reportInvalid(node, ref);
    }
    const { group } = parseApiVersion(ref.apiVersion);
    const resource = byKind.get(`${group}/${ref.kind}`);
    if (resource === undefined) {
      throw new Error(
        `unable to resolve owner reference ${ref.apiVersion}/${ref.kind} "${ref.name}" of ${node.identity.resource.resource} "${node.identity.name}": the resource is not served`,
      );
    }
    if (resource.namespaced && node.identity.namespace === "") {
      // A cluster-scoped object cannot have a namespaced owner: it is never collected.
      reportInvalid(node, ref);
      return "solid";
    }
    const namespace = resource.namespaced ? node.identity.namespace : undefined;
    try {
      const owner = await client.get(resource, namespace, ref.name);
      if (owner.metadata.uid !== ref.uid) return "dangling";
      const deletingDependents =
        owner.metadata.deletionTimestamp !== undefined &&
        (owner.metadata.finalizers ?? []).includes(foregroundDeletionFinalizer);
      return deletingDependents ? "waiting" : "solid";
    } catch (error: unknown) {
      if (isNotFound(error)) return "dangling";
      throw error;
    }
  };

  /** `attemptToOrphanWorker`: release every dependent, then the owner's `orphan` finalizer. */
  const orphanDependents = async (owner: GraphNode): Promise<void> => {
    const uid = owner.identity.uid;
    const results = await Promise.allSettled(
      graph
        .dependentsOf(uid)
        .map((dependent) =>
          setOwnerReferences(client, dependent, (refs) => refs.filter((r) => r.uid !== uid)),
        ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    await removeFinalizer(client, owner, orphanFinalizer);
  };

  const reconcile = async (uid: string): Promise<ReconcileResult> => {
    const node = graph.get(uid);
    if (node === undefined) return done;
    if (isOrphaning(node)) {
      await orphanDependents(node);
      return done;
    }
    if (isDeletingDependents(node)) {
      const blocking = blockingDependents(node, graph.dependentsOf(uid));
      if (blocking.length === 0) {
        logger.v(2).info("Removing foregroundDeletion finalizer", { uid });
        await removeFinalizer(client, node, foregroundDeletionFinalizer);
        return done;
      }
      for (const dependent of blocking) {
        if (!isDeletingDependents(dependent)) enqueue(dependent.identity.uid);
      }
      return done;
    }
    // Being deleted is a one-way trip: its dependents are looked at once it is gone.
    if (node.deleting || node.owners.length === 0) return done;
    const states = new Map<string, OwnerState>();
    for (const ref of node.owners) states.set(ref.uid, await ownerState(node, ref));
    const action = computeDependentAction(node, states, graph.dependentsOf(uid));
    switch (action.kind) {
      case "none":
        return done;
      case "removeOwnerReferences": {
        const drop = new Set(action.uids);
        await setOwnerReferences(client, node, (refs) => refs.filter((r) => !drop.has(r.uid)));
        return done;
      }
      case "deleteForeground":
        if (action.unblock) {
          await setOwnerReferences(client, node, (refs) =>
            refs.map((r) =>
              r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
            ),
          );
        }
        await deleteObject(client, logger, node, "Foreground");
        return done;
      case "delete":
        await deleteObject(client, logger, node, action.policy);
        return done;
    }
  };

  return {
    name: "garbagecollector",
    enqueue,
    enqueueAfter: (key, ms) => queue.addAfter(key, ms),
    hasSynced: () => synced,
    async start(signal) {
      started = signal;
      const registrations: HandlerRegistration[] = [];
      for (const [key, entry] of monitors) {
        const resource = entry.informer.resource;
        entry.registration = register(resource, entry.informer);
        registrations.push(entry.registration);
        monitors.set(key, entry);
      }
      registrations.push(
        crds.addEventHandler({
          onAdd: (crd) => addCrd(crd),
          onUpdate: (_old, crd) => addCrd(crd),
          onDelete: (deleted) =>
            removeCrd(deletedObject(deleted) as DeepReadonly<CustomResourceDefinition>),
        }),
      );
      const stop = (): void => queue.shutDown();
      signal.addEventListener("abort", stop, { once: true });
      try {
        const informers = [...monitors.values()].map((m) => m.informer);
        const ok = await Promise.all([crds, ...informers].map((i) => i.waitForSync(signal)));
        if (!ok.every(Boolean) || signal.aborted) return;
        synced = true;
        logger.v(2).info("Garbage collector synced", { objects: graph.size });
        await runWorkers({ queue, reconcile, workers: options.workers ?? 20, logger });
      } finally {
        for (const entry of monitors.values()) entry.registration?.remove();
        for (const registration of registrations) registration.remove();
        signal.removeEventListener("abort", stop);
        queue.shutDown();
      }
    },
  };

  function addCrd(crd: DeepReadonly<CustomResourceDefinition>): void {
    const resource = resourceOfCrd(crd);
    if (resource !== undefined) monitor(resource);
  }

  /**
   * A deleted CRD's resource is no longer served: stop watching it (upstream's `syncMonitors`
   * stops the monitors of resources discovery no longer lists) instead of retrying forever. Its
   * objects went before the CRD did, so the graph already saw them go.
   */
  function removeCrd(crd: DeepReadonly<CustomResourceDefinition>): void {
    const plural = crd.spec.names?.plural;
    if (plural === undefined) return;
    const key = `${crd.spec.group}/${plural}`;
    const entry = monitors.get(key);
    if (entry === undefined) return;
    monitors.delete(key);
    entry.registration?.remove();
    const resource = entry.informer.resource;
    const kindKey = `${resource.group}/${resource.kind}`;
    if (byKind.get(kindKey)?.resource === resource.resource) byKind.delete(kindKey);
    logger.v(2).info("Stopped watching a deleted custom resource", { resource: key });
    void deps.informers.stop(resource);
  }
}
