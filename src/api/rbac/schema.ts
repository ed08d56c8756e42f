/** Named schema definitions of `rbac.authorization.k8s.io/v1`. */
import { kindSchema, labelSelectorName, listSchema } from "../apps/v1/schema-helpers.ts";
import { atomicList, obj, str } from "../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../schema/schema.ts";

/** `io.k8s.api.rbac.v1.<name>`. */
export function rbacName(name: string): string {
  return `io.k8s.api.rbac.v1.${name}`;
}

const gv = { group: "rbac.authorization.k8s.io", version: "v1" };
const strings = (description: string) => atomicList(str(), description);

function rulesProperty(description: string): Schema {
  return {
    type: "array" as const,
    items: ref(rbacName("PolicyRule")),
    description,
    "x-kubernetes-list-type": "atomic",
  };
}

function bindingProperties(kind: string): Record<string, Schema> {
  return {
    subjects: {
      type: "array" as const,
      items: ref(rbacName("Subject")),
      description: "Subjects holds references to the objects the role applies to.",
      "x-kubernetes-list-type": "atomic",
    },
    roleRef: ref(
      rbacName("RoleRef"),
      kind === "RoleBinding"
        ? "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable."
        : "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
    ),
  };
}

export const rbacV1Definitions: Definitions = {
  [rbacName("PolicyRule")]: obj(
    {
      verbs: strings(
        "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
      ),
      apiGroups: strings(
        'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
      ),
      resources: strings(
        "Resources is a list of resources this rule applies to. '*' represents all resources.",
      ),
      resourceNames: strings(
        "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.",
      ),
      nonResourceURLs: strings(
        'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.',
      ),
    },
    {
      description:
        "PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.",
      required: ["verbs"],
    },
  ),
  [rbacName("AggregationRule")]: obj(
    {
      clusterRoleSelectors: {
        type: "array" as const,
        items: ref(labelSelectorName),
        description:
          "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
        "x-kubernetes-list-type": "atomic",
      },
    },
    {
      description:
        "AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole",
    },
  ),
  [rbacName("Subject")]: obj(
    {
      kind: str(
        'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".',
      ),
      apiGroup: str("APIGroup holds the API group of the referenced subject."),
      name: str("Name of the object being referenced."),
      namespace: str("Namespace of the referenced object."),
    },
    {
      description:
        "Subject contains a reference to the object or user identities a role binding applies to.",
      required: ["kind", "name"],
    },
  ),
  [rbacName("RoleRef")]: obj(
    {
      apiGroup: str("APIGroup is the group for the resource being referenced"),
      kind: str("Kind is the type of resource being referenced"),
      name: str("Name is the name of resource being referenced"),
    },
    {
      description: "RoleRef contains information that points to the role being used",
      required: ["apiGroup", "kind", "name"],
    },
  ),
  [rbacName("Role")]: kindSchema(
    { ...gv, kind: "Role" },
    "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
    { rules: rulesProperty("Rules holds all the PolicyRules for this Role") },
  ),
  [rbacName("ClusterRole")]: kindSchema(
    { ...gv, kind: "ClusterRole" },
    "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
    {
      rules: rulesProperty("Rules holds all the PolicyRules for this ClusterRole"),
      aggregationRule: ref(
        rbacName("AggregationRule"),
        "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.",
      ),
    },
  ),
  [rbacName("RoleBinding")]: kindSchema(
    { ...gv, kind: "RoleBinding" },
    "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace.",
    bindingProperties("RoleBinding"),
    ["roleRef"],
  ),
  [rbacName("ClusterRoleBinding")]: kindSchema(
    { ...gv, kind: "ClusterRoleBinding" },
    "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
    bindingProperties("ClusterRoleBinding"),
    ["roleRef"],
  ),
  [rbacName("RoleList")]: listSchema({ ...gv, kind: "RoleList" }, rbacName("Role")),
  [rbacName("ClusterRoleList")]: listSchema(
    { ...gv, kind: "ClusterRoleList" },
    rbacName("ClusterRole"),
  ),
  [rbacName("RoleBindingList")]: listSchema(
    { ...gv, kind: "RoleBindingList" },
    rbacName("RoleBinding"),
  ),
  [rbacName("ClusterRoleBindingList")]: listSchema(
    { ...gv, kind: "ClusterRoleBindingList" },
    rbacName("ClusterRoleBinding"),
  ),
};
