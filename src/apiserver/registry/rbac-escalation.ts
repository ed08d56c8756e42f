/**
 * RBAC privilege-escalation prevention, as upstream's `policybased` role and binding storage:
 * a user may write a Role or ClusterRole only with rules they already hold (or with the
 * `escalate` verb on it), and bind a role only if they hold its rules (or have `bind` on it).
 * `system:masters` is exempt. Runs as the last mutating admission step, before validation, where
 * upstream's storage wrapper runs.
 */
import {
  type ClusterRole,
  compactRuleString,
  forbidden,
  type KubeObject,
  type PolicyRule,
  type RoleRef,
  rbacGroup,
} from "../../api/index.ts";
import { type AdmissionAttributes, type AdmissionPlugin, admit } from "../admission/index.ts";
import type { Attributes } from "../authz/attributes.ts";
import { type Authorizer, privilegedGroup, roleReferenceRules } from "../authz/authorizer.ts";
import type { PolicySource } from "../authz/policy-source.ts";
import { compactRules, covers } from "../authz/rules.ts";

const fullAuthority: readonly PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

const handled = new Set(["roles", "clusterroles", "rolebindings", "clusterrolebindings"]);

/** `IsOnlyMutatingGCFields`: the update changes owner references and finalizers only. */
function onlyGcFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const {
      ownerReferences,
      finalizers,
      deletionTimestamp,
      deletionGracePeriodSeconds,
      managedFields,
      resourceVersion,
      ...meta
    } = o.metadata;
    return JSON.stringify({ ...o, metadata: meta });
  };
  return strip(obj) === strip(old);
}

/**
 * `ConfirmNoEscalation`: undefined when `user` holds every rule of `rules` in `namespace`, else
 * upstream's message listing the missing rules.
 */
export function escalationMessage(
  authorizer: Authorizer,
  user: AdmissionAttributes["userInfo"],
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const owned = authorizer.rulesFor(user, namespace);
  const { covered, missing } = covers([...owned.resourceRules, ...owned.nonResourceRules], rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactRuleString))].sort();
  const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(" ")}]`;
  let message = `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join("\n")}`;
  if (owned.evaluationError !== "") message += `; resolution errors: [${owned.evaluationError}]`;
  return message;
}

function allowedVerb(
  authorizer: Authorizer,
  attributes: AdmissionAttributes,
  verb: "escalate" | "bind",
  resource: string,
  name: string,
): boolean {
  const request: Attributes = {
    kind: "resource",
    user: attributes.userInfo,
    verb,
    namespace: attributes.namespace,
    apiGroup: rbacGroup,
    apiVersion: "*",
    resource,
    subresource: "",
    name,
  };
  return authorizer.authorize(request).allowed;
}

function deny(attributes: AdmissionAttributes, message: string) {
  return {
    allowed: false as const,
    error: forbidden({ group: rbacGroup, resource: attributes.resource }, attributes.name, message),
  };
}

/** The escalation check as an admission plugin over `authorizer` and its policy `source`. */
export function newRbacEscalationCheck(
  authorizer: Authorizer,
  source: PolicySource,
): AdmissionPlugin {
  return {
    name: "RBACEscalation",
    handles: (a) =>
      a.group === rbacGroup &&
      a.subresource === "" &&
      handled.has(a.resource) &&
      (a.operation === "CREATE" || a.operation === "UPDATE"),
    mutate(attributes) {
      const obj = attributes.object;
      if (obj === undefined || attributes.userInfo.groups.includes(privilegedGroup)) return admit;
      if (attributes.oldObject !== undefined && onlyGcFields(obj, attributes.oldObject))
        return admit;
      const { resource, namespace, name } = attributes;
      if (resource === "roles" || resource === "clusterroles") {
        if (allowedVerb(authorizer, attributes, "escalate", resource, name)) return admit;
        const message = escalationMessage(
          authorizer,
          attributes.userInfo,
          namespace,
          (obj["rules"] ?? []) as PolicyRule[],
        );
        if (message !== undefined) return deny(attributes, message);
        const aggregation = (obj as ClusterRole).aggregationRule;
        const oldAggregation = (attributes.oldObject as ClusterRole | undefined)?.aggregationRule;
        if (
          resource === "clusterroles" &&
          aggregation !== undefined &&
          JSON.stringify(aggregation) !== JSON.stringify(oldAggregation) &&
          escalationMessage(authorizer, attributes.userInfo, "", fullAuthority) !== undefined
        ) {
          return deny(attributes, "must have cluster-admin privileges to use the aggregationRule");
        }
        return admit;
      }
      const ref = obj["roleRef"] as RoleRef | undefined;
      if (ref === undefined) return admit;
      const refResource = ref.kind === "Role" ? "roles" : "clusterroles";
      if (allowedVerb(authorizer, attributes, "bind", refResource, ref.name)) return admit;
      const rules = roleReferenceRules(source, ref, namespace);
      if (typeof rules === "string") return deny(attributes, rules);
      const message = escalationMessage(authorizer, attributes.userInfo, namespace, rules);
      return message === undefined ? admit : deny(attributes, message);
    },
  };
}
