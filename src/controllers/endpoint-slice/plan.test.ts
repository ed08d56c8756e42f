import assert from "node:assert/strict";
import { test } from "node:test";
import type { EndpointSlice, Node, Pod, Service } from "../../api/index.ts";
import { planEndpointSlices, slicePrefix } from "./plan.ts";

const service: Service = {
  metadata: { name: "web", namespace: "default", uid: "svc-uid", labels: { tier: "front" } },
  spec: {
    selector: { app: "web" },
    clusterIP: "10.96.0.20",
    ports: [{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }],
  },
};

const pod = (
  i: number,
  extra: { ready?: boolean; terminating?: boolean; named?: boolean } = {},
): Pod => ({
  metadata: {
    name: `web-${String(i).padStart(3, "0")}`,
    namespace: "default",
    uid: `uid-${i}`,
    ...(extra.terminating === true ? { deletionTimestamp: "2026-11-29T12:00:00Z" } : {}),
  },
  spec: {
    nodeName: "node-1",
    containers: [
      {
        name: "c",
        image: "i",
        ports: extra.named === false ? [] : [{ name: "http", containerPort: 8080 }],
      },
    ],
  },
  status: {
    phase: "Running",
    podIP: `10.244.${Math.floor(i / 200)}.${(i % 200) + 1}`,
    conditions: [{ type: "Ready", status: extra.ready === false ? "False" : "True" }],
  },
});

const zoned: Node = {
  metadata: { name: "node-1", labels: { "topology.kubernetes.io/zone": "zone-a" } },
};
const nodeOf = (name: string) => (name === "node-1" ? zoned : undefined);

const labels = {
  tier: "front",
  "kubernetes.io/service-name": "web",
  "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
};

test("planEndpointSlices: a new Service's pods become one slice with conditions, zone and an owner", () => {
  const plan = planEndpointSlices(
    service,
    [pod(1), pod(2, { ready: false }), pod(3, { terminating: true })],
    nodeOf,
    [],
  );
  assert.equal(plan.update.length, 0);
  assert.equal(plan.delete.length, 0);
  assert.equal(plan.create.length, 1);
  const slice = plan.create[0] as EndpointSlice;
  assert.deepEqual(slice.metadata, {
    generateName: "web-",
    namespace: "default",
    labels,
    ownerReferences: [
      {
        apiVersion: "v1",
        kind: "Service",
        name: "web",
        uid: "svc-uid",
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  });
  assert.equal(slice.addressType, "IPv4");
  assert.deepEqual(slice.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
  assert.deepEqual(
    (slice.endpoints ?? []).map((e) => [
      e.addresses[0],
      e.conditions,
      e.nodeName,
      e.zone,
      e.targetRef?.name,
    ]),
    [
      [
        "10.244.0.2",
        { ready: true, serving: true, terminating: false },
        "node-1",
        "zone-a",
        "web-001",
      ],
      [
        "10.244.0.3",
        { ready: false, serving: false, terminating: false },
        "node-1",
        "zone-a",
        "web-002",
      ],
      [
        "10.244.0.4",
        { ready: false, serving: true, terminating: true },
        "node-1",
        "zone-a",
        "web-003",
      ],
    ],
  );
});

test("planEndpointSlices: 250 pods make slices of at most 100 endpoints", () => {
  const pods = Array.from({ length: 250 }, (_, i) => pod(i));
  const plan = planEndpointSlices(service, pods, nodeOf, []);
  assert.deepEqual(
    plan.create.map((s) => s.endpoints?.length),
    [100, 100, 50],
  );
});

test("planEndpointSlices: pods without the named port go to their own slice without that port", () => {
  const plan = planEndpointSlices(service, [pod(1), pod(2, { named: false })], nodeOf, []);
  assert.deepEqual(
    plan.create.map((s) => [s.ports, s.endpoints?.length]),
    [
      [[{ name: "http", port: 8080, protocol: "TCP" }], 1],
      [[], 1],
    ],
  );
});

/** What the server would store for a planned slice. */
const stored = (slice: EndpointSlice, name: string): EndpointSlice => ({
  ...slice,
  metadata: { ...slice.metadata, name, generation: 1, resourceVersion: "1" },
});

test("planEndpointSlices: an up-to-date slice needs nothing; a gone pod updates it; no pods leave a placeholder", () => {
  const first = planEndpointSlices(service, [pod(1), pod(2)], nodeOf, []);
  const existing = stored(first.create[0] as EndpointSlice, "web-abcde");
  assert.deepEqual(planEndpointSlices(service, [pod(1), pod(2)], nodeOf, [existing]), {
    create: [],
    update: [],
    delete: [],
  });
  const shrunk = planEndpointSlices(service, [pod(2)], nodeOf, [existing]);
  assert.deepEqual(
    shrunk.update.map((s) => s.endpoints?.map((e) => e.targetRef?.name)),
    [["web-002"]],
  );

  // No pods: the slice is recycled as the placeholder (no endpoints, no ports).
  const emptied = planEndpointSlices(service, [], nodeOf, [existing]);
  assert.equal(emptied.create.length, 0);
  assert.equal(emptied.delete.length, 0);
  assert.deepEqual(
    emptied.update.map((s) => [s.metadata.name, s.endpoints, s.ports]),
    [["web-abcde", [], []]],
  );
  const placeholder = stored(emptied.update[0] as EndpointSlice, "web-abcde");
  assert.deepEqual(planEndpointSlices(service, [], nodeOf, [placeholder]), {
    create: [],
    update: [],
    delete: [],
  });
});

test("planEndpointSlices: a Service label change updates its slices; headless Services are labelled", () => {
  const existing = stored(
    planEndpointSlices(service, [pod(1)], nodeOf, []).create[0] as EndpointSlice,
    "web-x",
  );
  const relabelled = { ...service, metadata: { ...service.metadata, labels: { tier: "back" } } };
  const plan = planEndpointSlices(relabelled, [pod(1)], nodeOf, [existing]);
  assert.equal(plan.update[0]?.metadata.labels?.["tier"], "back");
  const headless = { ...service, spec: { ...service.spec, clusterIP: "None" } };
  const made = planEndpointSlices(headless, [pod(1)], nodeOf, []).create[0];
  assert.equal(made?.metadata.labels?.["service.kubernetes.io/headless"], "");
});

test("planEndpointSlices: a slice another Service owns is deleted", () => {
  const existing = stored(
    planEndpointSlices(service, [pod(1)], nodeOf, []).create[0] as EndpointSlice,
    "web-x",
  );
  const recreated = { ...service, metadata: { ...service.metadata, uid: "new-uid" } };
  const plan = planEndpointSlices(recreated, [pod(1)], nodeOf, [existing]);
  // Recycled: the old slice becomes the new Service's, under its name.
  assert.deepEqual(
    plan.update.map((s) => [s.metadata.name, s.metadata.ownerReferences?.[0]?.uid]),
    [["web-x", "new-uid"]],
  );
  assert.equal(plan.create.length, 0);
  assert.equal(plan.delete.length, 0);
});

test("slicePrefix: the Service name and a dash", () => {
  assert.equal(slicePrefix("web"), "web-");
});
