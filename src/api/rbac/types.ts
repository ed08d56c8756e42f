/** Wire types of `rbac.authorization.k8s.io/v1`, mirroring the JSON exactly. */
import type { LabelSelector, ObjectMeta } from "../meta/types.ts";

export const rbacGroup = "rbac.authorization.k8s.io";

/** `rbac.authorization.kubernetes.io/autoupdate`: bootstrap may reconcile the object. */
export const autoUpdateAnnotation = "rbac.authorization.kubernetes.io/autoupdate";

/** `*`: every verb, group, resource or non-resource URL. */
export const ruleAll = "*";

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Role {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  rules?: PolicyRule[];
  [field: string]: unknown;
}

export interface ClusterRole {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
  [field: string]: unknown;
}

/** `User`, `Group` or `ServiceAccount`. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
  [field: string]: unknown;
}

export interface ClusterRoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  subjects?: Subject[];
  roleRef: RoleRef;
  [field: string]: unknown;
}

/** `SetDefaults_Subject`: User and Group subjects default to the RBAC group. */
export function defaultSubjects(binding: { subjects?: Subject[]; roleRef?: RoleRef }): void {
  if (binding.roleRef !== undefined && (binding.roleRef.apiGroup ?? "") === "") {
    binding.roleRef.apiGroup = rbacGroup;
  }
  for (const subject of binding.subjects ?? []) {
    if ((subject.apiGroup ?? "") !== "") continue;
    if (subject.kind === "User" || subject.kind === "Group") subject.apiGroup = rbacGroup;
  }
}

/**
 * `rbacv1helpers.CompactString`: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`,
 * the form escalation errors list missing rules in.
 */
export function compactRuleString(rule: PolicyRule): string {
  const quoted = (values: readonly string[]): string =>
    `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
  const parts: string[] = [];
  if ((rule.apiGroups ?? []).length > 0) parts.push(`APIGroups:${quoted(rule.apiGroups ?? [])}`);
  if ((rule.resources ?? []).length > 0) parts.push(`Resources:${quoted(rule.resources ?? [])}`);
  if ((rule.nonResourceURLs ?? []).length > 0) {
    parts.push(`NonResourceURLs:${quoted(rule.nonResourceURLs ?? [])}`);
  }
  if ((rule.resourceNames ?? []).length > 0) {
    parts.push(`ResourceNames:${quoted(rule.resourceNames ?? [])}`);
  }
  if (rule.verbs.length > 0) parts.push(`Verbs:${quoted(rule.verbs)}`);
  return `{${parts.join(", ")}}`;
}
