import assert from "node:assert/strict";
import { test } from "node:test";
import type { EndpointSlice, Endpoints, Service } from "../api/index.ts";
import { endpointSlicesResource, endpointsResource, servicesResource } from "../client/index.ts";
import { startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import {
  endpointAddressFor,
  kubernetesEndpointSlice,
  kubernetesService,
  kubernetesSubsets,
} from "./kubernetes-service.ts";

ensureNoLeaksInEachTest();

const nic = (address: string, internal: boolean) => ({
  address,
  netmask: "255.255.255.0",
  family: "IPv4" as const,
  mac: "00:00:00:00:00:00",
  internal,
  cidr: `${address}/24`,
});

test("endpointAddressFor: an advertised pod-network address is used as it is", () => {
  assert.equal(endpointAddressFor("192.168.1.10", {}), "192.168.1.10");
});

test("endpointAddressFor: loopback and unspecified hosts fall back to the first external IPv4 interface", () => {
  const interfaces = { lo: [nic("127.0.0.1", true)], eth0: [nic("10.1.2.3", false)] };
  assert.equal(endpointAddressFor("127.0.0.1", interfaces), "10.1.2.3");
  assert.equal(endpointAddressFor("0.0.0.0", interfaces), "10.1.2.3");
  assert.equal(endpointAddressFor("localhost", { lo: [nic("127.0.0.1", true)] }), undefined);
});

test("kubernetesService: upstream's shape", () => {
  assert.deepEqual(kubernetesService(6443).spec, {
    ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }],
    clusterIP: "10.96.0.1",
    sessionAffinity: "None",
    type: "ClusterIP",
  });
  assert.deepEqual(kubernetesService(6443).metadata.labels, {
    component: "apiserver",
    provider: "kubernetes",
  });
});

test("kubernetesSubsets: each API server adds its address; one per port; the last is never removed", () => {
  const a = { ip: "10.0.0.2", port: 6443 };
  const b = { ip: "10.0.0.1", port: 6443 };
  const c = { ip: "10.0.0.1", port: 7443 };
  const one = kubernetesSubsets(undefined, a, true);
  const two: Endpoints = {
    metadata: {},
    subsets: kubernetesSubsets({ metadata: {}, subsets: one ?? [] }, b, true) ?? [],
  };
  assert.deepEqual(two.subsets, [
    {
      addresses: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }],
      ports: [{ name: "https", port: 6443, protocol: "TCP" }],
    },
  ]);
  assert.deepEqual(
    kubernetesSubsets(two, c, true)?.map((s) => s.ports?.[0]?.port),
    [6443, 7443],
  );
  assert.deepEqual(kubernetesSubsets(two, a, false), [
    { addresses: [{ ip: "10.0.0.1" }], ports: [{ name: "https", port: 6443, protocol: "TCP" }] },
  ]);
  assert.equal(kubernetesSubsets({ metadata: {}, subsets: one ?? [] }, a, false), undefined);
});

test("kubernetesEndpointSlice: the first subset as upstream's EndpointsAdapter writes it", () => {
  const slice = kubernetesEndpointSlice([
    { addresses: [{ ip: "10.0.0.1" }], ports: [{ name: "https", port: 6443, protocol: "TCP" }] },
  ]);
  assert.deepEqual(slice.metadata, {
    name: "kubernetes",
    namespace: "default",
    labels: { "kubernetes.io/service-name": "kubernetes" },
  });
  assert.deepEqual(slice.endpoints, [{ addresses: ["10.0.0.1"], conditions: { ready: true } }]);
  assert.deepEqual(slice.ports, [{ name: "https", port: 6443, protocol: "TCP" }]);
});

test("startAllInOne: the kubernetes Service, its Endpoints and EndpointSlice exist once the server serves", async (t) => {
  await using harness = await startClusterHarness();
  const port = Number(new URL(harness.url).port);
  const service = await harness.client.get<Service>(servicesResource, "default", "kubernetes");
  assert.equal(service.spec?.clusterIP, "10.96.0.1");
  assert.deepEqual(service.spec?.ports, [
    { name: "https", port: 443, protocol: "TCP", targetPort: port },
  ]);
  const expected = endpointAddressFor("127.0.0.1");
  if (expected === undefined) {
    t.skip("this machine has no external IPv4 address for the endpoints");
    return;
  }
  const endpoints = await harness.client.get<Endpoints>(endpointsResource, "default", "kubernetes");
  assert.deepEqual(endpoints.subsets, [
    { addresses: [{ ip: expected }], ports: [{ name: "https", port, protocol: "TCP" }] },
  ]);
  assert.equal(endpoints.metadata.labels?.["endpointslice.kubernetes.io/skip-mirror"], "true");
  const slice = await harness.client.get<EndpointSlice>(
    endpointSlicesResource,
    "default",
    "kubernetes",
  );
  assert.deepEqual(slice.endpoints, [{ addresses: [expected], conditions: { ready: true } }]);
});
