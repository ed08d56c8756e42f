/**
 * Authorizers: upstream's union of the privileged-group authorizer (`system:masters` may do
 * anything) and RBAC, or AlwaysAllow. Decisions are synchronous: everything they read is in memory.
 */
import type { PolicyRule, RoleRef } from "../../api/index.ts";
import type { UserInfo } from "../admission/index.ts";
import type { Attributes } from "./attributes.ts";
import { type PolicySource, subjectKeysOf } from "./policy-source.ts";
import { ruleAllows } from "./rules.ts";

/** An authorizer's verdict: allowed, or not with upstream's reason (may be empty). */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
}

/** What a user may do in a namespace (SelfSubjectRulesReview, escalation checks). */
export interface RulesResult {
  readonly resourceRules: readonly PolicyRule[];
  readonly nonResourceRules: readonly PolicyRule[];
  /** True when some rules could not be read (a binding names a missing role). */
  readonly incomplete: boolean;
  /** The resolution errors, joined as upstream's aggregate; empty when none. */
  readonly evaluationError: string;
}

/**
 * Decides requests. Implementations are pure functions of their policy source: the same
 * attributes give the same decision until roles or bindings change.
 */
export interface Authorizer {
  readonly mode: "AlwaysAllow" | "RBAC";
  authorize(attributes: Attributes): Decision;
  /** Every rule that applies to `user` in `namespace` (cluster-wide ones when it is empty). */
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}

/** `user.SystemPrivilegedGroup`. */
export const privilegedGroup = "system:masters";

const fullAuthority: readonly PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

function split(
  rules: readonly PolicyRule[],
): Pick<RulesResult, "resourceRules" | "nonResourceRules"> {
  return {
    resourceRules: rules.filter((r) => (r.nonResourceURLs ?? []).length === 0),
    nonResourceRules: rules.filter((r) => (r.nonResourceURLs ?? []).length > 0),
  };
}

/** `--authorization-mode AlwaysAllow`. */
export function newAlwaysAllowAuthorizer(): Authorizer {
  return {
    mode: "AlwaysAllow",
    authorize: () => ({ allowed: true, reason: "" }),
    rulesFor: () => ({ ...split(fullAuthority), incomplete: false, evaluationError: "" }),
  };
}

/** `utilerrors.NewAggregate(errs).Error()`: one message, or `[a, b]` without repeats. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? "";
  return `[${unique.join(", ")}]`;
}

/**
 * Visits the rules that apply to `user` in `namespace`, as upstream's `VisitRulesFor`:
 * ClusterRoleBindings first, then the namespace's RoleBindings. `visit` returns false to stop;
 * a binding whose role is missing is visited as an error message.
 */
export function visitRulesFor(
  source: PolicySource,
  user: UserInfo,
  namespace: string,
  visit: (rule: PolicyRule | undefined, error: string | undefined) => boolean,
): void {
  const keys = subjectKeysOf(user);
  for (const binding of source.clusterRoleBindings(keys)) {
    if (!visitRole(source, binding.roleRef, "", visit)) return;
  }
  if (namespace === "") return;
  for (const binding of source.roleBindings(namespace, keys)) {
    if (!visitRole(source, binding.roleRef, namespace, visit)) return;
  }
}

/** `GetRoleReferenceRules`, visiting each rule; false when the visitor stopped. */
function visitRole(
  source: PolicySource,
  ref: RoleRef,
  namespace: string,
  visit: (rule: PolicyRule | undefined, error: string | undefined) => boolean,
): boolean {
  const rules = roleReferenceRules(source, ref, namespace);
  if (typeof rules === "string") return visit(undefined, rules);
  for (const rule of rules) if (!visit(rule, undefined)) return false;
  return true;
}

/** The rules a role reference grants, or upstream's error message when it cannot be read. */
export function roleReferenceRules(
  source: PolicySource,
  ref: RoleRef,
  namespace: string,
): readonly PolicyRule[] | string {
  switch (ref.kind) {
    case "Role": {
      const role = source.role(namespace, ref.name);
      return role === undefined
        ? `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`
        : (role.rules ?? []);
    }
    case "ClusterRole": {
      const role = source.clusterRole(ref.name);
      return role === undefined
        ? `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found`
        : (role.rules ?? []);
    }
    default:
      return `unsupported role reference kind: ${JSON.stringify(ref.kind)}`;
  }
}

function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(privilegedGroup);
}

/** `--authorization-mode RBAC` (with `system:masters` always allowed, as kube-apiserver). */
export function newRbacAuthorizer(source: PolicySource): Authorizer {
  return {
    mode: "RBAC",
    authorize(attributes) {
      if (isPrivileged(attributes.user)) return { allowed: true, reason: "" };
      const errors: string[] = [];
      let allowed = false;
      const namespace = attributes.kind === "resource" ? attributes.namespace : "";
      visitRulesFor(source, attributes.user, namespace, (rule, error) => {
        if (error !== undefined) {
          errors.push(error);
          return true;
        }
        if (rule !== undefined && ruleAllows(attributes, rule)) {
          allowed = true;
          return false;
        }
        return true;
      });
      if (allowed) return { allowed: true, reason: "" };
      return {
        allowed: false,
        reason: errors.length === 0 ? "" : `RBAC: ${aggregateMessage(errors)}`,
      };
    },
    rulesFor(user, namespace) {
      const rules: PolicyRule[] = isPrivileged(user) ? [...fullAuthority] : [];
      const errors: string[] = [];
      visitRulesFor(source, user, namespace, (rule, error) => {
        if (error !== undefined) errors.push(error);
        else if (rule !== undefined) rules.push(rule);
        return true;
      });
      return {
        ...split(rules),
        incomplete: errors.length > 0,
        evaluationError: aggregateMessage(errors),
      };
    },
  };
}
