/**
 * Which resources exist: the built-in ones the client knows plus the custom resources of every
 * established CRD. This is what the namespace controller and the garbage collector walk
 * (upstream uses the discovery API; gantry's Client has no discovery call, and CRDs carry the
 * same information).
 */
import {
  type CustomResourceDefinition,
  isCrdConditionTrue,
  storageVersionOf,
} from "../../api/index.ts";
import {
  builtInResources,
  type Client,
  customResourceDefinitionsResource,
  type ResourceRef,
} from "../../client/index.ts";
import { type DeepReadonly, errorMessage } from "../../util/index.ts";

/** The resource a CRD serves, at its storage version; `undefined` until it is Established. */
export function resourceOfCrd(
  crd: DeepReadonly<CustomResourceDefinition>,
): ResourceRef | undefined {
  const plain = crd as CustomResourceDefinition;
  if (!isCrdConditionTrue(plain, "Established")) return undefined;
  const version =
    storageVersionOf(plain) ?? plain.spec.versions?.find((v) => v.served !== false)?.name;
  const plural = plain.spec.names?.plural;
  const kind = plain.spec.names?.kind;
  if (version === undefined || plural === undefined || kind === undefined) return undefined;
  return Object.freeze({
    group: plain.spec.group,
    version,
    resource: plural,
    kind,
    namespaced: plain.spec.scope === "Namespaced",
  });
}

/** A snapshot of the served resources. */
export interface DiscoveryResult {
  readonly resources: readonly ResourceRef[];
  /** Why some resources may be missing (e.g. CRDs could not be listed). */
  readonly errors: readonly string[];
}

export interface ResourceDiscovery {
  /** The built-in resources and the custom resources of established CRDs, read now. */
  discover(): Promise<DiscoveryResult>;
}

/** Discovery over `client`: `builtIns` plus a fresh list of CRDs. */
export function newResourceDiscovery(
  client: Client,
  builtIns: readonly ResourceRef[] = builtInResources,
): ResourceDiscovery {
  return {
    async discover() {
      const resources = [...builtIns];
      const errors: string[] = [];
      try {
        const crds = await client.list<CustomResourceDefinition>(
          customResourceDefinitionsResource,
          undefined,
        );
        for (const crd of crds.items) {
          const resource = resourceOfCrd(crd);
          if (resource !== undefined) resources.push(resource);
        }
      } catch (error: unknown) {
        errors.push(
          `${customResourceDefinitionsResource.group}/${customResourceDefinitionsResource.version}: ${errorMessage(error)}`,
        );
      }
      return { resources, errors };
    },
  };
}
