import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { makeWidgetCrd } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { type Reply, startTestServer, type TestServer } from "./test-fixtures.ts";

// CRD validation ratcheting (KEP-4008) through the API server: a widget stored under a looser
// schema stays updatable in its other fields once the CRD's schema is tightened.

type J = Reply["body"];

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = "/apis/example.com/v1/namespaces/default/widgets";

let s: TestServer;

before(async () => {
  s = await startTestServer();
  const crd = await s.request("POST", crds, makeWidgetCrd());
  assert.equal(crd.status, 201, crd.text);
  await s.settle(crd.body.metadata.resourceVersion);
  const w1 = await s.request("POST", widgets, {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w1" },
    spec: { size: "small", note: "ten chars!" },
  });
  assert.equal(w1.status, 201, w1.text);
  const status = await s.request("PUT", `${widgets}/w1/status`, {
    ...w1.body,
    status: { replicas: 9, selector: "app=w1" },
  });
  assert.equal(status.status, 200, status.text);

  // Tighten the schema: the stored note is now too long and the stored status.replicas too big.
  const current = await s.request("GET", `${crds}/widgets.example.com`);
  const tightened = structuredClone(current.body);
  const properties = tightened.spec.versions[0].schema.openAPIV3Schema.properties;
  properties.spec.properties.note.maxLength = 5;
  properties.status.properties.replicas.maximum = 5;
  const updated = await s.request("PUT", `${crds}/widgets.example.com`, tightened);
  assert.equal(updated.status, 200, updated.text);
  await s.settle(updated.body.metadata.resourceVersion);
});

after(async () => {
  await s[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

async function current(): Promise<J> {
  const reply = await s.request("GET", `${widgets}/w1`);
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

test("ratcheting: the tightened schema rejects a new widget with the stored values", async () => {
  const reply = await s.request("POST", widgets, {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w2" },
    spec: { size: "small", note: "ten chars!" },
  });
  assert.equal(reply.status, 422, reply.text);
  assert.equal(
    reply.body.message,
    'Widget.example.com "w2" is invalid: spec.note: Too long: may not be more than 5 bytes',
  );
});

test("ratcheting: a PUT changing another field is accepted with the invalid note unchanged", async () => {
  const body = await current();
  body.spec.size = "large";
  const reply = await s.request("PUT", `${widgets}/w1`, body);
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.spec.size, "large");
  assert.equal(reply.body.spec.note, "ten chars!");
});

test("ratcheting: a /status write ratchets status as the main resource ratchets spec", async () => {
  const body = await current();
  body.status.selector = "app=w1,tier=web";
  const kept = await s.request("PUT", `${widgets}/w1/status`, body);
  assert.equal(kept.status, 200, kept.text);
  assert.deepEqual(kept.body.status, { replicas: 9, selector: "app=w1,tier=web" });

  const patched = await s.request(
    "PATCH",
    `${widgets}/w1/status`,
    { status: { replicas: 8 } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.equal(patched.status, 422, patched.text);
  assert.equal(
    patched.body.message,
    'Widget.example.com "w1" is invalid: status.replicas: Invalid value: 8: replicas in body should be less than or equal to 5',
  );
});

test("ratcheting: a PUT changing the invalid note is a 422 with upstream's message", async () => {
  const body = await current();
  body.spec.note = "still too long";
  const reply = await s.request("PUT", `${widgets}/w1`, body);
  assert.equal(reply.status, 422, reply.text);
  assert.equal(reply.body.reason, "Invalid");
  assert.deepEqual(
    reply.body.details.causes.map((c: J) => [c.reason, c.field]),
    [["FieldValueTooLong", "spec.note"]],
  );
  assert.equal(
    reply.body.message,
    'Widget.example.com "w1" is invalid: spec.note: Too long: may not be more than 5 bytes',
  );
  body.spec.note = "short";
  const fixed = await s.request("PUT", `${widgets}/w1`, body);
  assert.equal(fixed.status, 200, fixed.text);
  fixed.body.spec.note = "ten chars!";
  const back = await s.request("PUT", `${widgets}/w1`, fixed.body);
  assert.equal(back.status, 422, "once fixed, the old invalid value is a change like any other");
});
