import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { KubeObject, ScaleSubresource } from "../../api/index.ts";
import { eventually, makeWidgetCrd } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
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
ensureNoLeaksAfterSuite();

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

// Bad input: every answer as kube-apiserver gives it, and nothing written.

const deployments = "/apis/apps/v1/namespaces/default/deployments";
const targetScale = `${deployments}/target/scale`;
const mergePatch = { "content-type": "application/merge-patch+json" };
const applyPatch = { "content-type": "application/apply-patch+yaml" };

/** The Deployment the bad-input cases aim at, created once by manager `creator`. */
async function ensureTarget(): Promise<J> {
  const existing = await s.request("GET", `${deployments}/target`);
  if (existing.status === 200) return existing.body;
  const created = await s.request("POST", `${deployments}?fieldManager=creator`, {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "target", labels: { app: "web" } },
    spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
  });
  assert.equal(created.status, 201, created.text);
  return created.body;
}

/** The target's Scale as GET returns it, changed by `edit`. */
async function scaleBody(edit: (scale: J) => void): Promise<J> {
  const got = await s.request("GET", targetScale);
  assert.equal(got.status, 200, got.text);
  edit(got.body);
  return got.body;
}

interface BadScaleCase {
  readonly name: string;
  readonly method: "GET" | "PUT" | "PATCH";
  readonly query?: string;
  readonly headers?: Record<string, string>;
  readonly body?: () => Promise<unknown> | unknown;
  readonly code: number;
  readonly reason: string;
  /** The exact message, or a pattern for one that embeds the object (uid, timestamps). */
  readonly message: string | RegExp;
  /** `details.causes[].field`, where upstream gives one. */
  readonly fields?: readonly string[];
}

const patchInvalid = (decodeError: string): RegExp =>
  new RegExp(
    `^ "" is invalid: patch: Invalid value: "\\{.*\\}": ${decodeError.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
  );

const badScaleCases: readonly BadScaleCase[] = [
  {
    name: "a GET with a resourceVersion that is not a number is 400",
    method: "GET",
    query: "resourceVersion=abc",
    code: 400,
    reason: "BadRequest",
    message:
      'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  },
  {
    name: "a text/plain PATCH is 415 listing the patch types",
    method: "PATCH",
    headers: { "content-type": "text/plain" },
    body: () => ({ spec: { replicas: 2 } }),
    code: 415,
    reason: "UnsupportedMediaType",
    message:
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml",
  },
  {
    name: "an apply patch without fieldManager is 422 PatchOptions",
    method: "PATCH",
    headers: applyPatch,
    body: () => ({ apiVersion: "autoscaling/v1", kind: "Scale", spec: { replicas: 2 } }),
    code: 422,
    reason: "Invalid",
    message:
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    fields: ["fieldManager"],
  },
  {
    name: "fieldValidation=Bogus is 422 PatchOptions",
    method: "PATCH",
    query: "fieldValidation=Bogus",
    headers: mergePatch,
    body: () => ({ spec: { replicas: 2 } }),
    code: 422,
    reason: "Invalid",
    message:
      'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"',
    fields: ["fieldValidation"],
  },
  {
    name: "force on a merge patch is 422 PatchOptions",
    method: "PATCH",
    query: "force=true",
    headers: mergePatch,
    body: () => ({ spec: { replicas: 2 } }),
    code: 422,
    reason: "Invalid",
    message:
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    fields: ["force"],
  },
  {
    name: "dryRun=Bogus is 422 PatchOptions",
    method: "PATCH",
    query: "dryRun=Bogus",
    headers: mergePatch,
    body: () => ({ spec: { replicas: 2 } }),
    code: 422,
    reason: "Invalid",
    message:
      'PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
    fields: ["dryRun"],
  },
  {
    name: "a merge patch that makes spec a string is 422 at field patch with Go's decoder message",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ spec: "x" }),
    code: 422,
    reason: "Invalid",
    message: patchInvalid(
      "json: cannot unmarshal string into Go struct field Scale.spec of type v1.ScaleSpec",
    ),
    fields: ["patch"],
  },
  {
    name: "a merge patch with string replicas is 422 at field patch",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ spec: { replicas: "x" } }),
    code: 422,
    reason: "Invalid",
    message: patchInvalid(
      "json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32",
    ),
    fields: ["patch"],
  },
  {
    name: "a JSON patch that makes labels a number is 422 at field patch",
    method: "PATCH",
    headers: { "content-type": "application/json-patch+json" },
    body: () => [{ op: "add", path: "/metadata/labels", value: 5 }],
    code: 422,
    reason: "Invalid",
    message: patchInvalid(
      "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type map[string]string",
    ),
    fields: ["patch"],
  },
  {
    name: "a strategic merge patch that does not decode shows the patch map",
    method: "PATCH",
    headers: { "content-type": "application/strategic-merge-patch+json" },
    body: () => ({ spec: { replicas: "x" } }),
    code: 422,
    reason: "Invalid",
    message:
      ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:x]]": json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
    fields: ["patch"],
  },
  {
    name: "an unknown field under fieldValidation=Strict is 422 at field patch",
    method: "PATCH",
    query: "fieldValidation=Strict",
    headers: mergePatch,
    body: () => ({ spec: { replicas: 2, bogus: 1 } }),
    code: 422,
    reason: "Invalid",
    message: patchInvalid('strict decoding error: unknown field "spec.bogus"'),
    fields: ["patch"],
  },
  {
    name: "negative replicas are 422 Scale.autoscaling",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ spec: { replicas: -1 } }),
    code: 422,
    reason: "Invalid",
    message:
      'Scale.autoscaling "target" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    fields: ["spec.replicas"],
  },
  {
    name: "a patch that renames the Scale is 400",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ metadata: { name: "other" }, spec: { replicas: 2 } }),
    code: 400,
    reason: "BadRequest",
    message: "the name of the object (other) does not match the name on the URL (target)",
  },
  {
    name: "a patch that moves the Scale to another namespace is 400",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ metadata: { namespace: "other" }, spec: { replicas: 2 } }),
    code: 400,
    reason: "BadRequest",
    message:
      "the namespace of the provided object does not match the namespace sent on the request",
  },
  {
    name: "a patch with another uid is 409 on deployments/scale",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({
      metadata: { uid: "00000000-0000-0000-0000-000000000000" },
      spec: { replicas: 2 },
    }),
    code: 409,
    reason: "Conflict",
    message:
      /^Operation cannot be fulfilled on deployments\/scale\.apps "target": Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: [0-9a-f-]{36}$/,
  },
  {
    name: "a patch with a stale resourceVersion is 409 on deployments",
    method: "PATCH",
    headers: mergePatch,
    body: () => ({ metadata: { resourceVersion: "1" }, spec: { replicas: 2 } }),
    code: 409,
    reason: "Conflict",
    message:
      'Operation cannot be fulfilled on deployments.apps "target": the object has been modified; please apply your changes to the latest version and try again',
  },
  {
    name: "an apply patch of another kind is 400",
    method: "PATCH",
    query: "fieldManager=fuzz",
    headers: applyPatch,
    body: () => ({ apiVersion: "autoscaling/v1", kind: "Pod", spec: { replicas: 2 } }),
    code: 400,
    reason: "BadRequest",
    message: "the kind in the data (Pod) does not match the expected kind (Scale)",
  },
  {
    name: "a text/plain PUT is 415 listing the object media types",
    method: "PUT",
    headers: { "content-type": "text/plain" },
    body: () => scaleBody((b) => Object.assign(b.spec, { replicas: 2 })),
    code: 415,
    reason: "UnsupportedMediaType",
    message:
      "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
  },
  {
    name: "a PUT of another kind is 400",
    method: "PUT",
    body: () => scaleBody((b) => Object.assign(b, { kind: "Deployment" })),
    code: 400,
    reason: "BadRequest",
    message: "the kind in the data (Deployment) does not match the expected kind (Scale)",
  },
  {
    name: "a PUT of another apiVersion is 400",
    method: "PUT",
    body: () => scaleBody((b) => Object.assign(b, { apiVersion: "apps/v1" })),
    code: 400,
    reason: "BadRequest",
    message:
      "the API version in the data (apps/v1) does not match the expected API version (autoscaling/v1)",
  },
  {
    name: "a PUT of another name is 400",
    method: "PUT",
    body: () => scaleBody((b) => Object.assign(b.metadata, { name: "other" })),
    code: 400,
    reason: "BadRequest",
    message: "the name of the object (other) does not match the name on the URL (target)",
  },
  {
    name: "a PUT with an unknown field under fieldValidation=Strict is 400",
    method: "PUT",
    query: "fieldValidation=Strict",
    body: () => scaleBody((b) => Object.assign(b, { bogus: 1 })),
    code: 400,
    reason: "BadRequest",
    message:
      'Scale in version "v1" cannot be handled as a Scale: strict decoding error: unknown field "bogus"',
  },
  {
    name: "a PUT whose spec is a string is 400 with Go's decoder message",
    method: "PUT",
    body: () => scaleBody((b) => Object.assign(b, { spec: "x" })),
    code: 400,
    reason: "BadRequest",
    message:
      'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field Scale.spec of type v1.ScaleSpec',
  },
  {
    name: "a PUT with an invalid label is 422 Scale.autoscaling",
    method: "PUT",
    body: () => scaleBody((b) => Object.assign(b.metadata, { labels: { "a b": "c" } })),
    code: 422,
    reason: "Invalid",
    message:
      "Scale.autoscaling \"target\" is invalid: metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    fields: ["metadata.labels"],
  },
  {
    name: "a PUT with another uid is 409 on deployments",
    method: "PUT",
    body: () =>
      scaleBody((b) => Object.assign(b.metadata, { uid: "00000000-0000-0000-0000-000000000000" })),
    code: 409,
    reason: "Conflict",
    message:
      /^Operation cannot be fulfilled on deployments\.apps "target": Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: [0-9a-f-]{36}$/,
  },
];

for (const c of badScaleCases) {
  test(`handleScale: ${c.name}`, async () => {
    const before = await ensureTarget();
    const body = c.body === undefined ? undefined : await c.body();
    const path = c.query === undefined ? targetScale : `${targetScale}?${c.query}`;
    const reply = await s.request(c.method, path, body, c.headers);
    const after = await s.request("GET", `${deployments}/target`);
    const causes: J[] = reply.body?.details?.causes ?? [];
    assert.deepEqual(
      {
        code: reply.status,
        kind: reply.body?.kind,
        statusCode: reply.body?.code,
        reason: reply.body?.reason,
        fields: causes.map((cause) => cause.field),
        written: after.body.metadata.resourceVersion !== before.metadata.resourceVersion,
      },
      {
        code: c.code,
        kind: "Status",
        statusCode: c.code,
        reason: c.reason,
        fields: c.fields ?? causes.map((cause) => cause.field),
        written: false,
      },
      reply.text,
    );
    if (typeof c.message === "string") assert.equal(reply.body.message, c.message);
    else assert.match(reply.body.message, c.message);
  });
}

test("handleScale: fieldValidation=Warn drops an unknown field with a Warning and writes the replicas", async () => {
  await ensureTarget();
  const reply = await s.request(
    "PATCH",
    `${targetScale}?fieldValidation=Warn`,
    { spec: { replicas: 2, bogus: 1 } },
    mergePatch,
  );
  assert.equal(reply.status, 200, reply.text);
  const deployment = await s.request("GET", `${deployments}/target`);
  assert.deepEqual(
    { warning: reply.headers.get("warning"), replicas: deployment.body.spec.replicas },
    { warning: '299 - "unknown field \\"spec.bogus\\""', replicas: 2 },
  );
});

test("handleScale: server-side apply conflicts with the replicas' owner, force takes the field over in the parent's managedFields", async () => {
  const created = await s.request("POST", `${deployments}?fieldManager=creator`, {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "applied", labels: { app: "web" } },
    spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template },
  });
  assert.equal(created.status, 201, created.text);
  const url = `${deployments}/applied/scale`;
  const config = { apiVersion: "autoscaling/v1", kind: "Scale", spec: { replicas: 3 } };

  const conflicting = await s.request("PATCH", `${url}?fieldManager=hpa`, config, applyPatch);
  assert.equal(conflicting.status, 409, conflicting.text);
  assert.equal(
    conflicting.body.message,
    'Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas',
  );

  const dryRun = await s.request(
    "PATCH",
    `${url}?fieldManager=hpa&force=true&dryRun=All`,
    config,
    applyPatch,
  );
  assert.equal(dryRun.status, 200, dryRun.text);
  const unchanged = await s.request("GET", `${deployments}/applied`);
  assert.equal(unchanged.body.metadata.resourceVersion, created.body.metadata.resourceVersion);

  const forced = await s.request("PATCH", `${url}?fieldManager=hpa&force=true`, config, applyPatch);
  assert.equal(forced.status, 200, forced.text);
  assert.equal(forced.body.spec.replicas, 3);
  const deployment = await s.request("GET", `${deployments}/applied`);
  const entries: J[] = deployment.body.metadata.managedFields;
  const creator = entries.find((e) => e.manager === "creator");
  assert.deepEqual(
    {
      replicas: deployment.body.spec.replicas,
      hpa: entries
        .filter((e) => e.manager === "hpa")
        .map((e) => [e.operation, e.apiVersion, e.subresource, e.fieldsV1]),
      creatorOwnsReplicas: creator?.fieldsV1?.["f:spec"]?.["f:replicas"] !== undefined,
      creatorKeepsSelector: creator?.fieldsV1?.["f:spec"]?.["f:selector"] !== undefined,
    },
    {
      replicas: 3,
      hpa: [["Apply", "apps/v1", "scale", { "f:spec": { "f:replicas": {} } }]],
      creatorOwnsReplicas: false,
      creatorKeepsSelector: true,
    },
  );

  const again = await s.request(
    "PATCH",
    `${url}?fieldManager=hpa`,
    { ...config, spec: { replicas: 4 } },
    applyPatch,
  );
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.spec.replicas, 4);
});

// A custom resource whose scale reads a replicas field the schema does not default.

const counters = "/apis/example.com/v1/namespaces/default/widgets";

async function ensureCounterCrd(): Promise<void> {
  const existing = await s.request(
    "GET",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
  );
  if (existing.status === 200) return;
  const crd = makeWidgetCrd((c) => {
    const version = c.spec.versions?.[0];
    if (version?.subresources?.scale === undefined) throw new TypeError("no scale subresource");
    version.subresources.scale = {
      specReplicasPath: ".spec.count",
      statusReplicasPath: ".status.replicas",
    };
    const spec = version.schema?.openAPIV3Schema?.properties?.["spec"];
    if (spec?.properties === undefined) throw new TypeError("no spec schema");
    spec.properties["count"] = { type: "integer" };
  });
  const created = await s.request(
    "POST",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    crd,
  );
  assert.equal(created.status, 201, created.text);
  await s.settle(created.body.metadata.resourceVersion);
}

async function createCounter(name: string, spec: Record<string, unknown>): Promise<void> {
  await ensureCounterCrd();
  // The CRD's resource is served once it is established.
  await eventually(async () => {
    const reply = await s.request("POST", counters, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name },
      spec: { size: "small", ...spec },
    });
    assert.equal(reply.status, 201, reply.text);
  }, 10_000);
}

test("handleScale: a custom resource without its replicas field is a 500 on GET and a 400 on a patch that sets none", async () => {
  await createCounter("empty", {});
  const got = await s.request("GET", `${counters}/empty/scale`);
  const patched = await s.request(
    "PATCH",
    `${counters}/empty/scale`,
    { metadata: { labels: { a: "b" } } },
    mergePatch,
  );
  assert.deepEqual(
    [got.status, got.body.reason, got.body.message, patched.status, patched.body.message],
    [
      500,
      "InternalError",
      'Internal error occurred: the spec replicas field ".spec.count" does not exist',
      400,
      'the spec replicas field ".spec.count" cannot be empty',
    ],
  );
  const set = await s.request(
    "PATCH",
    `${counters}/empty/scale`,
    { spec: { replicas: 2 } },
    mergePatch,
  );
  assert.equal(set.status, 200, set.text);
  const widget = await s.request("GET", `${counters}/empty`);
  assert.equal(widget.body.spec.count, 2);
});

test("handleScale: a custom resource's Scale is not validated as a Scale: its schema decides", async () => {
  await createCounter("negative", { count: 1 });
  const reply = await s.request(
    "PATCH",
    `${counters}/negative/scale`,
    { spec: { replicas: -1 } },
    mergePatch,
  );
  assert.equal(reply.status, 200, reply.text);
  const widget = await s.request("GET", `${counters}/negative`);
  assert.equal(widget.body.spec.count, -1);
});
