/**
 * The root CA certificate publisher (upstream's pkg/controller/certificates/rootcacertpublisher):
 * every namespace has a `kube-root-ca.crt` ConfigMap whose `ca.crt` is the cluster CA (what the
 * projected service account volume mounts), created when the namespace appears, and put back
 * when it is deleted or edited.
 */
import type { ConfigMap, Namespace } from "../../api/index.ts";
import {
  type Client,
  configMapsResource,
  type InformerFactory,
  isNamespaceTerminating,
  isNotFound,
  namespacesResource,
} from "../../client/index.ts";
import { type Clock, type DeepReadonly, deepCopy, type Logger } from "../../util/index.ts";
import {
  type Controller,
  defineController,
  done,
  type ReconcileResult,
  watch,
} from "../framework/index.ts";

/** `RootCACertConfigMapName`. */
export const rootCaConfigMapName = "kube-root-ca.crt";

/** `DescriptionAnnotation`. */
export const descriptionAnnotation = "kubernetes.io/description";

/** `Description`: what the ConfigMap is for. */
export const rootCaDescription =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

export interface RootCaPublisherDeps {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface RootCaPublisherOptions {
  /**
   * The CA bundle (PEM) to publish: kube-controller-manager's `--root-ca-file`, or the CA of its
   * own kubeconfig. @default "" (a plain-http cluster has no CA)
   */
  readonly rootCa?: string;
  /** Concurrent reconciles (upstream runs one). @default 1 */
  readonly workers?: number;
}

/**
 * Pure: what the namespace's ConfigMap must become: `create` when missing, `update` (data and
 * the description annotation put right, other fields kept) when it differs, `none` otherwise.
 */
export function rootCaConfigMapChange(
  current: DeepReadonly<ConfigMap> | undefined,
  namespace: string,
  rootCa: string,
):
  | { readonly action: "create" | "update"; readonly configMap: ConfigMap }
  | { readonly action: "none" } {
  const data = { "ca.crt": rootCa };
  if (current === undefined) {
    return {
      action: "create",
      configMap: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: rootCaConfigMapName,
          namespace,
          annotations: { [descriptionAnnotation]: rootCaDescription },
        },
        data,
      },
    };
  }
  const sameData =
    Object.keys(current.data ?? {}).length === 1 && current.data?.["ca.crt"] === rootCa;
  if (sameData && (current.metadata.annotations?.[descriptionAnnotation] ?? "") !== "") {
    return { action: "none" };
  }
  const next = deepCopy(current) as ConfigMap;
  next.data = data;
  next.metadata.annotations = {
    ...(next.metadata.annotations ?? {}),
    [descriptionAnnotation]: rootCaDescription,
  };
  return { action: "update", configMap: next };
}

export function newRootCaPublisher(
  deps: RootCaPublisherDeps,
  options: RootCaPublisherOptions = {},
): Controller {
  const rootCa = options.rootCa ?? "";
  const namespaces = deps.informers.forResource<Namespace>(namespacesResource);
  const configMaps = deps.informers.forResource<ConfigMap>(configMapsResource, {
    fieldSelector: `metadata.name=${rootCaConfigMapName}`,
  });

  const reconcile = async (key: string): Promise<ReconcileResult> => {
    const change = rootCaConfigMapChange(
      configMaps.lister.get(key, rootCaConfigMapName),
      key,
      rootCa,
    );
    try {
      if (change.action === "create") {
        await deps.client.create<ConfigMap>(configMapsResource, change.configMap);
      } else if (change.action === "update") {
        await deps.client.update<ConfigMap>(configMapsResource, change.configMap);
      }
    } catch (error: unknown) {
      // Don't retry a create if the namespace doesn't exist or is terminating.
      if (change.action === "create" && (isNotFound(error) || isNamespaceTerminating(error))) {
        return done;
      }
      throw error;
    }
    return done;
  };

  return defineController<Namespace>({
    name: "root-ca-cert-publisher",
    primary: namespaces,
    // Added namespaces, and updated ones while Active.
    primaryToKeys: (event) => {
      if (event.type === "delete") return [];
      if (event.type === "update" && event.object.status?.phase !== "Active") return [];
      return [event.object.metadata.name ?? ""];
    },
    secondary: [
      watch<ConfigMap>(configMaps, (event) =>
        event.type === "add" ? [] : [event.object.metadata.namespace ?? ""],
      ),
    ],
    reconcile,
    workers: options.workers ?? 1,
    clock: deps.clock,
    logger: deps.logger,
  });
}
