import assert from "node:assert/strict";
import { test } from "node:test";
import { makeWidgetCrd } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { type Reply, startTestServer, type TestServer } from "./test-fixtures.ts";

ensureNoLeaksInEachTest();

/** Decoded JSON of a reply. */
type J = Reply["body"];

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = "/apis/example.com/v1/namespaces/default/widgets";
const tableAccept = { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };

async function createCrd(s: TestServer, crd: unknown): Promise<Reply> {
  const reply = await s.request("POST", crds, crd);
  assert.equal(reply.status, 201, reply.text);
  await s.settle(reply.body.metadata.resourceVersion);
  return reply;
}

async function createWidget(s: TestServer, name: string, extra: object = {}): Promise<void> {
  const reply = await s.request("POST", widgets, {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name, ...extra },
    spec: { size: "small" },
  });
  assert.equal(reply.status, 201, reply.text);
}

/** Polls `probe` until it returns true; fails after `timeoutMs`. */
async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function condition(crd: J, type: string): [string, string, string] | undefined {
  const c = crd.status?.conditions?.find((x: J) => x.type === type);
  return c === undefined ? undefined : [c.status, c.reason, c.message];
}

test("CrdController.start: custom resources survive a restart (CRDs reloaded from storage)", async () => {
  const first = await startTestServer();
  await createCrd(first, makeWidgetCrd());
  await createWidget(first, "kept");
  await using second = await first.restart();
  const reply = await second.request("GET", `${widgets}/kept`);
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.spec.size, "small");
  const table = await second.request("GET", widgets, undefined, tableAccept);
  assert.deepEqual(table.body.columnDefinitions.map((c: J) => c.name).slice(0, 3), [
    "Name",
    "Size",
    "Replicas",
  ]);
});

test("CrdController: deleting a CRD deletes its custom resources, then the CRD", async () => {
  await using s = await startTestServer();
  await createCrd(s, makeWidgetCrd());
  await createWidget(s, "a");
  await createWidget(s, "b");
  const deleted = await s.request("DELETE", `${crds}/widgets.example.com`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(deleted.body.metadata.finalizers, [
    "customresourcecleanup.apiextensions.k8s.io",
  ]);
  assert.deepEqual(condition(deleted.body, "Terminating"), [
    "True",
    "InstanceDeletionPending",
    "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
  ]);
  await eventually(
    "the CRD is gone",
    async () => (await s.request("GET", `${crds}/widgets.example.com`)).status === 404,
  );
  const objects = await s.storage.list("/registry/widgets.example.com/");
  assert.equal(objects.items.length, 0, "no custom resource is left in storage");
  assert.equal((await s.request("GET", widgets)).status, 404);
  assert.equal((await s.request("GET", "/apis/example.com/v1")).status, 404);
});

test("CrdController: a custom resource with a finalizer holds the CRD in Terminating", async () => {
  await using s = await startTestServer();
  await createCrd(s, makeWidgetCrd());
  await createWidget(s, "held", { finalizers: ["example.com/hold"] });
  const deleted = await s.request("DELETE", `${crds}/widgets.example.com`);
  assert.equal(deleted.status, 200, deleted.text);
  await eventually("the cleanup has started", async () => {
    const crd = await s.request("GET", `${crds}/widgets.example.com`);
    return condition(crd.body, "Terminating")?.[1] === "InstanceDeletionInProgress";
  });
  const crd = await s.request("GET", `${crds}/widgets.example.com`);
  assert.deepEqual(condition(crd.body, "Terminating"), [
    "True",
    "InstanceDeletionInProgress",
    "CustomResource deletion is in progress",
  ]);
  const held = await s.request("GET", `${widgets}/held`);
  assert.ok(held.body.metadata.deletionTimestamp, "the custom resource is terminating");
  const refused = await s.request("POST", widgets, {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "late" },
    spec: { size: "small" },
  });
  assert.equal(refused.status, 405);
  assert.equal(
    refused.body.message,
    "create not allowed while custom resource definition is terminating",
  );
  const released = await s.request(
    "PATCH",
    `${widgets}/held`,
    { metadata: { finalizers: null } },
    { "content-type": "application/merge-patch+json" },
  );
  assert.equal(released.status, 200, released.text);
  await eventually(
    "the CRD is gone",
    async () => (await s.request("GET", `${crds}/widgets.example.com`)).status === 404,
  );
});

test("CrdController: a CRD whose kind is taken is not served until the other CRD goes", async () => {
  await using s = await startTestServer();
  await createCrd(s, makeWidgetCrd());
  const second = await createCrd(
    s,
    makeWidgetCrd((crd) => {
      crd.metadata.name = "gadgets.example.com";
      crd.spec.names = { plural: "gadgets", singular: "gadget", kind: "Widget" };
    }),
  );
  // Kind and (defaulted) listKind both conflict; upstream reports the last check.
  assert.deepEqual(condition(second.body, "NamesAccepted"), [
    "False",
    "ListKindConflict",
    '"WidgetList" is already in use',
  ]);
  assert.deepEqual(second.body.status.acceptedNames, {
    plural: "gadgets",
    singular: "gadget",
    kind: "",
  });
  assert.deepEqual(condition(second.body, "Established"), [
    "False",
    "NotAccepted",
    "not all names are accepted",
  ]);
  assert.equal(
    (await s.request("GET", "/apis/example.com/v1/namespaces/default/gadgets")).status,
    404,
  );

  await s.request("DELETE", `${crds}/widgets.example.com`);
  await eventually("the second CRD is established", async () => {
    const crd = await s.request("GET", `${crds}/gadgets.example.com`);
    return condition(crd.body, "Established")?.[0] === "True";
  });
  const crd = await s.request("GET", `${crds}/gadgets.example.com`);
  assert.deepEqual(condition(crd.body, "NamesAccepted"), [
    "True",
    "NoConflicts",
    "no conflicts found",
  ]);
  assert.equal(crd.body.status.acceptedNames.kind, "Widget");
  await s.settle(crd.body.metadata.resourceVersion);
  const list = await s.request("GET", "/apis/example.com/v1/namespaces/default/gadgets");
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.kind, "WidgetList");
});

test("CrdController: versions follow spec.versions (added, not served, printer per version)", async () => {
  await using s = await startTestServer();
  const created = await createCrd(s, makeWidgetCrd());
  const update = structuredClone(created.body);
  const v1 = update.spec.versions[0];
  update.spec.versions = [
    { ...v1, storage: false, served: false },
    {
      ...structuredClone(v1),
      name: "v2",
      additionalPrinterColumns: [{ name: "Big", type: "string", jsonPath: ".spec.size" }],
    },
  ];
  const replaced = await s.request("PUT", `${crds}/widgets.example.com`, update);
  assert.equal(replaced.status, 200, replaced.text);
  assert.deepEqual(replaced.body.status.storedVersions, ["v1", "v2"]);
  await s.settle(replaced.body.metadata.resourceVersion);
  assert.equal((await s.request("GET", widgets)).status, 404, "v1 is no longer served");
  const v2 = await s.request(
    "GET",
    "/apis/example.com/v2/namespaces/default/widgets",
    undefined,
    tableAccept,
  );
  assert.equal(v2.status, 200, v2.text);
  assert.deepEqual(
    v2.body.columnDefinitions.map((c: J) => c.name),
    ["Name", "Big"],
  );
  const group = await s.request("GET", "/apis/example.com");
  assert.deepEqual(
    group.body.versions.map((v: J) => v.version),
    ["v2"],
  );
});

test("CrdController: a short name another CRD gives up is taken by the CRD that wanted it", async () => {
  await using s = await startTestServer();
  const first = await createCrd(s, makeWidgetCrd());
  const second = await createCrd(
    s,
    makeWidgetCrd((crd) => {
      crd.metadata.name = "gadgets.example.com";
      crd.spec.names = { plural: "gadgets", kind: "Gadget", shortNames: ["wd"] };
    }),
  );
  assert.deepEqual(condition(second.body, "NamesAccepted"), [
    "False",
    "ShortNamesConflict",
    '"wd" is already in use',
  ]);
  assert.deepEqual(condition(second.body, "Established"), [
    "False",
    "NotAccepted",
    "not all names are accepted",
  ]);
  const update = structuredClone(first.body);
  update.spec.names.shortNames = ["wdg"];
  const updated = await s.request("PUT", `${crds}/widgets.example.com`, update);
  assert.equal(updated.status, 200, updated.text);
  assert.deepEqual(updated.body.status.acceptedNames.shortNames, ["wdg"]);
  await eventually("the second CRD takes the short name", async () => {
    const crd = await s.request("GET", `${crds}/gadgets.example.com`);
    return condition(crd.body, "NamesAccepted")?.[0] === "True";
  });
  const crd = await s.request("GET", `${crds}/gadgets.example.com`);
  assert.deepEqual(crd.body.status.acceptedNames.shortNames, ["wd"]);
  assert.deepEqual(condition(crd.body, "Established"), [
    "True",
    "InitialNamesAccepted",
    "the initial names have been accepted",
  ]);
  await s.settle(crd.body.metadata.resourceVersion);
  const discovery = await s.request("GET", "/apis/example.com/v1");
  assert.deepEqual(
    discovery.body.resources
      .filter((r: J) => !r.name.includes("/"))
      .map((r: J) => [r.name, r.shortNames]),
    [
      ["gadgets", ["wd"]],
      ["widgets", ["wdg"]],
    ],
  );
});
