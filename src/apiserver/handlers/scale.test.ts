import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { KubeObject, ScaleSubresource } from "../../api/index.ts";
import { type Reply, startTestServer, type TestServer } from "../crd/test-fixtures.ts";
import { builtInScaleSelector, readPath, scaleOf, writePath } from "./scale.ts";

/** Decoded JSON of a reply. */
type J = Reply["body"];

const replicasScale: ScaleSubresource = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
};

function object(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  return {
    metadata: {
      name: "web",
      namespace: "default",
      uid: "u1",
      resourceVersion: "7",
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec,
    ...(status === undefined ? {} : { status }),
  };
}

const selectorCases = [
  {
    name: "matchLabels print as key=value sorted by key",
    kind: "Deployment",
    spec: { selector: { matchLabels: { tier: "front", app: "web" } } },
    want: "app=web,tier=front",
  },
  {
    name: "matchExpressions print as set-based requirements",
    kind: "StatefulSet",
    spec: {
      selector: {
        matchLabels: { app: "web" },
        matchExpressions: [
          { key: "tier", operator: "In", values: ["b", "a"] },
          { key: "canary", operator: "DoesNotExist" },
        ],
      },
    },
    want: "app=web,!canary,tier in (a,b)",
  },
  {
    name: "an empty selector prints as the empty string",
    kind: "ReplicaSet",
    spec: { selector: {} },
    want: "",
  },
  {
    name: "a ReplicationController's map selector prints as labels.SelectorFromSet",
    kind: "ReplicationController",
    spec: { selector: { app: "web", env: "prod" } },
    want: "app=web,env=prod",
  },
] as const;

for (const c of selectorCases) {
  test(`builtInScaleSelector: ${c.name}`, () => {
    assert.equal(builtInScaleSelector(object(c.spec), c.kind), c.want);
  });
}

const scaleCases = [
  {
    name: "a built-in's Scale carries replicas and the selector string",
    obj: object({ replicas: 3, selector: { matchLabels: { app: "web" } } }, { replicas: 2 }),
    scale: replicasScale,
    builtInKind: "Deployment",
    want: {
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "web",
        namespace: "default",
        uid: "u1",
        resourceVersion: "7",
        creationTimestamp: "2024-01-01T00:00:00Z",
      },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: "app=web" },
    },
  },
  {
    name: "zero replicas are omitted from spec and missing status counts as 0",
    obj: object({ replicas: 0, selector: { matchLabels: { app: "web" } } }),
    scale: replicasScale,
    builtInKind: "ReplicaSet",
    want: {
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "web",
        namespace: "default",
        uid: "u1",
        resourceVersion: "7",
        creationTimestamp: "2024-01-01T00:00:00Z",
      },
      spec: {},
      status: { replicas: 0, selector: "app=web" },
    },
  },
  {
    name: "a custom resource's selector is the string at labelSelectorPath",
    obj: object({ size: 5 }, { count: 4, sel: "app=w" }),
    scale: {
      specReplicasPath: ".spec.size",
      statusReplicasPath: ".status.count",
      labelSelectorPath: ".status.sel",
    },
    builtInKind: undefined,
    want: {
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "web",
        namespace: "default",
        uid: "u1",
        resourceVersion: "7",
        creationTimestamp: "2024-01-01T00:00:00Z",
      },
      spec: { replicas: 5 },
      status: { replicas: 4, selector: "app=w" },
    },
  },
  {
    name: "a custom resource without labelSelectorPath has no selector",
    obj: object({ size: 1 }),
    scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.count" },
    builtInKind: undefined,
    want: {
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "web",
        namespace: "default",
        uid: "u1",
        resourceVersion: "7",
        creationTimestamp: "2024-01-01T00:00:00Z",
      },
      spec: { replicas: 1 },
      status: { replicas: 0 },
    },
  },
] as const;

for (const c of scaleCases) {
  test(`scaleOf: ${c.name}`, () => {
    assert.deepEqual(scaleOf(c.obj, c.scale, c.builtInKind), c.want);
  });
}

test("writePath: creates missing objects on the way and readPath reads them back", () => {
  const target: Record<string, unknown> = { spec: "not an object" };
  writePath(target, ".spec.a.b", 3);
  assert.deepEqual(target, { spec: { a: { b: 3 } } });
  assert.equal(readPath(target, ".spec.a.b"), 3);
  assert.equal(readPath(target, ".spec.x.y"), undefined);
});

// The scale subresource over HTTP, for every built-in that has one.

let s: TestServer;

before(async () => {
  s = await startTestServer();
});

after(async () => {
  await s[Symbol.asyncDispose]();
});

const template = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "c", image: "nginx" }] },
};

const builtIns = [
  {
    kind: "Deployment",
    path: "/apis/apps/v1/namespaces/default/deployments",
    body: {
      apiVersion: "apps/v1",
      kind: "Deployment",
      spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
    },
    conflictResource: "deployments.apps",
  },
  {
    kind: "ReplicaSet",
    path: "/apis/apps/v1/namespaces/default/replicasets",
    body: {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
    },
    conflictResource: "replicasets.apps",
  },
  {
    kind: "StatefulSet",
    path: "/apis/apps/v1/namespaces/default/statefulsets",
    body: {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      spec: {
        replicas: 1,
        serviceName: "web",
        selector: { matchLabels: { app: "web" } },
        template,
      },
    },
    conflictResource: "statefulsets.apps",
  },
  {
    kind: "ReplicationController",
    path: "/api/v1/namespaces/default/replicationcontrollers",
    body: {
      apiVersion: "v1",
      kind: "ReplicationController",
      spec: { replicas: 1, selector: { app: "web" }, template },
    },
    conflictResource: "replicationcontrollers",
  },
] as const;

for (const b of builtIns) {
  test(`handleScale: ${b.kind} scale reads, patches, updates, and refuses a stale or negative one`, async () => {
    const name = `web-${b.kind.toLowerCase()}`;
    const created = await s.request("POST", b.path, {
      ...b.body,
      metadata: { name, labels: { app: "web" } },
    });
    assert.equal(created.status, 201, created.text);
    const url = `${b.path}/${name}/scale`;

    const got = await s.request("GET", url);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(
      { spec: got.body.spec, status: got.body.status, rv: got.body.metadata.resourceVersion },
      {
        spec: { replicas: 1 },
        status: { replicas: 0, selector: "app=web" },
        rv: created.body.metadata.resourceVersion,
      },
    );

    const patched = await s.request(
      "PATCH",
      url,
      { spec: { replicas: 3 } },
      { "content-type": "application/merge-patch+json" },
    );
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.spec.replicas, 3);

    const put: J = structuredClone(patched.body);
    put.spec.replicas = 4;
    const updated = await s.request("PUT", url, put);
    assert.equal(updated.status, 200, updated.text);
    const obj = await s.request("GET", `${b.path}/${name}`);
    assert.equal(obj.body.spec.replicas, 4);

    put.spec.replicas = 5; // still carries the resourceVersion before the last update
    const stale = await s.request("PUT", url, put);
    assert.equal(stale.status, 409, stale.text);
    assert.equal(
      stale.body.message,
      `Operation cannot be fulfilled on ${b.conflictResource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );

    const negative = await s.request(
      "PATCH",
      url,
      { spec: { replicas: -1 } },
      { "content-type": "application/merge-patch+json" },
    );
    assert.equal(negative.status, 422, negative.text);
    assert.equal(
      negative.body.message,
      `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
    );
  });
}

test("handleScale: a resource without a scale subresource answers 404", async () => {
  const reply = await s.request("GET", "/api/v1/namespaces/default/configmaps/x/scale");
  assert.equal(reply.status, 404);
});
