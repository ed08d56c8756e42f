/**
 * The roles and bindings every cluster starts with, as kube-apiserver's `bootstrappolicy`
 * (policy.go): cluster-admin, the aggregated admin/edit/view, the discovery and self-review
 * roles, and least-privilege roles for the components when they run as separate processes.
 * Plain data; `cmd/` writes it at start-up.
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject } from "./types.ts";
import { autoUpdateAnnotation, rbacGroup } from "./types.ts";

const read = ["get", "list", "watch"];
const write = ["create", "update", "patch", "delete", "deletecollection"];
const readWrite = [...read, ...write];

const core = "";
const apps = "apps";
const authentication = "authentication.k8s.io";
const authorization = "authorization.k8s.io";
const autoscaling = "autoscaling";
const batch = "batch";
const coordination = "coordination.k8s.io";
const discovery = "discovery.k8s.io";
const events = "events.k8s.io";
const extensions = "extensions";
const networking = "networking.k8s.io";
const policy = "policy";
const scheduling = "scheduling.k8s.io";
const storage = "storage.k8s.io";
const kueue = "kueue.x-k8s.io";

function rule(
  verbs: string[],
  groups: string[],
  resources: string[],
  names?: string[],
): PolicyRule {
  return {
    verbs,
    apiGroups: groups,
    resources,
    ...(names === undefined ? {} : { resourceNames: names }),
  };
}

function urls(verbs: string[], paths: string[]): PolicyRule {
  return { verbs, nonResourceURLs: paths };
}

/** The labels a ClusterRole carries to be aggregated into admin, edit or view. */
export const aggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin";
export const aggregateToEdit = "rbac.authorization.k8s.io/aggregate-to-edit";
export const aggregateToView = "rbac.authorization.k8s.io/aggregate-to-view";

/** The users and groups the components authenticate as when they run as separate processes. */
export const schedulerUser = "system:kube-scheduler";
export const controllerManagerUser = "system:kube-controller-manager";
export const nodesGroup = "system:nodes";
export const kueueServiceAccount = { namespace: "kueue-system", name: "kueue-controller-manager" };
/**
 * The user `gantry queueing` authenticates as with the client certificate `gantry up --tls`
 * issues it (Kueue's manager runs as the ServiceAccount above; both are bound to its role).
 */
export const queueingUser = "system:gantry-queueing";

/**
 * What gantry's controller-manager needs beyond upstream's `system:kube-controller-manager`,
 * which only starts the shared informers and mints per-controller ServiceAccount credentials
 * (`--use-service-account-credentials`): gantry runs every controller under the one identity,
 * so this role holds the union of the `system:controller:*` roles of the controllers it runs.
 */
export const gantryControllerManagerRole = "gantry:controller-manager";
const gantryQueueingBinding = "gantry:queueing";

function clusterRole(
  name: string,
  rules: PolicyRule[],
  extra: { labels?: Record<string, string>; aggregateFrom?: string } = {},
): ClusterRole {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: "ClusterRole",
    metadata: {
      name,
      labels: { "kubernetes.io/bootstrapping": "rbac-defaults", ...extra.labels },
      annotations: { [autoUpdateAnnotation]: "true" },
    },
    ...(extra.aggregateFrom === undefined
      ? { rules }
      : {
          rules: [],
          aggregationRule: {
            clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: "true" } }],
          },
        }),
  };
}

function binding(name: string, role: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: "ClusterRoleBinding",
    metadata: {
      name,
      labels: { "kubernetes.io/bootstrapping": "rbac-defaults" },
      annotations: { [autoUpdateAnnotation]: "true" },
    },
    roleRef: { apiGroup: rbacGroup, kind: "ClusterRole", name: role },
    subjects,
  };
}

const group = (name: string): Subject => ({ kind: "Group", apiGroup: rbacGroup, name });
const user = (name: string): Subject => ({ kind: "User", apiGroup: rbacGroup, name });

/** `eventsRule()`: record events through either API. */
const eventsRule = rule(["create", "update", "patch"], [core, events], ["events"]);

/** `NodeRules()`: what a kubelet (`system:node:<name>` in `system:nodes`) may do. */
export function nodeRules(): PolicyRule[] {
  return [
    rule(["create"], [authentication], ["tokenreviews"]),
    rule(["create"], [authorization], ["subjectaccessreviews", "localsubjectaccessreviews"]),
    rule(read, [core], ["services"]),
    rule(["create", "get", "list", "watch"], [core], ["nodes"]),
    rule(["update", "patch"], [core], ["nodes/status"]),
    rule(["update", "patch"], [core], ["nodes"]),
    rule(["create", "update", "patch"], [core], ["events"]),
    rule(read, [core], ["pods"]),
    rule(["create", "delete"], [core], ["pods"]),
    rule(["update", "patch"], [core], ["pods/status"]),
    rule(["create"], [core], ["pods/eviction"]),
    rule(read, [core], ["secrets", "configmaps"]),
    rule(["get"], [core], ["persistentvolumeclaims", "persistentvolumes"]),
    rule(["get"], [core], ["endpoints"]),
    rule(
      ["create", "get", "list", "watch"],
      ["certificates.k8s.io"],
      ["certificatesigningrequests"],
    ),
    rule(["get", "create", "update", "patch", "delete"], [coordination], ["leases"]),
    rule(["get"], [storage], ["volumeattachments"]),
    rule(["create"], [core], ["serviceaccounts/token"]),
    rule(["get", "update", "patch"], [core], ["persistentvolumeclaims/status"]),
    rule(["get", "watch", "list"], [storage], ["csidrivers"]),
    rule(["get", "create", "update", "patch", "delete"], [storage], ["csinodes"]),
    rule(read, ["node.k8s.io"], ["runtimeclasses"]),
  ];
}

/**
 * The union of upstream's `system:controller:<name>` roles for the controllers gantry's
 * controller-manager runs: the garbage collector's read, update and delete of everything
 * (which covers the namespace controller's deletions and the status writes of the workload
 * controllers), the objects the workload controllers and the root CA publisher create,
 * evictions by the node lifecycle and taint-eviction controllers, and `escalate` on
 * ClusterRoles so the clusterrole-aggregation controller can write rules it does not hold.
 */
function controllerManagerControllerRules(): PolicyRule[] {
  return [
    eventsRule,
    rule([...read, "update", "patch", "delete", "deletecollection"], ["*"], ["*"]),
    rule(["create"], [core], ["pods", "pods/binding", "pods/eviction"]),
    // root-ca-cert-publisher: kube-root-ca.crt in every namespace.
    rule(["create"], [core], ["configmaps"]),
    // endpoint and endpointslice: a Service's Endpoints and EndpointSlices.
    rule(["create"], [core], ["endpoints"]),
    rule(["create"], [discovery], ["endpointslices"]),
    // persistentvolume-binder: the emulated provisioner's PersistentVolumes.
    rule(["create"], [core], ["persistentvolumes"]),
    rule(["create"], [apps], ["replicasets", "controllerrevisions"]),
    rule(["create"], [batch], ["jobs"]),
    rule(["create"], [scheduling], ["workloads", "podgroups"]),
    rule(["create"], ["leaderworkerset.x-k8s.io"], ["leaderworkersets"]),
    rule(["escalate"], [rbacGroup], ["clusterroles"]),
  ];
}

/** Every bootstrap ClusterRole, in upstream's order. */
export function bootstrapClusterRoles(): ClusterRole[] {
  return [
    clusterRole("cluster-admin", [rule(["*"], ["*"], ["*"]), urls(["*"], ["*"])]),
    clusterRole("system:discovery", [
      urls(
        ["get"],
        [
          "/livez",
          "/readyz",
          "/healthz",
          "/version",
          "/version/",
          "/openapi",
          "/openapi/*",
          "/api",
          "/api/*",
          "/apis",
          "/apis/*",
        ],
      ),
    ]),
    clusterRole("system:monitoring", [
      urls(
        ["get"],
        [
          "/metrics",
          "/metrics/slis",
          "/livez",
          "/readyz",
          "/healthz",
          "/livez/*",
          "/readyz/*",
          "/healthz/*",
        ],
      ),
    ]),
    clusterRole("system:basic-user", [
      rule(["create"], [authorization], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]),
      rule(["create"], [authentication], ["selfsubjectreviews"]),
    ]),
    clusterRole("system:public-info-viewer", [
      urls(["get"], ["/livez", "/readyz", "/healthz", "/version", "/version/"]),
    ]),
    clusterRole("system:service-account-issuer-discovery", [
      urls(
        ["get"],
        [
          "/.well-known/openid-configuration",
          "/.well-known/openid-configuration/",
          "/openid/v1/jwks",
          "/openid/v1/jwks/",
        ],
      ),
    ]),
    clusterRole("admin", [], { aggregateFrom: aggregateToAdmin }),
    clusterRole("edit", [], {
      labels: { [aggregateToAdmin]: "true" },
      aggregateFrom: aggregateToEdit,
    }),
    clusterRole("view", [], {
      labels: { [aggregateToEdit]: "true" },
      aggregateFrom: aggregateToView,
    }),
    clusterRole(
      "system:aggregate-to-admin",
      [
        rule(["create"], [authorization], ["localsubjectaccessreviews"]),
        rule(readWrite, [rbacGroup], ["roles", "rolebindings"]),
      ],
      { labels: { [aggregateToAdmin]: "true" } },
    ),
    clusterRole(
      "system:aggregate-to-edit",
      [
        rule(
          read,
          [core],
          [
            "pods/attach",
            "pods/proxy",
            "pods/exec",
            "pods/portforward",
            "secrets",
            "services/proxy",
          ],
        ),
        rule(["impersonate"], [core], ["serviceaccounts"]),
        rule(write, [core], ["pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"]),
        rule(["create"], [core], ["pods/eviction"]),
        rule(
          write,
          [core],
          [
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "serviceaccounts",
            "services",
            "services/proxy",
            "persistentvolumeclaims",
            "configmaps",
            "secrets",
          ],
        ),
        rule(["create"], [core], ["serviceaccounts/token"]),
        rule(
          write,
          [apps],
          [
            "statefulsets",
            "statefulsets/scale",
            "daemonsets",
            "deployments",
            "deployments/scale",
            "deployments/rollback",
            "replicasets",
            "replicasets/scale",
          ],
        ),
        rule(write, [autoscaling], ["horizontalpodautoscalers"]),
        rule(write, [batch], ["jobs", "cronjobs"]),
        rule(
          write,
          [extensions],
          [
            "daemonsets",
            "deployments",
            "deployments/scale",
            "deployments/rollback",
            "ingresses",
            "replicasets",
            "replicasets/scale",
            "replicationcontrollers/scale",
            "networkpolicies",
          ],
        ),
        rule(write, [policy], ["poddisruptionbudgets"]),
        rule(write, [networking], ["networkpolicies", "ingresses"]),
        rule(readWrite, [coordination], ["leases"]),
      ],
      { labels: { [aggregateToEdit]: "true" } },
    ),
    clusterRole(
      "system:aggregate-to-view",
      [
        rule(
          read,
          [core],
          [
            "pods",
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "serviceaccounts",
            "services",
            "services/status",
            "endpoints",
            "persistentvolumeclaims",
            "persistentvolumeclaims/status",
            "configmaps",
          ],
        ),
        rule(
          read,
          [core],
          [
            "limitranges",
            "resourcequotas",
            "bindings",
            "events",
            "pods/status",
            "resourcequotas/status",
            "namespaces/status",
            "replicationcontrollers/status",
            "pods/log",
          ],
        ),
        rule(read, [core], ["namespaces"]),
        rule(read, [discovery], ["endpointslices"]),
        rule(
          read,
          [apps],
          [
            "controllerrevisions",
            "statefulsets",
            "statefulsets/status",
            "statefulsets/scale",
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/status",
            "deployments/scale",
            "replicasets",
            "replicasets/status",
            "replicasets/scale",
          ],
        ),
        rule(read, [autoscaling], ["horizontalpodautoscalers", "horizontalpodautoscalers/status"]),
        rule(read, [batch], ["jobs", "cronjobs", "cronjobs/status", "jobs/status"]),
        rule(
          read,
          [extensions],
          [
            "daemonsets",
            "daemonsets/status",
            "deployments",
            "deployments/scale",
            "deployments/status",
            "ingresses",
            "ingresses/status",
            "replicasets",
            "replicasets/scale",
            "replicasets/status",
            "replicationcontrollers/scale",
            "networkpolicies",
          ],
        ),
        rule(read, [policy], ["poddisruptionbudgets", "poddisruptionbudgets/status"]),
        rule(read, [networking], ["networkpolicies", "ingresses", "ingresses/status"]),
        rule(read, [scheduling], ["workloads", "podgroups"]),
        rule(read, [kueue], ["localqueues", "localqueues/status", "workloads", "workloads/status"]),
      ],
      { labels: { [aggregateToView]: "true" } },
    ),
    clusterRole(schedulerUser, [
      eventsRule,
      rule(["create"], [coordination], ["leases"]),
      rule(["get", "update"], [coordination], ["leases"], ["kube-scheduler"]),
      rule(read, [core], ["nodes"]),
      rule([...read, "delete"], [core], ["pods"]),
      rule(["create"], [core], ["bindings", "pods/binding"]),
      rule(["patch", "update"], [core], ["pods/status"]),
      rule(read, [core], ["replicationcontrollers", "services"]),
      rule(read, [apps, extensions], ["replicasets"]),
      rule(read, [apps], ["statefulsets"]),
      rule(read, [policy], ["poddisruptionbudgets"]),
      rule(read, [core], ["persistentvolumeclaims", "persistentvolumes"]),
      rule(["create"], [authentication], ["tokenreviews"]),
      rule(["create"], [authorization], ["subjectaccessreviews"]),
      rule(read, [storage], ["csinodes", "csidrivers", "csistoragecapacities"]),
      rule(read, [core], ["namespaces"]),
      rule(read, [scheduling], ["priorityclasses", "workloads", "podgroups"]),
      rule(["patch", "update"], [scheduling], ["podgroups/status"]),
    ]),
    clusterRole(controllerManagerUser, [
      eventsRule,
      rule(["create"], [coordination], ["leases"]),
      rule(["get", "update"], [coordination], ["leases"], ["kube-controller-manager"]),
      rule(["create"], [core], ["secrets", "serviceaccounts"]),
      rule(["delete"], [core], ["secrets"]),
      rule(["get"], [core], ["namespaces", "secrets", "serviceaccounts", "configmaps"]),
      rule(["update"], [core], ["secrets", "serviceaccounts"]),
      rule(["create"], [authentication], ["tokenreviews"]),
      rule(["create"], [authorization], ["subjectaccessreviews"]),
      rule(["list", "watch"], ["*"], ["*"]),
      rule(["create"], [core], ["serviceaccounts/token"]),
    ]),
    clusterRole(gantryControllerManagerRole, controllerManagerControllerRules()),
    clusterRole("system:node", nodeRules()),
    clusterRole("system:kueue-manager", [
      eventsRule,
      rule(["create"], [coordination], ["leases"]),
      rule(["get", "update"], [coordination], ["leases"], ["c1f6bfd2.kueue.x-k8s.io"]),
      rule(["*"], [kueue], ["*"]),
      rule([...read, "update", "patch", "delete"], [core], ["pods"]),
      rule(["update", "patch"], [core], ["pods/status"]),
      rule(read, [core], ["namespaces", "limitranges", "nodes"]),
      rule([...read, "update", "patch"], [batch], ["jobs"]),
      rule(["update", "patch"], [batch], ["jobs/status"]),
      rule(readWrite, [scheduling], ["workloads", "podgroups", "podgroups/status"]),
      rule(read, [scheduling], ["priorityclasses"]),
    ]),
  ];
}

/** Every bootstrap ClusterRoleBinding. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return [
    binding("cluster-admin", "cluster-admin", [group("system:masters")]),
    binding("system:monitoring", "system:monitoring", [group("system:monitoring")]),
    binding("system:discovery", "system:discovery", [group("system:authenticated")]),
    binding("system:basic-user", "system:basic-user", [group("system:authenticated")]),
    binding("system:public-info-viewer", "system:public-info-viewer", [
      group("system:authenticated"),
      group("system:unauthenticated"),
    ]),
    binding("system:service-account-issuer-discovery", "system:service-account-issuer-discovery", [
      group("system:serviceaccounts"),
    ]),
    binding(controllerManagerUser, controllerManagerUser, [user(controllerManagerUser)]),
    binding(gantryControllerManagerRole, gantryControllerManagerRole, [
      user(controllerManagerUser),
    ]),
    binding(schedulerUser, schedulerUser, [user(schedulerUser)]),
    binding("system:node", "system:node", [group(nodesGroup)]),
    binding("system:kueue-manager", "system:kueue-manager", [
      {
        kind: "ServiceAccount",
        name: kueueServiceAccount.name,
        namespace: kueueServiceAccount.namespace,
      },
    ]),
    binding(gantryQueueingBinding, "system:kueue-manager", [user(queueingUser)]),
  ];
}
