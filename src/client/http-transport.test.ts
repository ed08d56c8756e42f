import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import {
  ApiError,
  type ConfigMap,
  type KubeObject,
  type Namespace,
  type Node,
  type Pod,
} from "../api/index.ts";
import { type ClusterHarness, startClusterHarness } from "../testing/cluster-harness.ts";
import { ensureNoLeaksAfterSuite } from "../testing/leak-check.ts";
import {
  type Client,
  configMapsResource,
  deploymentsResource,
  namespacesResource,
  nodesResource,
  type PatchType,
  podsResource,
} from "./client.ts";
import { TransportError } from "./errors.ts";
import { newClient } from "./http-transport.ts";
import { decodeCertificateAuthority, loadKubeconfig } from "./kubeconfig.ts";

let harness: ClusterHarness;
let names = 0;
const unique = (prefix: string): string => `${prefix}-${++names}`;

const makePod = (name: string): Pod =>
  ({
    metadata: { name, namespace: "default" },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  }) as Pod;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error: unknown) {
    return error;
  }
  assert.fail("expected the call to fail");
}

/** code, reason and message of an ApiError, for one deepEqual. */
function summary(error: unknown): [number, string, string] {
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return [error.code, error.reason, error.message];
}

describe("HTTP client round trips", { timeout: 60_000 }, () => {
  before(async () => {
    harness = await startClusterHarness();
  });
  after(async () => {
    await harness[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("Client.get: returns what create stored", async () => {
    const name = unique("cm");
    const created = await harness.client.create<ConfigMap>(configMapsResource, {
      metadata: { name, namespace: "default" },
      data: { k: "v" },
    });
    const got = await harness.client.get<ConfigMap>(configMapsResource, "default", name);
    assert.deepEqual(got, created);
    assert.deepEqual([got.kind, got.apiVersion, got.data], ["ConfigMap", "v1", { k: "v" }]);
  });

  test("Client.get: a missing object is a 404 NotFound ApiError", async () => {
    const error = await rejection(harness.client.get(configMapsResource, "default", "missing"));
    assert.deepEqual(summary(error), [404, "NotFound", 'configmaps "missing" not found']);
  });

  test("Client.create: a taken name is a 409 AlreadyExists ApiError", async () => {
    const name = unique("cm");
    const object = { metadata: { name, namespace: "default" } };
    await harness.client.create(configMapsResource, object);
    const error = await rejection(harness.client.create(configMapsResource, object));
    assert.deepEqual(summary(error), [409, "AlreadyExists", `configmaps "${name}" already exists`]);
  });

  test("Client.create: dryRun validates but stores nothing", async () => {
    const name = unique("cm");
    const created = await harness.client.create(
      configMapsResource,
      { metadata: { name, namespace: "default" } },
      { dryRun: true },
    );
    assert.equal(created.metadata.name, name);
    const error = await rejection(harness.client.get(configMapsResource, "default", name));
    assert.equal(summary(error)[0], 404);
  });

  test("Client.create: fieldManager is recorded, else the user agent's first token", async () => {
    const explicit = await harness.client.create(
      configMapsResource,
      { metadata: { name: unique("cm"), namespace: "default" }, data: { k: "v" } },
      { fieldManager: "tester" },
    );
    const implicit = await harness.client.create(configMapsResource, {
      metadata: { name: unique("cm"), namespace: "default" },
      data: { k: "v" },
    });
    assert.deepEqual(
      [explicit, implicit].map((o) => o.metadata.managedFields?.map((f) => f.manager)),
      [["tester"], ["gantry"]],
    );
  });

  test("Client.update: writes the object and a stale resourceVersion is a 409 Conflict", async () => {
    const name = unique("cm");
    const created = await harness.client.create<ConfigMap>(configMapsResource, {
      metadata: { name, namespace: "default" },
      data: { k: "1" },
    });
    const updated = await harness.client.update<ConfigMap>(configMapsResource, {
      ...created,
      data: { k: "2" },
    });
    assert.equal(updated.data?.["k"], "2");
    assert.ok(
      Number(updated.metadata.resourceVersion) > Number(created.metadata.resourceVersion),
      "Number(updated.metadata.resourceVersion) > Number(created.metadata.resourceVersion)",
    );
    const error = await rejection(
      harness.client.update<ConfigMap>(configMapsResource, { ...created, data: { k: "3" } }),
    );
    assert.deepEqual(summary(error), [
      409,
      "Conflict",
      `Operation cannot be fulfilled on configmaps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    ]);
  });

  test("Client.updateStatus: changes status only, and update leaves status alone", async () => {
    const name = unique("node");
    const node = await harness.client.create<Node>(nodesResource, { metadata: { name } } as Node);
    const withStatus = await harness.client.updateStatus<Node>(nodesResource, {
      ...node,
      metadata: { ...node.metadata, labels: { kept: "yes" } },
      spec: { unschedulable: true },
      status: { capacity: { cpu: "4" } },
    });
    assert.deepEqual(withStatus.status?.capacity, { cpu: "4" });
    assert.equal(withStatus.spec?.unschedulable, undefined, "spec is not changed through status");
    const viaMain = await harness.client.update<Node>(nodesResource, {
      ...withStatus,
      status: { capacity: { cpu: "8" } },
    });
    assert.deepEqual(viaMain.status?.capacity, { cpu: "4" }, "status is not changed via update");
  });

  const patchCases: readonly {
    name: string;
    type: PatchType;
    body: unknown;
    want: Record<string, string>;
  }[] = [
    {
      name: "merge patch sets and removes labels",
      type: "merge",
      body: { metadata: { labels: { added: "1", base: null } } },
      want: { added: "1" },
    },
    {
      name: "strategic merge patch merges labels",
      type: "strategic",
      body: { metadata: { labels: { added: "1" } } },
      want: { base: "0", added: "1" },
    },
    {
      name: "json patch applies operations in order",
      type: "json",
      body: [
        { op: "add", path: "/metadata/labels/added", value: "1" },
        { op: "replace", path: "/metadata/labels/base", value: "changed" },
      ],
      want: { base: "changed", added: "1" },
    },
    {
      name: "apply patch merges the applied labels",
      type: "apply",
      body: { apiVersion: "v1", kind: "Node", metadata: { labels: { added: "1" } } },
      want: { base: "0", added: "1" },
    },
  ];
  for (const c of patchCases) {
    test(`Client.patch: ${c.name}`, async () => {
      const name = unique("node");
      await harness.client.create(nodesResource, { metadata: { name, labels: { base: "0" } } });
      const body =
        c.type === "apply"
          ? { ...(c.body as KubeObject), metadata: { name, labels: { added: "1" } } }
          : c.body;
      const patched = await harness.client.patch(nodesResource, undefined, name, c.type, body, {
        fieldManager: "patcher",
      });
      assert.deepEqual(patched.metadata.labels, c.want);
    });
  }

  test("Client.patch: apply conflicts are a 409 with causes, and force takes the field", async () => {
    const name = unique("node");
    const apply = (manager: string, value: string, force?: boolean) =>
      harness.client.patch<Node>(
        nodesResource,
        undefined,
        name,
        "apply",
        { apiVersion: "v1", kind: "Node", metadata: { name, labels: { owner: value } } },
        { fieldManager: manager, ...(force === undefined ? {} : { force }) },
      );
    await apply("first", "a");
    const error = await rejection(apply("second", "b"));
    assert.ok(error instanceof ApiError, "error instanceof ApiError");
    assert.deepEqual(
      [error.code, error.reason, error.details?.causes?.map((c) => c.field)],
      [409, "Conflict", [".metadata.labels.owner"]],
    );
    const forced = await apply("second", "b", true);
    assert.equal(forced.metadata.labels?.["owner"], "b");
  });

  test("Client.patch: status subresource patches status only", async () => {
    const name = unique("node");
    await harness.client.create(nodesResource, { metadata: { name } });
    const patched = await harness.client.patch<Node>(
      nodesResource,
      undefined,
      name,
      "merge",
      { spec: { unschedulable: true }, status: { capacity: { cpu: "2" } } },
      { subresource: "status" },
    );
    assert.deepEqual(
      [patched.spec?.unschedulable, patched.status?.capacity],
      [undefined, { cpu: "2" }],
    );
  });

  const preconditionCases = [
    { name: "a different uid", preconditions: (_o: KubeObject) => ({ uid: "other" }) },
    {
      name: "a stale resourceVersion",
      preconditions: (o: KubeObject) => ({
        resourceVersion: `${Number(o.metadata.resourceVersion) - 1}`,
      }),
    },
  ] as const;
  for (const c of preconditionCases) {
    test(`Client.delete: ${c.name} in preconditions is a 409 Conflict`, async () => {
      const name = unique("cm");
      const created = await harness.client.create(configMapsResource, {
        metadata: { name, namespace: "default" },
      });
      const error = await rejection(
        harness.client.delete(configMapsResource, "default", name, {
          preconditions: c.preconditions(created),
        }),
      );
      assert.deepEqual(summary(error).slice(0, 2), [409, "Conflict"]);
      assert.equal(
        (await harness.client.get(configMapsResource, "default", name)).metadata.uid,
        created.metadata.uid,
      );
    });
  }

  test("Client.delete: matching preconditions delete, resolving undefined", async () => {
    const name = unique("cm");
    const created = await harness.client.create(configMapsResource, {
      metadata: { name, namespace: "default" },
    });
    const result = await harness.client.delete(configMapsResource, "default", name, {
      preconditions: {
        uid: created.metadata.uid ?? "",
        resourceVersion: created.metadata.resourceVersion ?? "",
      },
    });
    assert.equal(result, undefined);
    assert.equal(
      summary(await rejection(harness.client.get(configMapsResource, "default", name)))[0],
      404,
    );
  });

  test("Client.delete: an object kept by a finalizer comes back with deletionTimestamp", async () => {
    const name = unique("cm");
    await harness.client.create(configMapsResource, {
      metadata: { name, namespace: "default", finalizers: ["example.com/keep"] },
    });
    const result = await harness.client.delete(configMapsResource, "default", name);
    assert.notEqual(result?.metadata.deletionTimestamp, undefined);
  });

  test("Client.createSubresource: pods/binding assigns the node once, then 409 Conflict", async () => {
    const name = unique("pod");
    await harness.client.create(podsResource, makePod(name));
    const binding = {
      apiVersion: "v1",
      kind: "Binding",
      metadata: { name, namespace: "default" },
      target: { apiVersion: "v1", kind: "Node", name: "n1" },
    };
    const status = await harness.client.createSubresource(
      podsResource,
      "default",
      name,
      "binding",
      binding,
    );
    assert.deepEqual([status["kind"], status["status"]], ["Status", "Success"]);
    const pod = await harness.client.get<Pod>(podsResource, "default", name);
    assert.equal(pod.spec.nodeName, "n1");
    const again = await rejection(
      harness.client.createSubresource(podsResource, "default", name, "binding", binding),
    );
    assert.deepEqual(summary(again).slice(0, 2), [409, "Conflict"]);
  });

  test("Client.createSubresource: pods/eviction of an unbound pod deletes it", async () => {
    const name = unique("pod");
    await harness.client.create(podsResource, makePod(name));
    const status = await harness.client.createSubresource(
      podsResource,
      "default",
      name,
      "eviction",
      {
        apiVersion: "policy/v1",
        kind: "Eviction",
        metadata: { name, namespace: "default" },
      },
    );
    assert.equal(status["status"], "Success");
    assert.equal(
      summary(await rejection(harness.client.get(podsResource, "default", name)))[0],
      404,
    );
  });

  test("Client.updateSubresource: PUT namespaces/NAME/finalize changes spec.finalizers, a stale one is 409", async () => {
    const name = unique("ns");
    const created = await harness.client.create<Namespace>(namespacesResource, {
      metadata: { name },
      spec: { finalizers: ["example.com/hold"] },
    });
    const finalized = await harness.client.updateSubresource<Namespace>(
      namespacesResource,
      undefined,
      name,
      "finalize",
      { ...created, spec: { finalizers: ["kubernetes"] } },
    );
    const stale = await rejection(
      harness.client.updateSubresource(namespacesResource, undefined, name, "finalize", created),
    );
    assert.deepEqual(
      {
        finalizers: finalized.spec?.finalizers,
        stored: (await harness.client.get<Namespace>(namespacesResource, undefined, name)).spec
          ?.finalizers,
        stale: summary(stale).slice(0, 2),
      },
      { finalizers: ["kubernetes"], stored: ["kubernetes"], stale: [409, "Conflict"] },
    );
  });

  test("Client.updateSubresource: PUT deployments/NAME/scale answers the Scale", async () => {
    const name = unique("deploy");
    await harness.client.create(deploymentsResource, {
      metadata: { name, namespace: "default" },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: "c", image: "busybox" }] },
        },
      },
    });
    const scale = await harness.client.updateSubresource(
      deploymentsResource,
      "default",
      name,
      "scale",
      {
        apiVersion: "autoscaling/v1",
        kind: "Scale",
        metadata: { name, namespace: "default" },
        spec: { replicas: 3 },
      },
    );
    const deployment = await harness.client.get<KubeObject & { spec: { replicas: number } }>(
      deploymentsResource,
      "default",
      name,
    );
    assert.deepEqual(
      [
        scale.kind,
        (scale as KubeObject & { spec: { replicas: number } }).spec.replicas,
        deployment.spec.replicas,
      ],
      ["Scale", 3, 3],
    );
  });

  test("Client.getSubresource: GET deployments/NAME/scale reads the Scale; a missing object is 404", async () => {
    const name = unique("deploy");
    const created = await harness.client.create(deploymentsResource, {
      metadata: { name, namespace: "default" },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: "c", image: "busybox" }] },
        },
      },
    });
    const scale = await harness.client.getSubresource<KubeObject & { spec: { replicas: number } }>(
      deploymentsResource,
      "default",
      name,
      "scale",
    );
    const missing = await rejection(
      harness.client.getSubresource(deploymentsResource, "default", unique("gone"), "scale"),
    );
    assert.deepEqual(
      [scale.kind, scale.metadata.uid, scale.spec.replicas, summary(missing)[0]],
      ["Scale", created.metadata.uid, 2, 404],
    );
  });

  test("Client.deleteCollection: deletes only what the selectors match", async () => {
    const app = unique("app");
    const cm = (name: string, labels: Record<string, string>): ConfigMap => ({
      metadata: { name, namespace: "default", labels },
    });
    await harness.client.create(configMapsResource, cm(`${app}-a`, { app, tier: "web" }));
    await harness.client.create(configMapsResource, cm(`${app}-b`, { app, tier: "db" }));
    await harness.client.create(configMapsResource, cm(`${app}-c`, { app, tier: "web" }));
    await harness.client.deleteCollection(configMapsResource, "default", {
      labelSelector: `app=${app},tier=web`,
      fieldSelector: `metadata.name!=${app}-c`,
    });
    const left = await harness.client.list(configMapsResource, "default", {
      labelSelector: `app=${app}`,
    });
    assert.deepEqual(left.items.map((item) => item.metadata.name).sort(), [`${app}-b`, `${app}-c`]);
  });

  test("Client.deleteCollection: a namespaced collection needs a namespace (TypeError, nothing sent)", async () => {
    await assert.rejects(harness.client.deleteCollection(configMapsResource, undefined), TypeError);
  });

  const scopeCases = [
    {
      name: "a namespaced get without a namespace",
      call: () => harness.client.get(podsResource, undefined, "p"),
    },
    {
      name: "a cluster-scoped get with a namespace",
      call: () => harness.client.get(nodesResource, "default", "n"),
    },
    {
      name: "a namespaced create without metadata.namespace",
      call: () => harness.client.create(configMapsResource, { metadata: { name: "x" } }),
    },
    { name: "an empty name", call: () => harness.client.delete(namespacesResource, undefined, "") },
  ];
  for (const c of scopeCases) {
    test(`Client: ${c.name} is a TypeError before any request`, async () => {
      assert.ok(
        (await rejection(c.call())) instanceof TypeError,
        "(await rejection(c.call())) instanceof TypeError",
      );
    });
  }

  test("Client.create: server warnings reach onWarning", async () => {
    const warnings: string[] = [];
    await using client = newClient({
      server: harness.url,
      userAgent: "gantry/test",
      onWarning: (w) => warnings.push(w),
    });
    await client.create(configMapsResource, {
      metadata: { name: unique("cm"), namespace: "default" },
      unknownField: 1,
    });
    assert.deepEqual(warnings, ['unknown field "unknownField"']);
  });

  test("Client.get: an aborted signal rejects with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    const error = await rejection(
      harness.client.get(configMapsResource, "default", "x", { signal: controller.signal }),
    );
    assert.equal(error, reason);
  });

  test("HttpClient.close: ends running watches and rejects later calls with TransportError", async () => {
    const client = newClient({ server: harness.url, userAgent: "gantry/test" });
    const seen: string[] = [];
    const watching = (async () => {
      for await (const event of client.watch(
        configMapsResource,
        "default",
        { resourceVersion: "0" },
        AbortSignal.timeout(5000),
      )) {
        seen.push(event.type);
        client.close();
      }
    })();
    const ended = await rejection(watching);
    assert.ok(ended instanceof TransportError, "ended instanceof TransportError");
    assert.ok(seen.length >= 1, "seen.length >= 1");
    const later = await rejection(client.get(configMapsResource, "default", "x"));
    assert.ok(later instanceof TransportError, "later instanceof TransportError");
    assert.equal(later.code, "ECLOSED");
  });
});

test("Client.get: an unreachable server is a retryable TransportError", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await using client = newClient({ server: `http://127.0.0.1:${port}`, userAgent: "gantry/test" });
  const error = await rejection(client.get(nodesResource, undefined, "n1"));
  assert.ok(error instanceof TransportError, "error instanceof TransportError");
  assert.deepEqual([error.code, error.retryable], ["ECONNREFUSED", true]);
});

/** Runs `body` with a client of a plain HTTP server answering with `handler`, then stops both. */
async function withPlainServer(
  handler: RequestListener,
  body: (client: Client) => Promise<void>,
): Promise<void> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await using client = newClient({
      server: `http://127.0.0.1:${port}`,
      userAgent: "gantry/test",
    });
    await body(client);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test("Client.get: one caller signal serves many requests, and aborting it stops those in flight", async () => {
  // Answers the first request, then holds every later one.
  let answered = 0;
  const handler: RequestListener = (_req, res) => {
    if (answered++ > 0) return;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ kind: "Node", apiVersion: "v1", metadata: { name: "n1" } }));
  };
  await withPlainServer(handler, async (client) => {
    const controller = new AbortController();
    const signal = controller.signal;
    const first = await client.get(nodesResource, undefined, "n1", { signal });
    assert.equal(first.metadata.name, "n1");
    const held = [1, 2, 3].map(() =>
      rejection(client.get(nodesResource, undefined, "n1", { signal })),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reason = new Error("component stopping");
    controller.abort(reason);
    assert.deepEqual(await Promise.all(held), [reason, reason, reason]);
  });
});

test("Client.get: a non-Status error body becomes an ApiError for its code", async () => {
  const handler: RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end("upstream down");
  };
  await withPlainServer(handler, async (client) => {
    const error = await rejection(client.get(nodesResource, undefined, "n1"));
    assert.deepEqual(summary(error), [
      503,
      "ServiceUnavailable",
      "the server is currently unable to handle the request",
    ]);
  });
});

test("newClient: over https the kubeconfig's CA and token work; without them the call fails", {
  timeout: 30_000,
}, async () => {
  await using secure = await startClusterHarness({ tls: true });
  assert.match(secure.url, /^https:/);
  const listed = await secure.client.list(namespacesResource, undefined);
  assert.ok(
    listed.items.some((ns) => ns.metadata.name === "default"),
    'listed.items.some((ns) => ns.metadata.name === "default")',
  );

  const config = loadKubeconfig(readFileSync(secure.kubeconfigPath, "utf8"));
  const ca = decodeCertificateAuthority(config.certificateAuthorityData ?? "");
  await using anonymous = newClient({ server: secure.url, ca, userAgent: "gantry/test" });
  assert.deepEqual(summary(await rejection(anonymous.list(namespacesResource, undefined))), [
    401,
    "Unauthorized",
    "Unauthorized",
  ]);

  await using untrusting = newClient({
    server: secure.url,
    userAgent: "gantry/test",
    ...(config.token === undefined ? {} : { token: config.token }),
  });
  const error = await rejection(untrusting.list(namespacesResource, undefined));
  assert.ok(error instanceof TransportError, "error instanceof TransportError");
  assert.equal(error.retryable, false, "a rejected certificate is not worth retrying");
});
