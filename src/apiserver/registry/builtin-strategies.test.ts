import assert from "node:assert/strict";
import { test } from "node:test";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { startTestServer } from "../crd/test-fixtures.ts";

ensureNoLeaksInEachTest();

const reportedStatus = {
  capacity: { cpu: "4", memory: "16Gi", pods: "110" },
  conditions: [{ type: "Ready", status: "True", reason: "KubeletReady" }],
};

test("node strategy: a create keeps the status a kubelet registers with", async () => {
  await using server = await startTestServer();
  const node = { apiVersion: "v1", kind: "Node", metadata: { name: "n1" }, status: reportedStatus };
  const created = await server.request("POST", "/api/v1/nodes", node);
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.status.capacity, reportedStatus.capacity);
  const read = await server.request("GET", "/api/v1/nodes/n1");
  assert.equal(read.body.status.conditions[0].reason, "KubeletReady");
});

test("pod strategy: a create replaces the given status with Pending", async () => {
  await using server = await startTestServer();
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p1", namespace: "default" },
    spec: { containers: [{ name: "c", image: "nginx" }] },
    status: { phase: "Running", podIP: "10.0.0.9" },
  };
  const created = await server.request("POST", "/api/v1/namespaces/default/pods", pod);
  assert.equal(created.status, 201);
  assert.deepEqual(created.body.status, { phase: "Pending", qosClass: "BestEffort" });
});

test("persistentvolume strategy: a new volume is Pending since its creation", async () => {
  await using server = await startTestServer();
  const pv = {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "pv-1" },
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: "/d" },
    },
    status: { phase: "Bound" },
  };
  const created = await server.request("POST", "/api/v1/persistentvolumes", pv);
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.status.phase, "Pending", "the given status is dropped");
  const since =
    Date.parse(created.body.status.lastPhaseTransitionTime) -
    Date.parse(created.body.metadata.creationTimestamp);
  assert.ok(since >= 0 && since <= 1000, `the phase dates from the creation (${since} ms later)`);
});

test("binding subresource: assigns an unbound pod without pod update validation, then 409", async () => {
  await using server = await startTestServer();
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p2", namespace: "default" },
    spec: { containers: [{ name: "c", image: "nginx" }] },
  };
  const created = await server.request("POST", "/api/v1/namespaces/default/pods", pod);
  assert.equal(created.status, 201);
  const binding = {
    apiVersion: "v1",
    kind: "Binding",
    metadata: { name: "p2" },
    target: { apiVersion: "v1", kind: "Node", name: "n1" },
  };
  const path = "/api/v1/namespaces/default/pods/p2/binding";
  const bound = await server.request("POST", path, binding);
  assert.equal(bound.status, 201, bound.text);
  const read = await server.request("GET", "/api/v1/namespaces/default/pods/p2");
  assert.equal(read.body.spec.nodeName, "n1");
  // As upstream's BindingREST, which writes storage directly: no managedFields entry for it.
  assert.deepEqual(read.body.metadata.managedFields, created.body.metadata.managedFields);
  const again = await server.request("POST", path, binding);
  assert.equal(again.status, 409);
  assert.equal(
    again.body.message,
    'Operation cannot be fulfilled on pods "p2": pod p2 is already assigned to node "n1"',
  );
});
