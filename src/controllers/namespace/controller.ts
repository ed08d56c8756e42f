/**
 * The namespace controller: once a namespace has a deletionTimestamp it deletes every object in
 * it, reports progress in the namespace's conditions, and releases the `kubernetes` finalizer
 * so the API server removes the namespace. Upstream's pkg/controller/namespace.
 */
import { finalizerKubernetes, type Namespace } from "../../api/index.ts";
import { type Client, isConflict, isNotFound, namespacesResource } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import {
  type Controller,
  type ControllerDeps,
  defineController,
  describe,
  done,
  newResourceDiscovery,
  type ReconcileResult,
  type ResourceDiscovery,
  requeueAfter,
  updateStatusIfChanged,
} from "../framework/index.ts";
import { computeNamespaceConditions, remainingRequeueMs } from "./conditions.ts";
import { deleteAllContent } from "./deleter.ts";

/**
 * Releases the namespace controller's finalizer: given the namespace as last read and the
 * finalizers to keep, writes them. Resolves once the server has accepted it (or the namespace
 * is already gone: a 404 counts as done).
 */
export type NamespaceFinalizer = (
  namespace: DeepReadonly<Namespace>,
  finalizers: readonly string[],
) => Promise<void>;

export interface NamespaceControllerDeps extends ControllerDeps {
  /** @default built-in resources plus established CRDs, read through `client` */
  readonly discovery?: ResourceDiscovery;
  /** @default `finalizeByUpdate(client)`: PUT `namespaces/NAME/finalize` */
  readonly finalize?: NamespaceFinalizer;
}

export interface NamespaceControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-namespace-syncs). @default 10 */
  readonly workers?: number;
}

/** How often a finalize that lost a race re-reads the namespace before giving up for now. */
const finalizeAttempts = 5;

/**
 * Upstream's `finalizeNamespace` under `retryOnConflictError`: PUT `namespaces/NAME/finalize`
 * with the namespace's metadata (its resourceVersion a precondition) and the finalizers to keep,
 * sorted and without duplicates. A conflict re-reads the namespace and tries again (a changed
 * uid means it was replaced: an error); a 404 means it is already gone.
 */
export function finalizeByUpdate(client: Client): NamespaceFinalizer {
  return async (namespace, finalizers) => {
    const keep = [...new Set(finalizers)].sort();
    let latest = namespace;
    for (let attempt = 1; ; attempt++) {
      const body: Namespace = {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: structuredClone(latest.metadata) as Namespace["metadata"],
        spec: { ...structuredClone(latest.spec ?? {}), finalizers: keep },
      };
      try {
        await client.updateSubresource(
          namespacesResource,
          undefined,
          latest.metadata.name ?? "",
          "finalize",
          body,
        );
        return;
      } catch (error: unknown) {
        if (isNotFound(error)) return;
        if (!isConflict(error) || attempt >= finalizeAttempts) throw error;
      }
      const previousUid = latest.metadata.uid;
      latest = await client.get<Namespace>(
        namespacesResource,
        undefined,
        latest.metadata.name ?? "",
      );
      if (latest.metadata.uid !== previousUid) {
        throw new Error("namespace uid has changed across retries");
      }
    }
  };
}

export function newNamespaceController(
  deps: NamespaceControllerDeps,
  options: NamespaceControllerOptions = {},
): Controller {
  const namespaces = deps.informers.forResource<Namespace>(namespacesResource);
  const discovery = deps.discovery ?? newResourceDiscovery(deps.client);
  const finalize = deps.finalize ?? finalizeByUpdate(deps.client);
  const logger = deps.logger.with({ controller: "namespace" });
  /** Resources that answered 405 to deletecollection: their objects are deleted one by one. */
  const noDeleteCollection = new Set<string>();

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const cached = namespaces.lister.get(undefined, key);
    if (cached?.metadata.deletionTimestamp === undefined) return done;
    // Several controllers edit a terminating namespace: work from its latest state.
    let namespace: Namespace;
    try {
      namespace = await deps.client.get<Namespace>(namespacesResource, undefined, key);
    } catch (error: unknown) {
      if (isNotFound(error)) return done;
      throw error;
    }
    if (namespace.metadata.deletionTimestamp === undefined) return done;
    if (namespace.status?.phase !== "Terminating") {
      namespace = (await updateStatusIfChanged(deps.client, namespacesResource, namespace, {
        ...namespace.status,
        phase: "Terminating",
      })) as Namespace;
    }
    const finalizers = namespace.spec?.finalizers ?? [];
    if (finalizers.length === 0) return done;

    const now = deps.clock.now();
    const content = await deleteAllContent(deps.client, discovery, namespace, now, {
      noDeleteCollection,
    });
    const conditions = computeNamespaceConditions(namespace.status?.conditions, content, now);
    if (conditions !== undefined) {
      try {
        namespace = (await updateStatusIfChanged(deps.client, namespacesResource, namespace, {
          ...namespace.status,
          conditions,
        })) as Namespace;
      } catch (error: unknown) {
        // Upstream only logs this: the conditions are a report, deletion goes on.
        logger.error("Could not update namespace conditions", {
          namespace: key,
          error: describe(error),
        });
      }
    }
    const errors = [...content.discoveryErrors, ...content.deleteErrors];
    if (errors.length > 0) {
      throw new Error(errors.length === 1 ? (errors[0] ?? "") : `[${errors.join(", ")}]`);
    }
    if (content.estimateSeconds > 0) {
      logger.v(4).info("Content remaining in namespace", {
        namespace: key,
        waitSeconds: content.estimateSeconds,
      });
      return requeueAfter(remainingRequeueMs(content.estimateSeconds));
    }
    try {
      await finalize(
        namespace,
        finalizers.filter((f) => f !== finalizerKubernetes),
      );
    } catch (error: unknown) {
      if (isNotFound(error)) return done;
      throw error;
    }
    return done;
  };

  return defineController<Namespace>({
    name: "namespace",
    primary: namespaces,
    // Only terminating namespaces need work.
    primaryToKeys: (event) =>
      event.type !== "delete" && event.object.metadata.deletionTimestamp !== undefined
        ? [event.object.metadata.name ?? ""]
        : [],
    reconcile,
    workers: options.workers ?? 10,
    clock: deps.clock,
    logger: deps.logger,
  });
}
