/**
 * The serviceaccount controller (upstream's pkg/controller/serviceaccount
 * ServiceAccountsController): every active namespace has a `default` ServiceAccount, created
 * when the namespace appears and again whenever it is deleted. Terminating namespaces are left
 * alone.
 */
import type { Namespace, ServiceAccount } from "../../api/index.ts";
import {
  type Client,
  type InformerFactory,
  isAlreadyExists,
  isNamespaceTerminating,
  isNotFound,
  namespacesResource,
  serviceAccountsResource,
} from "../../client/index.ts";
import type { Clock, DeepReadonly, Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  watch,
} from "../framework/index.ts";

/** The service accounts every namespace gets (upstream ensures `default` alone). */
export const serviceAccountsToEnsure: readonly string[] = ["default"];

export interface ServiceAccountControllerDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface ServiceAccountControllerOptions {
  /** Concurrent reconciles (upstream runs one). @default 1 */
  readonly workers?: number;
}

/**
 * Pure: the names of `serviceAccountsToEnsure` a namespace lacks, or none when it is not Active
 * (a terminating namespace refuses new objects anyway).
 */
export function missingServiceAccounts(
  namespace: DeepReadonly<Namespace>,
  exists: (name: string) => boolean,
): string[] {
  if (namespace.status?.phase !== "Active") return [];
  return serviceAccountsToEnsure.filter((name) => !exists(name));
}

export function newServiceAccountController(
  deps: ServiceAccountControllerDeps,
  options: ServiceAccountControllerOptions = {},
): Controller {
  const namespaces = deps.informers.forResource<Namespace>(namespacesResource);
  const accounts = deps.informers.forResource<ServiceAccount>(serviceAccountsResource);

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const namespace = namespaces.lister.get(undefined, key);
    if (namespace === undefined) return done;
    const missing = missingServiceAccounts(
      namespace,
      (name) => accounts.lister.get(key, name) !== undefined,
    );
    for (const name of missing) {
      try {
        await deps.client.create<ServiceAccount>(serviceAccountsResource, {
          apiVersion: "v1",
          kind: "ServiceAccount",
          metadata: { name, namespace: key },
        });
      } catch (error: unknown) {
        // Created meanwhile, or the namespace went away or began terminating: nothing to do.
        if (isAlreadyExists(error) || isNamespaceTerminating(error) || isNotFound(error)) continue;
        throw error;
      }
    }
    return done;
  };

  return defineController<Namespace>({
    name: "serviceaccount",
    primary: namespaces,
    secondary: [
      // A deleted service account is recreated: its namespace is looked at again.
      watch<ServiceAccount>(accounts, (event) =>
        event.type === "delete" ? [event.object.metadata.namespace ?? ""] : [],
      ),
    ],
    reconcile,
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
