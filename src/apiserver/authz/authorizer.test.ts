import assert from "node:assert/strict";
import test from "node:test";
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from "../../api/index.ts";
import { newCachedObject } from "../watch-cache/index.ts";
import { type Attributes, attributesOf, type ResourceAttributes } from "./attributes.ts";
import { newRbacAuthorizer } from "./authorizer.ts";
import { forbiddenError } from "./forbidden.ts";
import { impersonate } from "./impersonation.ts";
import { type PolicySource, subjectIndex, subjectKeysOf } from "./policy-source.ts";

const ref = (kind: string, name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind, name });

const clusterRoles: ClusterRole[] = [
  {
    metadata: { name: "pod-reader" },
    rules: [{ verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["pods"] }],
  },
  {
    metadata: { name: "discovery" },
    rules: [{ verbs: ["get"], nonResourceURLs: ["/api", "/api/*"] }],
  },
  {
    metadata: { name: "impersonator" },
    rules: [
      { verbs: ["impersonate"], apiGroups: [""], resources: ["users"], resourceNames: ["bob"] },
    ],
  },
];
const roles: Role[] = [
  {
    metadata: { name: "cm-a", namespace: "team-a" },
    rules: [
      {
        verbs: ["get", "update"],
        apiGroups: [""],
        resources: ["configmaps"],
        resourceNames: ["settings"],
      },
    ],
  },
];
const clusterBindings: ClusterRoleBinding[] = [
  {
    metadata: { name: "discovery" },
    roleRef: ref("ClusterRole", "discovery"),
    subjects: [{ kind: "Group", name: "system:authenticated" }],
  },
  {
    metadata: { name: "ci-reads" },
    roleRef: ref("ClusterRole", "pod-reader"),
    subjects: [{ kind: "ServiceAccount", name: "ci", namespace: "tools" }],
  },
  {
    metadata: { name: "alice-imp" },
    roleRef: ref("ClusterRole", "impersonator"),
    subjects: [{ kind: "User", name: "alice" }],
  },
];
const bindings: RoleBinding[] = [
  {
    metadata: { name: "team-reads", namespace: "team-a" },
    roleRef: ref("ClusterRole", "pod-reader"),
    subjects: [{ kind: "Group", name: "team-a" }],
  },
  {
    metadata: { name: "alice-cm", namespace: "team-a" },
    roleRef: ref("Role", "cm-a"),
    subjects: [{ kind: "User", name: "alice" }],
  },
  {
    metadata: { name: "local-sa", namespace: "team-a" },
    roleRef: ref("ClusterRole", "pod-reader"),
    subjects: [{ kind: "ServiceAccount", name: "builder" }],
  },
  {
    metadata: { name: "dangling", namespace: "team-b" },
    roleRef: ref("Role", "gone"),
    subjects: [{ kind: "User", name: "alice" }],
  },
];

/** An in-memory source that files bindings with the same index function the cache uses. */
function source(): PolicySource {
  const index = (items: readonly (ClusterRoleBinding | RoleBinding)[]) => {
    const byKey = new Map<string, (ClusterRoleBinding | RoleBinding)[]>();
    for (const item of items) {
      const cached = newCachedObject(item.metadata.name ?? "", item as never, 1);
      for (const key of subjectIndex(cached)) byKey.set(key, [...(byKey.get(key) ?? []), item]);
    }
    return (keys: readonly string[]) => [...new Set(keys.flatMap((k) => byKey.get(k) ?? []))];
  };
  const cluster = index(clusterBindings);
  const local = index(bindings);
  return {
    clusterRoleBindings: (keys) => cluster(keys) as ClusterRoleBinding[],
    roleBindings: (namespace, keys) => local(keys.map((k) => `${namespace}/${k}`)) as RoleBinding[],
    clusterRole: (name) => clusterRoles.find((r) => r.metadata.name === name),
    role: (namespace, name) =>
      roles.find((r) => r.metadata.name === name && r.metadata.namespace === namespace),
  };
}

const alice = { username: "alice", groups: ["team-a", "system:authenticated"] };
const ci = {
  username: "system:serviceaccount:tools:ci",
  groups: ["system:serviceaccounts", "system:authenticated"],
};
const builder = {
  username: "system:serviceaccount:team-a:builder",
  groups: ["system:authenticated"],
};
const admin = { username: "admin", groups: ["system:masters"] };

function res(
  user: typeof alice,
  verb: string,
  namespace: string,
  resource: string,
  name = "",
): ResourceAttributes {
  return {
    kind: "resource",
    user,
    verb,
    namespace,
    apiGroup: "",
    apiVersion: "v1",
    resource,
    subresource: "",
    name,
  };
}

const cases: { name: string; attributes: Attributes; allowed: boolean; reason?: string }[] = [
  {
    name: "a group's RoleBinding grants in its namespace",
    attributes: res(alice, "list", "team-a", "pods"),
    allowed: true,
  },
  {
    name: "a RoleBinding grants nothing in another namespace",
    attributes: res(alice, "list", "team-c", "pods"),
    allowed: false,
    reason: "",
  },
  {
    name: "a RoleBinding grants nothing cluster-wide",
    attributes: res(alice, "list", "", "pods"),
    allowed: false,
    reason: "",
  },
  {
    name: "a Role's resourceNames allow the named object",
    attributes: res(alice, "update", "team-a", "configmaps", "settings"),
    allowed: true,
  },
  {
    name: "a Role's resourceNames deny another object",
    attributes: res(alice, "update", "team-a", "configmaps", "other"),
    allowed: false,
  },
  {
    name: "a ServiceAccount subject of a ClusterRoleBinding",
    attributes: res(ci, "watch", "anywhere", "pods"),
    allowed: true,
  },
  {
    name: "a ServiceAccount subject defaults to the binding's namespace",
    attributes: res(builder, "get", "team-a", "pods", "p"),
    allowed: true,
  },
  {
    name: "system:masters may do anything",
    attributes: res(admin, "delete", "", "nodes", "n1"),
    allowed: true,
  },
  {
    name: "a missing role is the reason",
    attributes: res(alice, "get", "team-b", "secrets", "s"),
    allowed: false,
    reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found',
  },
  {
    name: "a path granted to system:authenticated",
    attributes: { kind: "nonResource", user: alice, verb: "get", path: "/api/v1" },
    allowed: true,
  },
  {
    name: "a path nobody granted",
    attributes: { kind: "nonResource", user: alice, verb: "get", path: "/metrics" },
    allowed: false,
  },
];

for (const c of cases) {
  test(`RbacAuthorizer.authorize: ${c.name}`, () => {
    const decision = newRbacAuthorizer(source()).authorize(c.attributes);
    assert.equal(decision.allowed, c.allowed);
    if (c.reason !== undefined) assert.equal(decision.reason, c.reason);
  });
}

test("RbacAuthorizer.rulesFor: cluster and namespace rules, incomplete on a missing role", () => {
  const authorizer = newRbacAuthorizer(source());
  const a = authorizer.rulesFor(alice, "team-a");
  assert.deepEqual(a.resourceRules.map((r) => r.resources?.join(",")).sort(), [
    "configmaps",
    "pods",
    "users",
  ]);
  assert.deepEqual(
    a.nonResourceRules.map((r) => r.nonResourceURLs?.join(",")),
    ["/api,/api/*"],
  );
  assert.equal(a.incomplete, false);
  const b = authorizer.rulesFor(alice, "team-b");
  assert.equal(b.incomplete, true);
  assert.equal(b.evaluationError, 'role.rbac.authorization.k8s.io "gone" not found');
});

test("subjectKeysOf: the user's name and each group", () => {
  assert.deepEqual(subjectKeysOf(alice), [
    "User:alice",
    "Group:team-a",
    "Group:system:authenticated",
  ]);
});

const messages: { name: string; attributes: Attributes; want: string; details: unknown }[] = [
  {
    name: "a namespaced list",
    attributes: res(alice, "list", "default", "pods"),
    want: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
    details: { name: "", kind: "pods" },
  },
  {
    name: "a named cluster-scoped get",
    attributes: { ...res(alice, "get", "", "clusterqueues", "cq"), apiGroup: "kueue.x-k8s.io" },
    want: 'clusterqueues.kueue.x-k8s.io "cq" is forbidden: User "alice" cannot get resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope',
    details: { name: "cq", kind: "clusterqueues", group: "kueue.x-k8s.io" },
  },
  {
    name: "a subresource",
    attributes: { ...res(alice, "create", "team-a", "pods", "p"), subresource: "eviction" },
    want: 'pods "p" is forbidden: User "alice" cannot create resource "pods/eviction" in API group "" in the namespace "team-a"',
    details: { name: "p", kind: "pods" },
  },
  {
    name: "a non-resource path",
    attributes: { kind: "nonResource", user: alice, verb: "get", path: "/metrics" },
    want: 'forbidden: User "alice" cannot get path "/metrics"',
    details: {},
  },
];

for (const c of messages) {
  test(`forbiddenError: ${c.name}`, () => {
    const error = forbiddenError(c.attributes, "");
    assert.equal(error.code, 403);
    assert.equal(error.reason, "Forbidden");
    assert.equal(error.message, c.want);
    assert.deepEqual(error.details, c.details);
  });
}

const infoCases: {
  name: string;
  path: string;
  method: string;
  query: string;
  want: Partial<Attributes>;
}[] = [
  {
    name: "a namespace's own path is in that namespace",
    path: "/api/v1/namespaces/team-a",
    method: "GET",
    query: "",
    want: { namespace: "team-a", resource: "namespaces", name: "team-a", verb: "get" },
  },
  {
    name: "a watch narrowed to one name names it",
    path: "/api/v1/namespaces/a/pods",
    method: "GET",
    query: "watch=1&fieldSelector=metadata.name%3Dp1",
    want: { verb: "watch", name: "p1" },
  },
  {
    name: "node proxy is the proxy subresource",
    path: "/api/v1/nodes/n1/proxy/stats",
    method: "GET",
    query: "",
    want: { resource: "nodes", subresource: "proxy", name: "n1" },
  },
  {
    name: "DELETE of a collection is deletecollection",
    path: "/apis/apps/v1/namespaces/a/deployments",
    method: "DELETE",
    query: "",
    want: { verb: "deletecollection", apiGroup: "apps" },
  },
];

for (const c of infoCases) {
  test(`attributesOf: ${c.name}`, async () => {
    const { parseRequestInfo } = await import("../http/request-info.ts");
    const query = new URLSearchParams(c.query);
    const info = parseRequestInfo(c.method, c.path, query.get("watch") === "1");
    const got = attributesOf(info, alice, c.path, query) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(c.want)) assert.equal(got[key], value, key);
  });
}

test("impersonate: a user allowed by resourceNames, with system:authenticated added", () => {
  const authorizer = newRbacAuthorizer(source());
  const user = impersonate({ "impersonate-user": "bob" }, alice, authorizer);
  assert.deepEqual(user, { username: "bob", groups: ["system:authenticated"] });
});

test("impersonate: a user not granted is the 403 upstream sends", () => {
  const authorizer = newRbacAuthorizer(source());
  assert.throws(
    () => impersonate({ "impersonate-user": "carol" }, alice, authorizer),
    (error: Error) =>
      error.message ===
      'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
  );
});

test("impersonate: a service account gets its groups", () => {
  const user = impersonate(
    { "impersonate-user": "system:serviceaccount:ns:sa" },
    admin,
    newRbacAuthorizer(source()),
  );
  assert.deepEqual(user.groups, [
    "system:serviceaccounts",
    "system:serviceaccounts:ns",
    "system:authenticated",
  ]);
});
