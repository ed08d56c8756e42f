/**
 * The two API lookups the generic scale finder needs: which resource serves a kind (upstream's
 * RESTMapper, here the built-in resources plus established CRDs from an informer) and the
 * owner's `/scale`.
 */
import {
  type CustomResourceDefinition,
  isCrdConditionTrue,
  type KubeObject,
} from "../../api/index.ts";
import {
  builtInResources,
  type Client,
  type ResourceRef,
  type SharedInformer,
} from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import type { ControllerScale, KindMapping } from "./finders.ts";

/** Reads `<resource>/<name>/scale` and returns its uid and `spec.replicas`. */
export type ScaleReader = (
  resource: ResourceRef,
  namespace: string,
  name: string,
) => Promise<ControllerScale>;

/** The built-in resources that serve `/scale`. */
const builtInScale: ReadonlySet<string> = new Set([
  "/replicationcontrollers",
  "apps/deployments",
  "apps/replicasets",
  "apps/statefulsets",
]);

/** Maps a kind to its resource: built-ins first, then established CRDs serving `version`. */
export function newRestMapper(
  crds: SharedInformer<CustomResourceDefinition>,
): (group: string, version: string, kind: string) => KindMapping | undefined {
  return (group, version, kind) => {
    const builtIn = builtInResources.find(
      (r) => r.group === group && r.kind === kind && r.version === version,
    );
    if (builtIn !== undefined) {
      return {
        resource: builtIn,
        implementsScale: builtInScale.has(`${builtIn.group}/${builtIn.resource}`),
      };
    }
    for (const crd of crds.lister.list()) {
      const mapping = crdMapping(crd, group, version, kind);
      if (mapping !== undefined) return mapping;
    }
    return undefined;
  };
}

function crdMapping(
  crd: DeepReadonly<CustomResourceDefinition>,
  group: string,
  version: string,
  kind: string,
): KindMapping | undefined {
  const spec = crd.spec;
  if (spec.group !== group || spec.names?.kind !== kind) return undefined;
  if (!isCrdConditionTrue(crd as CustomResourceDefinition, "Established")) return undefined;
  const served = spec.versions?.find((v) => v.name === version && v.served);
  const plural = spec.names?.plural;
  if (served === undefined || plural === undefined) return undefined;
  return {
    resource: {
      group,
      version,
      resource: plural,
      kind,
      namespaced: spec.scope === "Namespaced",
    },
    implementsScale: served.subresources?.scale !== undefined,
  };
}

/** Reads an owner's Scale with a GET of its `/scale` subresource. */
export function readScaleSubresource(client: Client): ScaleReader {
  return async (resource, namespace, name) => {
    const scale = await client.getSubresource<KubeObject>(resource, namespace, name, "scale");
    const spec = scale["spec"] as { replicas?: number } | undefined;
    return { uid: scale.metadata.uid ?? "", replicas: spec?.replicas ?? 0 };
  };
}
