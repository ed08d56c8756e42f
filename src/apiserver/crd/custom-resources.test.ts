import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { makeWidgetCrd } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { type Reply, startTestServer, type TestServer } from "./test-fixtures.ts";

/** Decoded JSON of a reply. */
type J = Reply["body"];

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = "/apis/example.com/v1/namespaces/default/widgets";
const tableAccept = { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };
const aggregatedAccept = {
  accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
};

let s: TestServer;
let created: J;

before(async () => {
  s = await startTestServer();
  const reply = await s.request("POST", crds, makeWidgetCrd());
  assert.equal(reply.status, 201, reply.text);
  created = reply.body;
  await s.settle(created.metadata.resourceVersion);
  // A cluster-scoped CRD with no printer columns and no subresources.
  const plain = await s.request(
    "POST",
    crds,
    makeWidgetCrd((crd) => {
      crd.metadata.name = "knobs.example.com";
      crd.spec.scope = "Cluster";
      crd.spec.names = { plural: "knobs", kind: "Knob" };
      const v = crd.spec.versions[0];
      if (v === undefined) return;
      delete v.subresources;
      delete v.additionalPrinterColumns;
      v.schema = {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: { type: "object", properties: { turns: { type: "integer" } } },
            status: { type: "object", properties: { phase: { type: "string" } } },
          },
        },
      };
    }),
  );
  assert.equal(plain.status, 201, plain.text);
  await s.settle(plain.body.metadata.resourceVersion);
});

after(async () => {
  await s[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

function widget(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: "example.com/v1", kind: "Widget", metadata: { name }, spec };
}

test("CustomResourceDefinition create: NamesAccepted and Established are True at once", () => {
  const conditions = created.status.conditions.map((c: J) => [
    c.type,
    c.status,
    c.reason,
    c.message,
  ]);
  assert.deepEqual(conditions, [
    ["NamesAccepted", "True", "NoConflicts", "no conflicts found"],
    ["Established", "True", "InitialNamesAccepted", "the initial names have been accepted"],
  ]);
  assert.deepEqual(created.status.acceptedNames, {
    plural: "widgets",
    singular: "widget",
    shortNames: ["wd"],
    kind: "Widget",
    listKind: "WidgetList",
  });
  assert.deepEqual(created.status.storedVersions, ["v1"]);
  assert.equal(created.metadata.finalizers, undefined);
});

test("CustomResourceDefinition serving: legacy discovery lists the resource and subresources", async () => {
  const list = await s.request("GET", "/apis/example.com/v1");
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.resources.map((r: J) => [r.name, r.kind, r.namespaced]),
    [
      ["knobs", "Knob", false],
      ["widgets", "Widget", true],
      ["widgets/scale", "Scale", true],
      ["widgets/status", "Widget", true],
    ],
  );
  const groups = await s.request("GET", "/apis");
  assert.ok(
    groups.body.groups.some((g: J) => g.name === "example.com"),
    "the group is listed in /apis",
  );
  const group = await s.request("GET", "/apis/example.com");
  assert.deepEqual(group.body.preferredVersion, { groupVersion: "example.com/v1", version: "v1" });
});

test("CustomResourceDefinition serving: aggregated discovery lists the resource", async () => {
  const reply = await s.request("GET", "/apis", undefined, aggregatedAccept);
  const item = reply.body.items.find((i: J) => i.metadata.name === "example.com");
  assert.ok(item, "example.com is in aggregated discovery");
  const resource = item.versions[0].resources.find((r: J) => r.resource === "widgets");
  assert.deepEqual(resource.responseKind, { group: "example.com", version: "v1", kind: "Widget" });
  assert.deepEqual(resource.shortNames, ["wd"]);
  assert.deepEqual(
    resource.subresources.map((r: J) => r.subresource),
    ["scale", "status"],
  );
});

test("CustomResourceDefinition serving: OpenAPI v3 publishes the schema and fieldValidation", async () => {
  const index = await s.request("GET", "/openapi/v3");
  const entry = index.body.paths["apis/example.com/v1"];
  assert.ok(entry, "the group/version is in the index");
  const doc = await s.request("GET", entry.serverRelativeURL);
  const schema = doc.body.components.schemas["com.example.v1.Widget"];
  assert.deepEqual(schema["x-kubernetes-group-version-kind"], [
    { group: "example.com", version: "v1", kind: "Widget" },
  ]);
  assert.deepEqual(Object.keys(schema.properties.spec.properties).sort(), [
    "extra",
    "note",
    "replicas",
    "size",
  ]);
  const patch = doc.body.paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"].patch;
  assert.ok(
    patch.parameters.some((p: J) => p.name === "fieldValidation"),
    'patch.parameters.some((p: J) => p.name === "fieldValidation")',
  );
  assert.equal(
    patch.requestBody.content["application/strategic-merge-patch+json"],
    undefined,
    "custom resources take no strategic merge patch",
  );
});

test("CustomResource create: defaults applied, unknown fields pruned with a warning, preserved subtree kept", async () => {
  const reply = await s.request(
    "POST",
    widgets,
    widget("w1", { size: "small", junk: 1, extra: { anything: { goes: true } } }),
  );
  assert.equal(reply.status, 201, reply.text);
  assert.deepEqual(reply.body.spec, {
    size: "small",
    extra: { anything: { goes: true } },
    replicas: 1,
  });
  assert.equal(reply.headers.get("warning"), '299 - "unknown field \\"spec.junk\\""');
  assert.equal(reply.body.metadata.generation, 1);
});

test("CustomResource create: fieldValidation=Strict rejects unknown fields with a 400", async () => {
  const reply = await s.request(
    "POST",
    `${widgets}?fieldValidation=Strict`,
    widget("strict", { size: "small", junk: 1 }),
  );
  assert.equal(reply.status, 400);
  assert.equal(
    reply.body.message,
    'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.junk"',
  );
});

test("CustomResource create: schema violations are a 422 with field paths", async () => {
  const reply = await s.request("POST", widgets, widget("bad", { size: "huge", replicas: 20 }));
  assert.equal(reply.status, 422);
  assert.equal(reply.body.reason, "Invalid");
  assert.deepEqual(
    reply.body.details.causes.map((c: J) => [c.field, c.reason]),
    [
      ["spec.size", "FieldValueNotSupported"],
      ["spec.replicas", "FieldValueInvalid"],
    ],
  );
  assert.match(
    reply.body.message,
    /^Widget\.example\.com "bad" is invalid: \[spec\.size: Unsupported value: "huge": supported values: "small", "large", spec\.replicas: Invalid value: 20: spec\.replicas in body should be less than or equal to 10\]$/,
  );
  const missing = await s.request("POST", widgets, widget("bad", {}));
  assert.equal(missing.status, 422);
  assert.equal(missing.body.details.causes[0].field, "spec.size");
  assert.equal(missing.body.details.causes[0].reason, "FieldValueRequired");
});

test("CustomResource table: additionalPrinterColumns with NAME first and priority kept", async () => {
  await s.request("POST", widgets, widget("w2", { size: "large", note: "hi", replicas: 2 }));
  const reply = await s.request("GET", widgets, undefined, tableAccept);
  assert.equal(reply.status, 200);
  assert.deepEqual(
    reply.body.columnDefinitions.map((c: J) => [c.name, c.type, c.priority]),
    [
      ["Name", "string", 0],
      ["Size", "string", 0],
      ["Replicas", "integer", 0],
      ["Age", "date", 0],
      ["Note", "string", 1],
    ],
  );
  const row = reply.body.rows.find((r: J) => r.cells[0] === "w2");
  assert.deepEqual(
    [row.cells[0], row.cells[1], row.cells[2], row.cells[4]],
    ["w2", "large", 2, "hi"],
  );
});

test("CustomResource table: a version without columns prints NAME and AGE", async () => {
  const create = await s.request("POST", "/apis/example.com/v1/knobs", {
    apiVersion: "example.com/v1",
    kind: "Knob",
    metadata: { name: "k1" },
    spec: { turns: 3 },
  });
  assert.equal(create.status, 201, create.text);
  const reply = await s.request("GET", "/apis/example.com/v1/knobs", undefined, tableAccept);
  assert.deepEqual(
    reply.body.columnDefinitions.map((c: J) => c.name),
    ["Name", "Age"],
  );
});

test("CustomResource status: the main resource ignores status, /status changes only status", async () => {
  const first = await s.request("GET", `${widgets}/w1`);
  const update = structuredClone(first.body);
  update.status = { replicas: 5 };
  update.spec.note = "x";
  const main = await s.request("PUT", `${widgets}/w1`, update);
  assert.equal(main.status, 200, main.text);
  assert.equal(main.body.status, undefined);
  assert.equal(main.body.spec.note, "x");
  assert.equal(main.body.metadata.generation, 2);
  const status = await s.request(
    "PATCH",
    `${widgets}/w1/status`,
    { status: { replicas: 2, selector: "app=w1" }, spec: { note: "ignored" } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.equal(status.status, 200, status.text);
  assert.deepEqual(status.body.status, { replicas: 2, selector: "app=w1" });
  assert.equal(status.body.spec.note, "x");
  assert.equal(status.body.metadata.generation, 2);
});

test("CustomResource status: without a status subresource status is part of the object", async () => {
  const path = "/apis/example.com/v1/knobs/k2";
  const create = await s.request("POST", "/apis/example.com/v1/knobs", {
    apiVersion: "example.com/v1",
    kind: "Knob",
    metadata: { name: "k2" },
    status: { phase: "New" },
  });
  assert.deepEqual(create.body.status, { phase: "New" });
  const patched = await s.request(
    "PATCH",
    path,
    { status: { phase: "Done" } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.deepEqual(patched.body.status, { phase: "Done" });
  assert.equal(patched.body.metadata.generation, 2, "any non-metadata change bumps generation");
  const sub = await s.request("GET", `${path}/status`);
  assert.equal(sub.status, 404);
});

test("CustomResource patch: strategic merge patch is a 415", async () => {
  const reply = await s.request(
    "PATCH",
    `${widgets}/w1`,
    { spec: { note: "y" } },
    { "content-type": "application/strategic-merge-patch+json" },
  );
  assert.equal(reply.status, 415);
});

test("CustomResource scale: reads the spec, status and selector paths", async () => {
  const reply = await s.request("GET", `${widgets}/w1/scale`);
  assert.equal(reply.status, 200);
  assert.deepEqual(
    { kind: reply.body.kind, apiVersion: reply.body.apiVersion, spec: reply.body.spec },
    { kind: "Scale", apiVersion: "autoscaling/v1", spec: { replicas: 1 } },
  );
  assert.deepEqual(reply.body.status, { replicas: 2, selector: "app=w1" });
  assert.equal(reply.body.metadata.name, "w1");
  assert.equal(reply.body.metadata.namespace, "default");
});

test("CustomResource scale: PATCH and PUT write specReplicasPath, a stale PUT is a 409", async () => {
  const patched = await s.request(
    "PATCH",
    `${widgets}/w1/scale`,
    { spec: { replicas: 4 } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.spec.replicas, 4);
  const stale = structuredClone(patched.body);
  const put = structuredClone(patched.body);
  put.spec.replicas = 6;
  const replaced = await s.request("PUT", `${widgets}/w1/scale`, put);
  assert.equal(replaced.status, 200, replaced.text);
  const object = await s.request("GET", `${widgets}/w1`);
  assert.equal(object.body.spec.replicas, 6);
  assert.deepEqual(object.body.status, { replicas: 2, selector: "app=w1" });
  stale.spec.replicas = 7;
  const conflict = await s.request("PUT", `${widgets}/w1/scale`, stale);
  assert.equal(conflict.status, 409);
  assert.equal(
    conflict.body.message,
    'Operation cannot be fulfilled on widgets.example.com "w1": the object has been modified; please apply your changes to the latest version and try again',
  );
});

test("CustomResource scale: replicas beyond the schema's maximum are a 422 on the resource", async () => {
  const reply = await s.request(
    "PATCH",
    `${widgets}/w1/scale`,
    { spec: { replicas: 11 } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.equal(reply.status, 422);
  assert.match(reply.body.message, /spec\.replicas in body should be less than or equal to 10/);
});
