import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Namespace } from "../../api/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { systemClock } from "../../util/index.ts";
import { type Reply, startTestServer, type TestServer } from "../crd/test-fixtures.ts";
import { namespaceStrategy } from "./namespace-strategy.ts";

const context = { clock: systemClock };

function namespace(
  spec: Namespace["spec"],
  status: Namespace["status"],
  deleting = false,
): Namespace {
  const ns: Namespace = { metadata: { name: "team" } };
  if (deleting) ns.metadata.deletionTimestamp = "2024-01-01T00:00:00Z";
  if (spec !== undefined) ns.spec = spec;
  if (status !== undefined) ns.status = status;
  return ns;
}

const createCases: readonly { name: string; given: Namespace; want: Namespace }[] = [
  {
    name: "adds the kubernetes finalizer and makes the namespace Active",
    given: namespace(undefined, { phase: "Terminating" }),
    want: namespace({ finalizers: ["kubernetes"] }, { phase: "Active" }),
  },
  {
    name: "appends the kubernetes finalizer to the ones given",
    given: namespace({ finalizers: ["example.com/hold"] }, undefined),
    want: namespace({ finalizers: ["example.com/hold", "kubernetes"] }, { phase: "Active" }),
  },
  {
    name: "keeps a kubernetes finalizer already there",
    given: namespace({ finalizers: ["kubernetes", "example.com/hold"] }, undefined),
    want: namespace({ finalizers: ["kubernetes", "example.com/hold"] }, { phase: "Active" }),
  },
];

for (const c of createCases) {
  test(`namespaceStrategy.prepareForCreate: ${c.name}`, () => {
    const ns = structuredClone(c.given);
    namespaceStrategy.prepareForCreate?.(ns, context);
    assert.deepEqual(ns, c.want);
  });
}

const updateCases: readonly { name: string; given: Namespace; old: Namespace; want: Namespace }[] =
  [
    {
      name: "keeps the stored spec.finalizers and status",
      given: namespace({ finalizers: [] }, { phase: "Terminating" }),
      old: namespace({ finalizers: ["kubernetes"] }, { phase: "Active" }),
      want: namespace({ finalizers: ["kubernetes"] }, { phase: "Active" }),
    },
    {
      name: "cannot add finalizers the stored namespace does not have",
      given: namespace({ finalizers: ["example.com/hold"] }, undefined),
      old: namespace({}, { phase: "Active" }),
      want: namespace({}, { phase: "Active" }),
    },
    {
      name: "turns a namespace with a deletionTimestamp Terminating",
      given: namespace({ finalizers: ["kubernetes"] }, { phase: "Active" }, true),
      old: namespace({ finalizers: ["kubernetes"] }, { phase: "Active" }),
      want: namespace({ finalizers: ["kubernetes"] }, { phase: "Terminating" }, true),
    },
  ];

for (const c of updateCases) {
  test(`namespaceStrategy.prepareForUpdate: ${c.name}`, () => {
    const ns = structuredClone(c.given);
    namespaceStrategy.prepareForUpdate?.(ns, c.old, context);
    assert.deepEqual(ns, c.want);
  });
}

// Over HTTP: each way of writing a namespace changes only its part.

let s: TestServer;

before(async () => {
  s = await startTestServer();
});

after(async () => {
  await s[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

let names = 0;

async function createNamespace(): Promise<Reply["body"]> {
  const created = await s.request("POST", "/api/v1/namespaces", {
    metadata: { name: `ns-${++names}`, labels: { team: "a" } },
    spec: { finalizers: ["example.com/hold"] },
  });
  assert.equal(created.status, 201, created.text);
  return created.body;
}

const writeCases: readonly {
  name: string;
  write: (ns: Reply["body"]) => Promise<Reply>;
  want: { finalizers: string[]; phase: string; team: string };
}[] = [
  {
    name: "a PUT changes labels but neither spec.finalizers nor status",
    write: (ns) =>
      s.request("PUT", `/api/v1/namespaces/${ns.metadata.name}`, {
        ...ns,
        metadata: { ...ns.metadata, labels: { team: "b" } },
        spec: { finalizers: [] },
        status: { phase: "Terminating" },
      }),
    want: { finalizers: ["example.com/hold", "kubernetes"], phase: "Active", team: "b" },
  },
  {
    name: "a merge patch of spec.finalizers changes nothing",
    write: (ns) =>
      s.request(
        "PATCH",
        `/api/v1/namespaces/${ns.metadata.name}`,
        { spec: { finalizers: null } },
        { "content-type": "application/merge-patch+json" },
      ),
    want: { finalizers: ["example.com/hold", "kubernetes"], phase: "Active", team: "a" },
  },
  {
    name: "PUT /finalize changes spec.finalizers only",
    write: (ns) =>
      s.request("PUT", `/api/v1/namespaces/${ns.metadata.name}/finalize`, {
        ...ns,
        spec: { finalizers: ["kubernetes"] },
        status: { phase: "Terminating" },
      }),
    want: { finalizers: ["kubernetes"], phase: "Active", team: "a" },
  },
  {
    name: "PUT /status changes status but not spec.finalizers",
    write: (ns) =>
      s.request("PUT", `/api/v1/namespaces/${ns.metadata.name}/status`, {
        ...ns,
        spec: { finalizers: [] },
        status: {
          phase: "Active",
          conditions: [{ type: "NamespaceContentRemaining", status: "False" }],
        },
      }),
    want: { finalizers: ["example.com/hold", "kubernetes"], phase: "Active", team: "a" },
  },
];

for (const c of writeCases) {
  test(`namespaceStrategy: ${c.name}`, async () => {
    const ns = await createNamespace();
    const reply = await c.write(ns);
    assert.equal(reply.status, 200, reply.text);
    const stored = await s.request("GET", `/api/v1/namespaces/${ns.metadata.name}`);
    assert.deepEqual(
      {
        finalizers: stored.body.spec?.finalizers,
        phase: stored.body.status?.phase,
        team: stored.body.metadata.labels?.team,
      },
      c.want,
    );
  });
}

test("namespaceStrategy: DELETE makes the namespace Terminating and it goes once /finalize empties spec.finalizers", async () => {
  const ns = await createNamespace();
  const path = `/api/v1/namespaces/${ns.metadata.name}`;
  const deleted = await s.request("DELETE", path);
  assert.equal(deleted.status, 200, deleted.text);
  const terminating = await s.request("GET", path);
  assert.equal(terminating.body.status.phase, "Terminating");
  const finalized = await s.request("PUT", `${path}/finalize`, {
    ...terminating.body,
    spec: { finalizers: [] },
  });
  assert.equal(finalized.status, 200, finalized.text);
  assert.equal((await s.request("GET", path)).status, 404);
});
