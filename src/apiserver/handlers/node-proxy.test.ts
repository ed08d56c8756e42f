import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { startTestServer } from "../crd/test-fixtures.ts";

ensureNoLeaksInEachTest();

function nodeAt(name: string, port: number, address = "127.0.0.1"): object {
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name },
    status: {
      addresses: [
        { type: "InternalIP", address },
        { type: "Hostname", address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
    },
  };
}

test("nodes/proxy: forwards GET to the kubelet with the node's name as Host", async () => {
  const kubelet = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ host: req.headers.host, url: req.url }));
  });
  await new Promise<void>((resolve) => kubelet.listen(0, "127.0.0.1", () => resolve()));
  try {
    await using server = await startTestServer();
    const port = (kubelet.address() as AddressInfo).port;
    assert.equal((await server.request("POST", "/api/v1/nodes", nodeAt("n1", port))).status, 201);
    const spec = await server.request("GET", "/api/v1/nodes/n1/proxy/spec/");
    assert.equal(spec.status, 200);
    assert.deepEqual(spec.body, { host: "n1", url: "/spec/" });
    const pods = await server.request("GET", "/api/v1/nodes/n1/proxy/pods?x=1");
    assert.deepEqual(pods.body, { host: "n1", url: "/pods?x=1" });
    const post = await server.request("POST", "/api/v1/nodes/n1/proxy/pods", {});
    assert.equal(post.status, 405);
  } finally {
    await new Promise<void>((resolve) => kubelet.close(() => resolve()));
  }
});

test("nodes/proxy: an unreachable kubelet is a 503 Status naming the address", async () => {
  // A port freed on 127.0.0.2: the other tests listen on 127.0.0.1, so none of them can take it
  // meanwhile (on 127.0.0.1 a concurrent test did, and answered 404).
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.2", () => resolve()));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await using server = await startTestServer();
  await server.request("POST", "/api/v1/nodes", nodeAt("n2", port, "127.0.0.2"));
  const reply = await server.request("GET", "/api/v1/nodes/n2/proxy/spec/");
  assert.equal(reply.status, 503);
  assert.equal(reply.body.kind, "Status");
  assert.equal(
    reply.body.message,
    `error trying to reach service: dial tcp 127.0.0.2:${port}: connect: connection refused`,
  );
  const missing = await server.request("GET", "/api/v1/nodes/none/proxy/spec/");
  assert.equal(missing.status, 404);
});
