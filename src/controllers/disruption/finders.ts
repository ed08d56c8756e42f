/**
 * getExpectedScale: the summed scale of the selected pods' controllers. Built-in owners
 * (ReplicationController, Deployment through its ReplicaSet, ReplicaSet, StatefulSet) come
 * from informers; any other owner is read through its `/scale` subresource, once per sync
 * (the scale-subresource KEP's "per reconcile loop cache").
 */
import { ApiError, type KubeObject, type OwnerReference, type Pod } from "../../api/index.ts";
import type { ResourceRef, SharedInformer } from "../../client/index.ts";
import type { DeepReadonly } from "../../util/index.ts";
import { controllerRefOf } from "../framework/index.ts";
import type { ExpectedScale } from "./status.ts";

/** A controller's identity and desired scale. */
export interface ControllerScale {
  readonly uid: string;
  readonly replicas: number;
}

/** What the RESTMapper knows of a kind: its resource and whether it serves `/scale`. */
export interface KindMapping {
  readonly resource: ResourceRef;
  readonly implementsScale: boolean;
}

/** The lookups the finders need. */
export interface FinderSources {
  readonly replicationControllers: SharedInformer<KubeObject>;
  readonly replicaSets: SharedInformer<KubeObject>;
  readonly deployments: SharedInformer<KubeObject>;
  readonly statefulSets: SharedInformer<KubeObject>;
  /** The resource serving `group`/`kind` at `version`, or `undefined` (no REST mapping). */
  mapKind(group: string, version: string, kind: string): KindMapping | undefined;
  /** GET `<resource>/<name>/scale`: the Scale's uid and spec.replicas; 404 as an ApiError. */
  readScale(resource: ResourceRef, namespace: string, name: string): Promise<ControllerScale>;
}

type Finder = (
  sources: FinderSources,
  ref: DeepReadonly<OwnerReference>,
  namespace: string,
) => Promise<ControllerScale | undefined> | ControllerScale | undefined;

/** `schema.ParseGroupVersion`: "v1" is the core group; more than one "/" is an error. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === "" || apiVersion === "/") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: parts[0] ?? "" };
  if (parts.length === 2) return { group: parts[0] ?? "", version: parts[1] ?? "" };
  throw new RangeError(`unexpected GroupVersion string: ${apiVersion}`);
}

/** verifyGroupKind: the ref's group is one of `groups` and its kind is `kind`. */
function verifyGroupKind(
  ref: DeepReadonly<OwnerReference>,
  kind: string,
  groups: readonly string[],
): boolean {
  const { group } = parseGroupVersion(ref.apiVersion);
  return ref.kind === kind && groups.includes(group);
}

const appsGroups = ["apps", "extensions"] as const;

function replicasOf(object: DeepReadonly<KubeObject>): number {
  const spec = object["spec"] as { replicas?: number } | undefined;
  return spec?.replicas ?? 1;
}

function lookup(
  informer: SharedInformer<KubeObject>,
  namespace: string,
  ref: DeepReadonly<OwnerReference>,
): DeepReadonly<KubeObject> | undefined {
  const object = informer.lister.get(namespace, ref.name);
  if (object === undefined || object.metadata.uid !== ref.uid) return undefined;
  return object;
}

const findReplicationController: Finder = (sources, ref, namespace) => {
  if (!verifyGroupKind(ref, "ReplicationController", [""])) return undefined;
  const rc = lookup(sources.replicationControllers, namespace, ref);
  return rc === undefined ? undefined : { uid: rc.metadata.uid ?? "", replicas: replicasOf(rc) };
};

const findDeployment: Finder = (sources, ref, namespace) => {
  if (!verifyGroupKind(ref, "ReplicaSet", appsGroups)) return undefined;
  const rs = lookup(sources.replicaSets, namespace, ref);
  if (rs === undefined) return undefined;
  const owner = controllerRefOf(rs);
  if (owner === undefined || !verifyGroupKind(owner, "Deployment", appsGroups)) return undefined;
  const deployment = lookup(sources.deployments, namespace, owner);
  if (deployment === undefined) return undefined;
  return { uid: deployment.metadata.uid ?? "", replicas: replicasOf(deployment) };
};

const findReplicaSet: Finder = (sources, ref, namespace) => {
  if (!verifyGroupKind(ref, "ReplicaSet", appsGroups)) return undefined;
  const rs = lookup(sources.replicaSets, namespace, ref);
  if (rs === undefined) return undefined;
  if (controllerRefOf(rs)?.kind === "Deployment") return undefined;
  return { uid: rs.metadata.uid ?? "", replicas: replicasOf(rs) };
};

const findStatefulSet: Finder = (sources, ref, namespace) => {
  if (!verifyGroupKind(ref, "StatefulSet", ["apps"])) return undefined;
  const set = lookup(sources.statefulSets, namespace, ref);
  return set === undefined ? undefined : { uid: set.metadata.uid ?? "", replicas: replicasOf(set) };
};

/** The generic finder: the owner's `/scale`, with upstream's errors for unmapped kinds. */
const findScale: Finder = async (sources, ref, namespace) => {
  const { group, version } = parseGroupVersion(ref.apiVersion);
  const mapping = sources.mapKind(group, version, ref.kind);
  if (mapping === undefined) {
    throw new RangeError(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
  }
  try {
    const scale = await sources.readScale(mapping.resource, namespace, ref.name);
    if (scale.uid !== ref.uid) return undefined;
    return scale;
  } catch (error: unknown) {
    if (!(error instanceof ApiError) || error.code !== 404) throw error;
    if (!mapping.implementsScale) {
      const { resource } = mapping;
      const qualified =
        resource.group === "" ? resource.resource : `${resource.resource}.${resource.group}`;
      throw new RangeError(`${qualified} does not implement the scale subresource`);
    }
    return undefined;
  }
};

const finders: readonly Finder[] = [
  findReplicationController,
  findDeployment,
  findReplicaSet,
  findStatefulSet,
  findScale,
];

/**
 * The summed scale of the controllers of `pods` (each controller once), and the names of pods
 * without a controller. Throws `found no controllers for pod "<name>"` when a pod's controller
 * cannot be found, or the scale finder's error.
 */
export async function getExpectedScale(
  sources: FinderSources,
  pods: readonly DeepReadonly<Pod>[],
): Promise<ExpectedScale> {
  const controllerScale = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (ref === undefined) {
      unmanaged.push(pod.metadata.name ?? "");
      continue;
    }
    if (controllerScale.has(ref.uid)) continue;
    let found = false;
    for (const finder of finders) {
      const scale = await finder(sources, ref, pod.metadata.namespace ?? "");
      if (scale !== undefined) {
        controllerScale.set(scale.uid, scale.replicas);
        found = true;
        break;
      }
    }
    if (!found) throw new RangeError(`found no controllers for pod "${pod.metadata.name ?? ""}"`);
  }
  let expected = 0;
  for (const replicas of controllerScale.values()) expected += replicas;
  return { expected, unmanaged };
}
