// The public surface of rbac.authorization.k8s.io/v1.

export {
  aggregateToAdmin,
  aggregateToEdit,
  aggregateToView,
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  controllerManagerUser,
  gantryControllerManagerRole,
  kueueServiceAccount,
  nodeRules,
  nodesGroup,
  queueingUser,
  schedulerUser,
} from "./bootstrap-policy.ts";
export {
  clusterRoleBindingKind,
  clusterRoleKind,
  rbacV1Kinds,
  roleBindingKind,
  roleKind,
} from "./kinds.ts";
export { rbacName, rbacV1Definitions } from "./schema.ts";
export {
  type AggregationRule,
  autoUpdateAnnotation,
  type ClusterRole,
  type ClusterRoleBinding,
  compactRuleString,
  defaultSubjects,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type RoleRef,
  rbacGroup,
  ruleAll,
  type Subject,
} from "./types.ts";
export {
  validateClusterRole,
  validateClusterRoleBinding,
  validatePolicyRule,
  validateRole,
  validateRoleBinding,
  validateSubject,
} from "./validation.ts";
