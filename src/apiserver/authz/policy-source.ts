/**
 * Where the RBAC authorizer reads roles and bindings: the API server's watch cache, with the
 * bindings indexed by subject so a request looks up only the bindings naming its user or groups.
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
  Subject,
} from "../../api/index.ts";
import type { CachedObject, CacheIndexFunc, WatchCache } from "../watch-cache/index.ts";

/** Read access to RBAC objects. Returned objects are shared: never mutate them. */
export interface PolicySource {
  /** The ClusterRoleBindings with a subject among `keys` (see `subjectKeysOf`), each once. */
  clusterRoleBindings(keys: readonly string[]): readonly ClusterRoleBinding[];
  /** The RoleBindings of `namespace` with a subject among `keys`, each once. */
  roleBindings(namespace: string, keys: readonly string[]): readonly RoleBinding[];
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
}

export const clusterRoleBindingsSegment = "clusterrolebindings.rbac.authorization.k8s.io";
export const roleBindingsSegment = "rolebindings.rbac.authorization.k8s.io";
const clusterRolesSegment = "clusterroles.rbac.authorization.k8s.io";
const rolesSegment = "roles.rbac.authorization.k8s.io";

/** The watch-cache index the bindings are filed under. */
export const subjectIndexName = "rbacSubject";

const serviceAccountPrefix = "system:serviceaccount:";

/**
 * The index keys of a subject: `User:<name>`, `Group:<name>`; a ServiceAccount is filed under
 * the username it authenticates as (`User:system:serviceaccount:<ns>:<name>`), its namespace
 * defaulting to the binding's as upstream's `appliesToUser` does. Unknown kinds file nowhere.
 */
function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case "User":
      return `User:${subject.name}`;
    case "Group":
      return `Group:${subject.name}`;
    case "ServiceAccount": {
      const namespace =
        (subject.namespace ?? "") === "" ? bindingNamespace : (subject.namespace ?? "");
      if (namespace === "") return undefined;
      return `User:${serviceAccountPrefix}${namespace}:${subject.name}`;
    }
    default:
      return undefined;
  }
}

/** Files a binding under each subject's key; RoleBindings' keys carry their namespace. */
export const subjectIndex: CacheIndexFunc = (object: CachedObject) => {
  const subjects = (object.object["subjects"] ?? []) as unknown as readonly Subject[];
  const keys = new Set<string>();
  for (const subject of subjects) {
    const key = subjectKey(subject, object.namespace);
    if (key !== undefined) keys.add(object.namespace === "" ? key : `${object.namespace}/${key}`);
  }
  return [...keys];
};

/** The index keys a user's bindings are filed under. */
export function subjectKeysOf(user: { username: string; groups: readonly string[] }): string[] {
  return [`User:${user.username}`, ...user.groups.map((g) => `Group:${g}`)];
}

function unique<T>(cache: WatchCache, segment: string, keys: readonly string[]): T[] {
  const resource = cache.resource(segment);
  if (keys.length === 1)
    return resource.byIndex(subjectIndexName, keys[0] ?? "").map((c) => c.object as T);
  const seen = new Map<string, T>();
  for (const key of keys) {
    for (const cached of resource.byIndex(subjectIndexName, key)) {
      seen.set(cached.key, cached.object as T);
    }
  }
  return [...seen.values()];
}

/** A PolicySource over the watch cache (`root` is the storage root, ending in `/`). */
export function newCachePolicySource(cache: WatchCache, root: string): PolicySource {
  return {
    clusterRoleBindings: (keys) =>
      unique<ClusterRoleBinding>(cache, clusterRoleBindingsSegment, keys),
    roleBindings: (namespace, keys) =>
      unique<RoleBinding>(
        cache,
        roleBindingsSegment,
        keys.map((k) => `${namespace}/${k}`),
      ),
    clusterRole: (name) =>
      cache.resource(clusterRolesSegment).get(`${root}${clusterRolesSegment}/${name}`)?.object as
        | ClusterRole
        | undefined,
    role: (namespace, name) =>
      cache.resource(rolesSegment).get(`${root}${rolesSegment}/${namespace}/${name}`)?.object as
        | Role
        | undefined,
  };
}
