/**
 * The namespace controller: once a namespace has a deletionTimestamp it deletes every object in
 * it, reports progress in the namespace's conditions, and releases the `kubernetes` finalizer
 * so the API server removes the namespace. Upstream's pkg/controller/namespace.
 */
import { finalizerKubernetes, type Namespace } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isNotFound,
  namespacesResource,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  describe,
  done,
  type EventRecorder,
  newResourceDiscovery,
  type ReconcileResult,
  type ResourceDiscovery,
  requeueAfter,
  updateStatusIfChanged,
} from "../framework/index.ts";
import { computeNamespaceConditions, remainingRequeueMs } from "./conditions.ts";
import { deleteAllContent } from "./deleter.ts";

/**
 * Removes the `kubernetes` finalizer: upstream PUTs `namespaces/NAME/finalize` with the new
 * `spec.finalizers`. Resolves once the server has accepted it.
 */
export type NamespaceFinalizer = (
  namespace: DeepReadonly<Namespace>,
  finalizers: readonly string[],
) => Promise<void>;

export interface NamespaceControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly events: EventRecorder;
  /** @default built-in resources plus established CRDs, read through `client` */
  readonly discovery?: ResourceDiscovery;
  /** @default `finalizeByUpdate(client)` */
  readonly finalize?: NamespaceFinalizer;
}

export interface NamespaceControllerOptions {
  /** Concurrent reconciles (upstream's --concurrent-namespace-syncs). @default 10 */
  readonly workers?: number;
}

/**
 * Removes the finalizer with a plain update of the namespace. The Client has no way to PUT a
 * subresource yet, and gantry's namespace strategy lets `spec.finalizers` change on update;
 * upstream ignores such a change, so the result is checked and a server that kept the
 * finalizer is reported instead of waited on forever.
 */
export function finalizeByUpdate(client: Client): NamespaceFinalizer {
  return async (namespace, finalizers) => {
    const next = structuredClone(namespace) as Namespace;
    next.spec = { ...next.spec };
    if (finalizers.length === 0) delete next.spec.finalizers;
    else next.spec.finalizers = [...finalizers];
    const stored = await client.update<Namespace>(namespacesResource, next);
    if ((stored.spec?.finalizers ?? []).includes(finalizerKubernetes)) {
      throw new Error(
        `Cannot finalize namespace "${namespace.metadata.name ?? ""}": the server kept spec.finalizers on update; the client needs PUT namespaces/NAME/finalize`,
      );
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
    const content = await deleteAllContent(deps.client, discovery, namespace, now);
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
