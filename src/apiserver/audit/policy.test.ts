import assert from "node:assert/strict";
import { test } from "node:test";
import type { UserInfo } from "../admission/index.ts";
import { parseRequestInfo } from "../http/request-info.ts";
import { type AuditPolicy, evaluatePolicy, parseAuditPolicy } from "./policy.ts";

const file = "/etc/gantry/audit.yaml";

const header = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";

test("parseAuditPolicy: reads every field, unioning the policy's omitStages into each rule's", () => {
  const policy = parseAuditPolicy(
    `${header}omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
    resources:
      - group: ""
        resources: ["endpoints", "services"]
  - level: Metadata
    userGroups: ["system:authenticated"]
    namespaces: ["kube-system", ""]
    omitStages: [ResponseStarted]
    omitManagedFields: false
    resources:
      - group: apps
        resources: ["deployments/scale"]
        resourceNames: ["web"]
  - level: Request
    nonResourceURLs: ["/api*", "/version"]
`,
    file,
  );
  assert.deepEqual(policy, {
    omitStages: ["RequestReceived"],
    omitManagedFields: true,
    rules: [
      {
        level: "None",
        users: ["system:kube-proxy"],
        userGroups: [],
        verbs: ["watch"],
        resources: [{ group: "", resources: ["endpoints", "services"], resourceNames: [] }],
        namespaces: [],
        nonResourceURLs: [],
        omitStages: ["RequestReceived"],
      },
      {
        level: "Metadata",
        users: [],
        userGroups: ["system:authenticated"],
        verbs: [],
        resources: [{ group: "apps", resources: ["deployments/scale"], resourceNames: ["web"] }],
        namespaces: ["kube-system", ""],
        nonResourceURLs: [],
        omitStages: ["RequestReceived", "ResponseStarted"],
        omitManagedFields: false,
      },
      {
        level: "Request",
        users: [],
        userGroups: [],
        verbs: [],
        resources: [],
        namespaces: [],
        nonResourceURLs: ["/api*", "/version"],
        omitStages: ["RequestReceived"],
      },
    ],
  } satisfies AuditPolicy);
});

const invalidPolicies = [
  {
    name: "an unknown level, with upstream's NotSupported message",
    text: `${header}rules:\n  - level: Everything\n`,
    want: 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file /etc/gantry/audit.yaml',
  },
  {
    name: "a rule without a level",
    text: `${header}rules:\n  - users: [alice]\n`,
    want: "rules[0].level: Required value: from file /etc/gantry/audit.yaml",
  },
  {
    name: "a non-resource URL not starting with a slash, and a wildcard in the middle",
    text: `${header}rules:\n  - level: Metadata\n    nonResourceURLs: ["healthz", "/a*/b"]\n`,
    want: `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule]: from file /etc/gantry/audit.yaml`,
  },
  {
    name: "resources and non-resource URLs in one rule",
    text: `${header}rules:\n  - level: Metadata\n    namespaces: [a]\n    nonResourceURLs: ["/healthz"]\n`,
    want: 'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs: from file /etc/gantry/audit.yaml',
  },
  {
    name: "an unknown stage",
    text: `${header}rules:\n  - level: Metadata\n    omitStages: [Started]\n`,
    want: 'rules[0].omitStages[0]: Invalid value: "Started": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic: from file /etc/gantry/audit.yaml',
  },
  {
    name: "resourceNames without resources",
    text: `${header}rules:\n  - level: Metadata\n    resources:\n      - group: ""\n        resourceNames: [x]\n`,
    want: 'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource: from file /etc/gantry/audit.yaml',
  },
  {
    name: "a group with a version in it",
    text: `${header}rules:\n  - level: Metadata\n    resources:\n      - group: apps/v1\n`,
    want: /^rules\[0\]\.resources\.group: Invalid value: "apps\/v1": a lowercase RFC 1123 subdomain must consist of .*: from file \/etc\/gantry\/audit.yaml$/,
  },
  {
    name: "a misspelt field",
    text: `${header}rules:\n  - level: Metadata\n    usrs: [alice]\n`,
    want: 'failed decoding: strict decoding error: unknown field "rules[0].usrs": from file /etc/gantry/audit.yaml',
  },
  {
    name: "a list field given a string",
    text: `${header}rules:\n  - level: Metadata\n    users: alice\n`,
    want: "failed decoding: rules[0].users: must be a list of strings: from file /etc/gantry/audit.yaml",
  },
  {
    name: "another apiVersion",
    text: "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n",
    want: "unknown group version field audit.k8s.io/v1beta1, Kind=Policy in policy: use apiVersion audit.k8s.io/v1 and kind Policy: from file /etc/gantry/audit.yaml",
  },
  {
    name: "no rules",
    text: `${header}rules: []\n`,
    want: "loaded illegal policy with 0 rules: from file /etc/gantry/audit.yaml",
  },
  {
    name: "text that is not YAML",
    text: "rules: [\n",
    want: /^failed decoding: .*: from file \/etc\/gantry\/audit.yaml$/,
  },
] as const;

for (const c of invalidPolicies) {
  test(`parseAuditPolicy: rejects ${c.name}`, () => {
    assert.throws(
      () => parseAuditPolicy(c.text, file),
      (error: unknown) => {
        assert.ok(error instanceof TypeError, "a TypeError");
        if (typeof c.want === "string") assert.equal(error.message, c.want);
        else assert.match(error.message, c.want);
        return true;
      },
    );
  });
}

const alice: UserInfo = { username: "alice", groups: ["team-a", "system:authenticated"] };
const kubelet: UserInfo = { username: "system:node:n1", groups: ["system:nodes"] };

/** The policy the matching table runs against: the first rule that matches decides. */
const policy = parseAuditPolicy(
  `${header}omitStages: [RequestReceived]
rules:
  - level: None
    users: [system:node:n1]
    verbs: [get, watch]
  - level: RequestResponse
    resources:
      - group: ""
        resources: [pods/log, "*/exec"]
  - level: Request
    resources:
      - group: apps
        resources: ["deployments/*"]
  - level: Metadata
    resources:
      - group: ""
        resources: [configmaps]
        resourceNames: [settings]
  - level: None
    resources:
      - group: ""
        resources: [configmaps]
  - level: Request
    namespaces: [""]
    userGroups: [team-a]
  - level: None
    nonResourceURLs: ["/healthz*", /version]
  - level: Metadata
    omitStages: [ResponseComplete]
    omitManagedFields: true
`,
  file,
);

const matchingCases = [
  {
    name: "a user and verb rule first",
    user: kubelet,
    method: "GET",
    path: "/api/v1/namespaces/a/pods/p",
    want: "None",
  },
  {
    name: "the same user with another verb falls through",
    user: kubelet,
    method: "DELETE",
    path: "/api/v1/namespaces/a/pods/p",
    want: "Metadata",
  },
  {
    name: "resource/subresource form",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/pods/p/log",
    want: "RequestResponse",
  },
  {
    name: "*/subresource form",
    user: alice,
    method: "POST",
    path: "/api/v1/namespaces/a/pods/p/exec",
    want: "RequestResponse",
  },
  {
    name: "a subresource does not match its resource alone",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/pods/p/status",
    want: "Metadata",
  },
  {
    name: "resource/* form takes subresources",
    user: alice,
    method: "PUT",
    path: "/apis/apps/v1/namespaces/a/deployments/web/scale",
    want: "Request",
  },
  {
    name: "resource/* form takes the resource itself too, as upstream's",
    user: alice,
    method: "GET",
    path: "/apis/apps/v1/namespaces/a/deployments/web",
    want: "Request",
  },
  {
    name: "the group must match",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/pods/p/scale",
    want: "Metadata",
  },
  {
    name: "resourceNames match the name",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/configmaps/settings",
    want: "Metadata",
  },
  {
    name: "other names fall to the next rule",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/configmaps/other",
    want: "None",
  },
  {
    name: "a list has no name, so resourceNames do not match it",
    user: alice,
    method: "GET",
    path: "/api/v1/namespaces/a/configmaps",
    want: "None",
  },
  {
    name: 'namespace "" matches cluster-scoped requests',
    user: alice,
    method: "GET",
    path: "/api/v1/nodes/n1",
    want: "Request",
  },
  {
    name: "userGroups must include one of the user's groups",
    user: kubelet,
    method: "PUT",
    path: "/api/v1/nodes/n1",
    want: "Metadata",
  },
  {
    name: "a trailing * matches the paths below",
    user: alice,
    method: "GET",
    path: "/healthz/etcd",
    want: "None",
  },
  {
    name: "a non-resource URL matches exactly",
    user: alice,
    method: "GET",
    path: "/version",
    want: "None",
  },
  {
    name: "non-resource rules never match resource requests and vice versa",
    user: alice,
    method: "GET",
    path: "/metrics",
    want: "Metadata",
  },
] as const;

for (const c of matchingCases) {
  test(`evaluatePolicy: ${c.name}`, () => {
    const info = parseRequestInfo(c.method, c.path, false);
    assert.equal(evaluatePolicy(policy, { user: c.user, info }).level, c.want);
  });
}

test("evaluatePolicy: stages and omitManagedFields come from the rule, else from the policy", () => {
  const info = parseRequestInfo("GET", "/metrics", false);
  assert.deepEqual(evaluatePolicy(policy, { user: alice, info }), {
    level: "Metadata",
    omitStages: ["RequestReceived", "ResponseComplete"],
    omitManagedFields: true,
  });
  const none = parseAuditPolicy(
    `${header}omitStages: [Panic]\nrules:\n  - level: Metadata\n    users: [bob]\n`,
    file,
  );
  assert.deepEqual(evaluatePolicy(none, { user: alice, info }), {
    level: "None",
    omitStages: ["Panic"],
    omitManagedFields: false,
  });
  assert.equal(
    evaluatePolicy(none, { user: undefined, info }).level,
    "None",
    "a rule naming users never matches a request that failed authentication",
  );
});
