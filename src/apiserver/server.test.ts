import assert from "node:assert/strict";
import { connect } from "node:net";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { startTestServer } from "./crd/test-fixtures.ts";

ensureNoLeaksInEachTest();

/** Sends one raw HTTP/1.1 request and resolves with the whole answer. */
function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(head));
    let answer = "";
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer within 5 s")));
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

test("HttpHandler: a request target no URL parser accepts is a 400 Status, and serving goes on", async () => {
  await using server = await startTestServer();
  const answer = await rawRequest(
    server.url,
    "GET http://[/api HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
  );
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /"reason":"BadRequest"/);
  const after = await server.request("GET", "/api/v1/namespaces/default");
  assert.equal(after.status, 200);
});

test("HttpHandler: namespaces/NAME/status and /finalize address the namespace itself", async () => {
  await using server = await startTestServer();
  const status = await server.request("GET", "/api/v1/namespaces/default/status");
  assert.equal(status.status, 200, status.text);
  assert.equal(status.body.kind, "Namespace");
  assert.equal(status.body.metadata.name, "default");
  const finalize = await server.request("PUT", "/api/v1/namespaces/default/finalize", {
    ...status.body,
    spec: { finalizers: [] },
  });
  assert.equal(finalize.status, 200, finalize.text);
  assert.deepEqual(finalize.body.spec.finalizers ?? [], []);
});

test("HttpHandler: pods/status is validated as upstream's ValidatePodStatusUpdate (qosClass is immutable, backfilled when missing)", async () => {
  await using server = await startTestServer();
  const pods = "/api/v1/namespaces/default/pods";
  const created = await server.request("POST", pods, {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web" },
    spec: { containers: [{ name: "web", image: "nginx" }] },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.status.qosClass, "BestEffort", "the strategy set the QoS class");
  const running = await server.request("PUT", `${pods}/web/status`, {
    ...created.body,
    status: { ...created.body.status, phase: "Running", podIP: "10.0.0.5" },
  });
  assert.equal(running.status, 200, running.text);
  assert.equal(running.body.status.phase, "Running", "a status write goes through");
  const { qosClass: _, ...withoutQos } = running.body.status;
  const dropped = await server.request("PUT", `${pods}/web/status`, {
    ...running.body,
    status: { ...withoutQos, phase: "Running" },
  });
  assert.equal(dropped.status, 200, dropped.text);
  assert.equal(
    dropped.body.status.qosClass,
    "BestEffort",
    "a status without a QoS class keeps the stored one, as upstream's status strategy backfills it",
  );
  const changed = await server.request("PUT", `${pods}/web/status`, {
    ...dropped.body,
    status: { ...dropped.body.status, qosClass: "Guaranteed" },
  });
  assert.equal(changed.status, 422, changed.text);
  assert.match(
    changed.body.message,
    /^Pod "web" is invalid: status\.qosClass: Invalid value: "Guaranteed": field is immutable/,
    "upstream's message",
  );
});
