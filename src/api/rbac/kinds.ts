/** The `rbac.authorization.k8s.io/v1` KindDefinitions. */
import { externalDefinitions } from "../apps/v1/core-adapter.ts";
import { allVerbs, type KindDefinition } from "../scheme.ts";
import { rbacName, rbacV1Definitions } from "./schema.ts";
import {
  type ClusterRole,
  type ClusterRoleBinding,
  defaultSubjects,
  type Role,
  type RoleBinding,
} from "./types.ts";
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateClusterRoleUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
  validateRoleUpdate,
} from "./validation.ts";

const definitions = { ...externalDefinitions(), ...rbacV1Definitions };

function kind<T extends Role | ClusterRole | RoleBinding | ClusterRoleBinding>(
  name: string,
  resource: string,
  namespaced: boolean,
  hooks: Pick<KindDefinition<T>, "applyDefaults" | "validate" | "validateUpdate">,
): KindDefinition<T> {
  return {
    group: "rbac.authorization.k8s.io",
    version: "v1",
    kind: name,
    listKind: `${name}List`,
    resource,
    singular: name.toLowerCase(),
    namespaced,
    shortNames: [],
    categories: [],
    verbs: allVerbs,
    schema: { schema: rbacV1Definitions[rbacName(name)] ?? {}, definitions },
    tracksGeneration: false,
    subresources: { status: false },
    ...hooks,
  };
}

export const roleKind = kind<Role>("Role", "roles", true, {
  applyDefaults: () => {},
  validate: validateRole,
  validateUpdate: validateRoleUpdate,
});

export const clusterRoleKind = kind<ClusterRole>("ClusterRole", "clusterroles", false, {
  applyDefaults: () => {},
  validate: validateClusterRole,
  validateUpdate: validateClusterRoleUpdate,
});

export const roleBindingKind = kind<RoleBinding>("RoleBinding", "rolebindings", true, {
  applyDefaults: defaultSubjects,
  validate: validateRoleBinding,
  validateUpdate: validateRoleBindingUpdate,
});

export const clusterRoleBindingKind = kind<ClusterRoleBinding>(
  "ClusterRoleBinding",
  "clusterrolebindings",
  false,
  {
    applyDefaults: defaultSubjects,
    validate: validateClusterRoleBinding,
    validateUpdate: validateClusterRoleBindingUpdate,
  },
);

/** Every served `rbac.authorization.k8s.io/v1` kind, in upstream's discovery order. */
export const rbacV1Kinds = [
  clusterRoleBindingKind,
  clusterRoleKind,
  roleBindingKind,
  roleKind,
] as const;
