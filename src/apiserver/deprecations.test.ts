import assert from "node:assert/strict";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { startTestServer } from "./crd/test-fixtures.ts";
import { deprecationWarning } from "./deprecations.ts";

ensureNoLeaksInEachTest();

const endpointsWarning =
  '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';

test("deprecationWarning: v1 Endpoints, as kube-apiserver 1.33 says it; nothing for EndpointSlices or Services", () => {
  assert.equal(
    deprecationWarning("", "v1", "endpoints"),
    "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
  );
  assert.equal(deprecationWarning("discovery.k8s.io", "v1", "endpointslices"), undefined);
  assert.equal(deprecationWarning("", "v1", "services"), undefined);
});

test("every request for v1 Endpoints carries the deprecation warning (create, get, list, watch, delete), other resources none", async () => {
  await using server = await startTestServer();
  const base = "/api/v1/namespaces/default/endpoints";
  const created = await server.request("POST", base, {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "ext" },
    subsets: [{ addresses: [{ ip: "192.0.2.10" }], ports: [{ port: 80 }] }],
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get("warning"), endpointsWarning);
  for (const path of [`${base}/ext`, base, `${base}?watch=1&timeoutSeconds=1`]) {
    const reply = await server.request("GET", path);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get("warning"), endpointsWarning, path);
  }
  const missing = await server.request("GET", `${base}/none`);
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get("warning"), endpointsWarning, "errors carry it too");
  const deleted = await server.request("DELETE", `${base}/ext`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal(deleted.headers.get("warning"), endpointsWarning);
  const services = await server.request("GET", "/api/v1/namespaces/default/services");
  assert.equal(services.status, 200, services.text);
  assert.equal(services.headers.get("warning"), null);
});
