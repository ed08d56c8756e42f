import assert from "node:assert/strict";
import { test } from "node:test";
import { builtInKinds } from "../api/index.ts";
import {
  builtInResources,
  deploymentsResource,
  nodesResource,
  podGroupsResource,
  podsResource,
  priorityClassesResource,
} from "./client.ts";
import { pathOf, queryOf, scopedNamespace, type Target } from "./paths.ts";

const pathCases: readonly { name: string; target: Target; want: string }[] = [
  {
    name: "a core collection in one namespace",
    target: { resource: podsResource, namespace: "ns" },
    want: "/api/v1/namespaces/ns/pods",
  },
  {
    name: "a core collection across namespaces",
    target: { resource: podsResource, namespace: undefined },
    want: "/api/v1/pods",
  },
  {
    name: "a subresource of a core object",
    target: { resource: podsResource, namespace: "ns", name: "p", subresource: "binding" },
    want: "/api/v1/namespaces/ns/pods/p/binding",
  },
  {
    name: "a cluster-scoped object",
    target: { resource: nodesResource, namespace: undefined, name: "n1" },
    want: "/api/v1/nodes/n1",
  },
  {
    name: "a named group's object",
    target: { resource: deploymentsResource, namespace: "ns", name: "web" },
    want: "/apis/apps/v1/namespaces/ns/deployments/web",
  },
  {
    name: "an alpha group's status",
    target: { resource: podGroupsResource, namespace: "ns", name: "g", subresource: "status" },
    want: "/apis/scheduling.k8s.io/v1alpha1/namespaces/ns/podgroups/g/status",
  },
  {
    name: "a name that needs escaping",
    target: { resource: nodesResource, namespace: undefined, name: "a/b c" },
    want: "/api/v1/nodes/a%2Fb%20c",
  },
];
for (const c of pathCases) {
  test(`pathOf: ${c.name}`, () => {
    assert.equal(pathOf(c.target), c.want);
  });
}

test("queryOf: skips undefined values and encodes the rest", () => {
  assert.equal(
    queryOf({ watch: "true", labelSelector: "a=b,c in (d)", limit: 5, force: undefined }),
    "?watch=true&labelSelector=a%3Db%2Cc+in+%28d%29&limit=5",
  );
  assert.equal(queryOf({ limit: undefined }), "");
});

const scopeCases = [
  {
    name: "a namespaced collection may span all namespaces",
    run: () => scopedNamespace("list", podsResource, undefined, false),
    want: "",
  },
  {
    name: "a namespaced object keeps its namespace",
    run: () => scopedNamespace("get", podsResource, "ns", true, "p"),
    want: "ns",
  },
  {
    name: "a cluster-scoped object takes an empty namespace",
    run: () => scopedNamespace("get", nodesResource, "", true, "n"),
    want: "",
  },
] as const;
for (const c of scopeCases) {
  test(`scopedNamespace: ${c.name}`, () => {
    assert.equal(c.run(), c.want);
  });
}

test("scopedNamespace: names the resource and the problem in its TypeError", () => {
  assert.throws(() => scopedNamespace("get", podsResource, undefined, true, "p"), {
    name: "TypeError",
    message: 'Cannot get pods "p": the resource is namespaced, so give a namespace',
  });
  assert.throws(() => scopedNamespace("list", priorityClassesResource, "ns", false), {
    name: "TypeError",
    message:
      'Cannot list priorityclasses.scheduling.k8s.io in namespace "ns": the resource is cluster-scoped',
  });
});

test("builtInResources: every ResourceRef matches the kind the server serves", () => {
  const served = new Map(
    builtInKinds().map((k) => [`${k.group}/${k.version}/${k.resource}`, [k.kind, k.namespaced]]),
  );
  for (const r of builtInResources) {
    assert.deepEqual(
      served.get(`${r.group}/${r.version}/${r.resource}`),
      [r.kind, r.namespaced],
      `${r.resource}.${r.group}`,
    );
  }
});
