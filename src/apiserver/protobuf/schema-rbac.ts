// k8s.io/api/rbac/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding (what `kubectl create
// role|clusterrole|rolebinding|clusterrolebinding` sends). Field numbers: rbac/v1
// generated.proto (1.33); JSON rules: rbac/v1 types.go.

import { keep, list, type MessageTable, ptr, val } from "./schema.ts";

export const rbacMessages: MessageTable = {
  Role: [val(1, "metadata", "ObjectMeta"), list(2, "rules", "PolicyRule", keep)],
  ClusterRole: [
    val(1, "metadata", "ObjectMeta"),
    list(2, "rules", "PolicyRule", keep),
    ptr(3, "aggregationRule", "AggregationRule"),
  ],
  AggregationRule: [list(1, "clusterRoleSelectors", "LabelSelector")],
  PolicyRule: [
    list(1, "verbs", "string", keep),
    list(2, "apiGroups", "string"),
    list(3, "resources", "string"),
    list(4, "resourceNames", "string"),
    list(5, "nonResourceURLs", "string"),
  ],
  RoleBinding: [
    val(1, "metadata", "ObjectMeta"),
    list(2, "subjects", "Subject"),
    val(3, "roleRef", "RoleRef", keep),
  ],
  ClusterRoleBinding: [
    val(1, "metadata", "ObjectMeta"),
    list(2, "subjects", "Subject"),
    val(3, "roleRef", "RoleRef", keep),
  ],
  RoleRef: [
    val(1, "apiGroup", "string", keep),
    val(2, "kind", "string", keep),
    val(3, "name", "string", keep),
  ],
  Subject: [
    val(1, "kind", "string", keep),
    val(2, "apiGroup", "string"),
    val(3, "name", "string", keep),
    val(4, "namespace", "string"),
  ],
};
