import assert from "node:assert/strict";
import test from "node:test";
import { compactRuleString, type PolicyRule } from "../../api/index.ts";
import type { Attributes } from "./attributes.ts";
import { compactRules, covers, ruleAllows } from "./rules.ts";

const user = { username: "alice", groups: [] };

function res(
  verb: string,
  group: string,
  resource: string,
  subresource = "",
  name = "",
): Attributes {
  return {
    kind: "resource",
    user,
    verb,
    namespace: "ns",
    apiGroup: group,
    apiVersion: "v1",
    resource,
    subresource,
    name,
  };
}

const cases: { name: string; rule: PolicyRule; attributes: Attributes; want: boolean }[] = [
  {
    name: "exact verb, group and resource",
    rule: { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
    attributes: res("get", "", "pods"),
    want: true,
  },
  {
    name: "another verb",
    rule: { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
    attributes: res("list", "", "pods"),
    want: false,
  },
  {
    name: "star verb, group and resource",
    rule: { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
    attributes: res("delete", "apps", "deployments"),
    want: true,
  },
  {
    name: "another group",
    rule: { verbs: ["get"], apiGroups: ["apps"], resources: ["pods"] },
    attributes: res("get", "", "pods"),
    want: false,
  },
  {
    name: "a subresource needs resource/subresource",
    rule: { verbs: ["create"], apiGroups: [""], resources: ["pods"] },
    attributes: res("create", "", "pods", "eviction"),
    want: false,
  },
  {
    name: "resource/subresource matches it",
    rule: { verbs: ["create"], apiGroups: [""], resources: ["pods/eviction"] },
    attributes: res("create", "", "pods", "eviction"),
    want: true,
  },
  {
    name: "*/subresource matches any resource's subresource",
    rule: { verbs: ["update"], apiGroups: ["*"], resources: ["*/status"] },
    attributes: res("update", "apps", "deployments", "status"),
    want: true,
  },
  {
    name: "*/subresource does not match the main resource",
    rule: { verbs: ["update"], apiGroups: ["*"], resources: ["*/status"] },
    attributes: res("update", "apps", "deployments"),
    want: false,
  },
  {
    name: "resourceNames match the name",
    rule: { verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a"] },
    attributes: res("get", "", "configmaps", "", "a"),
    want: true,
  },
  {
    name: "resourceNames reject another name",
    rule: { verbs: ["get"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a"] },
    attributes: res("get", "", "configmaps", "", "b"),
    want: false,
  },
  {
    name: "resourceNames reject an unnamed list",
    rule: { verbs: ["list"], apiGroups: [""], resources: ["configmaps"], resourceNames: ["a"] },
    attributes: res("list", "", "configmaps"),
    want: false,
  },
  {
    name: "a non-resource URL exactly",
    rule: { verbs: ["get"], nonResourceURLs: ["/healthz"] },
    attributes: { kind: "nonResource", user, verb: "get", path: "/healthz" },
    want: true,
  },
  {
    name: "a non-resource URL prefix with a trailing star",
    rule: { verbs: ["get"], nonResourceURLs: ["/apis/*"] },
    attributes: { kind: "nonResource", user, verb: "get", path: "/apis/apps/v1" },
    want: true,
  },
  {
    name: "a non-resource URL without the star is exact",
    rule: { verbs: ["get"], nonResourceURLs: ["/apis"] },
    attributes: { kind: "nonResource", user, verb: "get", path: "/apis/apps" },
    want: false,
  },
  {
    name: "a resource rule never matches a path",
    rule: { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
    attributes: { kind: "nonResource", user, verb: "get", path: "/version" },
    want: false,
  },
];

for (const c of cases) {
  test(`ruleAllows: ${c.name}`, () => {
    assert.equal(ruleAllows(c.attributes, c.rule), c.want);
  });
}

const coverCases: { name: string; owner: PolicyRule[]; wanted: PolicyRule[]; missing: string[] }[] =
  [
    {
      name: "star covers everything",
      owner: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      wanted: [
        {
          verbs: ["get", "delete"],
          apiGroups: ["apps"],
          resources: ["deployments", "deployments/scale"],
        },
      ],
      missing: [],
    },
    {
      name: "missing verbs compact into one rule per resource",
      owner: [{ verbs: ["get"], apiGroups: [""], resources: ["pods", "nodes"] }],
      wanted: [{ verbs: ["get", "delete"], apiGroups: [""], resources: ["nodes", "pods"] }],
      missing: [
        '{APIGroups:[""], Resources:["nodes"], Verbs:["delete"]}',
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
      ],
    },
    {
      name: "*/status covers a status subresource only",
      owner: [{ verbs: ["update"], apiGroups: ["apps"], resources: ["*/status"] }],
      wanted: [
        {
          verbs: ["update"],
          apiGroups: ["apps"],
          resources: ["deployments/status", "deployments"],
        },
      ],
      missing: ['{APIGroups:["apps"], Resources:["deployments"], Verbs:["update"]}'],
    },
    {
      name: "a named grant does not cover an unnamed one",
      owner: [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"], resourceNames: ["a"] }],
      wanted: [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }],
      missing: ['{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'],
    },
    {
      name: "a URL prefix covers paths under it",
      owner: [{ verbs: ["get"], nonResourceURLs: ["/apis/*"] }],
      wanted: [{ verbs: ["get", "post"], nonResourceURLs: ["/apis/apps"] }],
      missing: ['{NonResourceURLs:["/apis/apps"], Verbs:["post"]}'],
    },
  ];

for (const c of coverCases) {
  test(`covers: ${c.name}`, () => {
    const { covered, missing } = covers(c.owner, c.wanted);
    assert.equal(covered, c.missing.length === 0);
    assert.deepEqual(compactRules(missing).map(compactRuleString).sort(), c.missing);
  });
}
