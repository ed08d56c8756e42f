import assert from "node:assert/strict";
import { test } from "node:test";
import type { EndpointSlice, Node, Pod, Service, ServiceSpec } from "../../api/index.ts";
import {
  type Client,
  endpointSlicesResource,
  newInformerFactory,
  nodesResource,
  podsResource,
  servicesResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newEndpointSliceController } from "./index.ts";

ensureNoLeaksInEachTest();

async function startEnv(maxEndpointsPerSlice?: number) {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "endpoint-slice-controller" },
  );
  const controller = newEndpointSliceController(
    { client: harness.client, informers, clock: systemClock, logger: discardLogger, events },
    maxEndpointsPerSlice === undefined ? {} : { maxEndpointsPerSlice },
  );
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  const client = harness.client as Client;
  return {
    client,
    async slices(service: string): Promise<EndpointSlice[]> {
      const list = await client.list<EndpointSlice>(endpointSlicesResource, "default", {
        labelSelector: `kubernetes.io/service-name=${service}`,
      });
      return list.items;
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

type Env = Awaited<ReturnType<typeof startEnv>>;

async function createService(env: Env, name: string, spec: ServiceSpec): Promise<Service> {
  return env.client.create<Service>(servicesResource, {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "default" },
    spec,
  });
}

async function createPod(env: Env, name: string, ip: string, ready = true): Promise<Pod> {
  const created = await env.client.create<Pod>(podsResource, {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", labels: { app: "web" } },
    spec: {
      nodeName: "node-1",
      containers: [{ name: "app", image: "nginx", ports: [{ name: "http", containerPort: 8080 }] }],
    },
  });
  created.status = {
    phase: "Running",
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [{ type: "Ready", status: ready ? "True" : "False" }],
  };
  return env.client.updateStatus<Pod>(podsResource, created);
}

test("endpointslice controller: one slice per Service, owned by it, with conditions and zones", async () => {
  await using env = await startEnv();
  await env.client.create<Node>(nodesResource, {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "node-1", labels: { "topology.kubernetes.io/zone": "zone-a" } },
  });
  await createPod(env, "web-1", "10.244.0.5");
  await createPod(env, "web-2", "10.244.0.6", false);
  const service = await createService(env, "web", {
    selector: { app: "web" },
    ports: [{ name: "http", port: 80, targetPort: "http" }],
  });
  const [slice] = await eventually(async () => {
    const slices = await env.slices("web");
    assert.equal(slices.length, 1, "one slice");
    assert.equal(slices[0]?.endpoints?.length, 2, "both pods are endpoints");
    return slices;
  });
  assert.ok(slice !== undefined, "the slice exists");
  assert.match(slice.metadata.name ?? "", /^web-[a-z0-9]{5}$/);
  assert.deepEqual(slice.metadata.labels, {
    "kubernetes.io/service-name": "web",
    "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
  });
  assert.deepEqual(slice.metadata.ownerReferences, [
    {
      apiVersion: "v1",
      kind: "Service",
      name: "web",
      uid: service.metadata.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
  assert.equal(slice.addressType, "IPv4");
  assert.deepEqual(slice.ports, [{ name: "http", port: 8080, protocol: "TCP" }]);
  assert.deepEqual(
    slice.endpoints?.map((e) => [
      e.addresses,
      e.conditions?.ready,
      e.conditions?.serving,
      e.zone,
      e.nodeName,
    ]),
    [
      [["10.244.0.5"], true, true, "zone-a", "node-1"],
      [["10.244.0.6"], false, false, "zone-a", "node-1"],
    ],
  );
  // Nothing changed since: the slice is not written again.
  await new Promise((r) => setTimeout(r, 300));
  const [again] = await env.slices("web");
  assert.equal(again?.metadata.resourceVersion, slice.metadata.resourceVersion, "not rewritten");
});

test("endpointslice controller: slices hold at most maxEndpointsPerSlice; an empty Service keeps a placeholder", async () => {
  await using env = await startEnv(2);
  for (let i = 1; i <= 5; i++) await createPod(env, `web-${i}`, `10.244.0.${i + 10}`);
  await createService(env, "web", {
    selector: { app: "web" },
    ports: [{ port: 80, targetPort: 8080 }],
  });
  await eventually(async () => {
    const slices = await env.slices("web");
    assert.deepEqual(
      slices.map((s) => s.endpoints?.length ?? 0).sort(),
      [1, 2, 2],
      "five endpoints in slices of two",
    );
  });
  await createService(env, "empty", { selector: { app: "none" }, ports: [{ port: 80 }] });
  const placeholder = await eventually(async () => {
    const slices = await env.slices("empty");
    assert.equal(slices.length, 1, "one placeholder slice");
    return slices[0];
  });
  assert.deepEqual(placeholder?.endpoints ?? [], []);
  assert.deepEqual(placeholder?.ports ?? [], []);
  // Nothing changes: the placeholder is not rewritten.
  await new Promise((r) => setTimeout(r, 300));
  const again = await env.slices("empty");
  assert.equal(again[0]?.metadata.resourceVersion, placeholder?.metadata.resourceVersion);
});

test("endpointslice controller: a deleted slice is made again; selectorless Services get none", async () => {
  await using env = await startEnv();
  await createPod(env, "web-1", "10.244.0.5");
  await createService(env, "web", {
    selector: { app: "web" },
    ports: [{ port: 80, targetPort: 8080 }],
  });
  await createService(env, "manual", { ports: [{ port: 80 }] });
  const first = await eventually(async () => {
    const slices = await env.slices("web");
    assert.equal(slices.length, 1, "one slice");
    return slices[0];
  });
  await env.client.delete(endpointSlicesResource, "default", first?.metadata.name ?? "");
  await eventually(async () => {
    const slices = await env.slices("web");
    assert.equal(slices.length, 1, "made again");
    assert.notEqual(slices[0]?.metadata.name, first?.metadata.name, "under a new name");
  });
  assert.deepEqual(await env.slices("manual"), []);
});
