import assert from "node:assert/strict";
import { test } from "node:test";
import type { Endpoints, Pod, Service, ServiceSpec } from "../../api/index.ts";
import {
  type Client,
  endpointsResource,
  isNotFound,
  newInformerFactory,
  podsResource,
  servicesResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newEndpointsController } from "./index.ts";

ensureNoLeaksInEachTest();

/** The API server and the endpoints controller with its informers. */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "endpoint-controller" },
  );
  const controller = newEndpointsController({
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  const client = harness.client as Client;
  return {
    client,
    async endpoints(name: string): Promise<Endpoints | undefined> {
      try {
        return await client.get<Endpoints>(endpointsResource, "default", name);
      } catch (error: unknown) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
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

async function createService(env: Env, name: string, spec: ServiceSpec, labels = {}) {
  return env.client.create<Service>(servicesResource, {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: "default", labels },
    spec,
  });
}

/** A pod on node-1 with a named container port `http` 8080 (unless `named` is false). */
async function createPod(
  env: Env,
  name: string,
  state: { ip?: string; ready?: boolean; named?: boolean; labels?: Record<string, string> },
): Promise<Pod> {
  const created = await env.client.create<Pod>(podsResource, {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", labels: state.labels ?? { app: "web" } },
    spec: {
      nodeName: "node-1",
      containers: [
        {
          name: "app",
          image: "nginx",
          ports: state.named === false ? [] : [{ name: "http", containerPort: 8080 }],
        },
      ],
    },
  });
  if (state.ip === undefined) return created;
  created.status = {
    phase: "Running",
    podIP: state.ip,
    podIPs: [{ ip: state.ip }],
    conditions: [
      {
        type: "Ready",
        status: state.ready === false ? "False" : "True",
        lastTransitionTime: "2026-11-29T10:00:00Z",
      },
    ],
  };
  return env.client.updateStatus<Pod>(podsResource, created);
}

const httpPort = { port: 80, targetPort: "http" };

test("endpoints controller: ready and not-ready pods of a selector Service, ports resolved by name", async () => {
  await using env = await startEnv();
  const web1 = await createPod(env, "web-1", { ip: "10.244.0.5" });
  const web2 = await createPod(env, "web-2", { ip: "10.244.0.6", ready: false });
  await createPod(env, "web-3", { ip: "10.244.0.7", named: false });
  await createPod(env, "web-4", {});
  await createPod(env, "other", { ip: "10.244.0.8", labels: { app: "other" } });
  await createService(
    env,
    "web",
    { selector: { app: "web" }, ports: [httpPort] },
    { tier: "front" },
  );

  const got = await eventually(async () => {
    const ep = await env.endpoints("web");
    assert.ok(ep !== undefined, "the Endpoints exist");
    assert.equal(ep.subsets?.[0]?.notReadyAddresses?.length, 1, "the not-ready pod is listed");
    return ep;
  });
  assert.deepEqual(got.subsets, [
    {
      addresses: [
        {
          ip: "10.244.0.5",
          nodeName: "node-1",
          targetRef: { kind: "Pod", namespace: "default", name: "web-1", uid: web1.metadata.uid },
        },
      ],
      notReadyAddresses: [
        {
          ip: "10.244.0.6",
          nodeName: "node-1",
          targetRef: { kind: "Pod", namespace: "default", name: "web-2", uid: web2.metadata.uid },
        },
      ],
      ports: [{ name: "", port: 8080, protocol: "TCP" }],
    },
  ]);
  assert.deepEqual(got.metadata.labels, { tier: "front" });
  const trigger = got.metadata.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"];
  assert.ok(trigger !== undefined, "the last change trigger time is recorded");
  assert.equal(trigger, "2026-11-29T10:00:00Z");
});

test("endpoints controller: a pod turning ready moves, and nothing is written when nothing changed", async () => {
  await using env = await startEnv();
  const pod = await createPod(env, "web-1", { ip: "10.244.0.5", ready: false });
  await createService(env, "web", {
    selector: { app: "web" },
    ports: [{ port: 80, targetPort: 8080 }],
  });
  await eventually(async () => {
    const ep = await env.endpoints("web");
    assert.equal(ep?.subsets?.[0]?.notReadyAddresses?.[0]?.ip, "10.244.0.5", "listed not ready");
  });
  const ready = {
    ...pod,
    status: {
      ...pod.status,
      conditions: [
        { type: "Ready", status: "True" as const, lastTransitionTime: "2026-11-29T11:00:00Z" },
      ],
    },
  };
  const updated = await env.client.updateStatus<Pod>(podsResource, ready);
  const moved = await eventually(async () => {
    const ep = await env.endpoints("web");
    assert.equal(ep?.subsets?.[0]?.addresses?.[0]?.ip, "10.244.0.5", "listed ready");
    assert.equal(ep?.subsets?.[0]?.notReadyAddresses, undefined, "no longer not ready");
    return ep;
  });
  // An annotation on the pod changes nothing the Endpoints show: no write.
  await env.client.update<Pod>(podsResource, {
    ...updated,
    metadata: { ...updated.metadata, annotations: { note: "x" } },
  });
  await new Promise((r) => setTimeout(r, 300));
  const after = await env.endpoints("web");
  assert.equal(after?.metadata.resourceVersion, moved?.metadata.resourceVersion);
});

test("endpoints controller: terminating pods are left out unless publishNotReadyAddresses", async () => {
  await using env = await startEnv();
  const pod = await createPod(env, "web-1", { ip: "10.244.0.5" });
  await env.client.update<Pod>(podsResource, {
    ...pod,
    metadata: { ...pod.metadata, finalizers: ["example.com/hold"] },
  });
  await env.client.delete(podsResource, "default", "web-1");
  await createService(env, "web", { selector: { app: "web" }, ports: [httpPort] });
  await createService(env, "web-all", {
    selector: { app: "web" },
    ports: [httpPort],
    publishNotReadyAddresses: true,
  });
  await eventually(async () => {
    const all = await env.endpoints("web-all");
    assert.equal(
      all?.subsets?.[0]?.addresses?.[0]?.ip,
      "10.244.0.5",
      "published while terminating",
    );
    const web = await env.endpoints("web");
    assert.ok(web !== undefined, "the Endpoints exist");
    assert.equal(web.subsets, undefined, "the terminating pod is left out");
  });
  const held = await env.client.get<Pod>(podsResource, "default", "web-1");
  await env.client.update<Pod>(podsResource, {
    ...held,
    metadata: { ...held.metadata, finalizers: [] },
  });
});

test("endpoints controller: headless Services are labelled; selectorless ones are left alone; deleted ones lose their Endpoints", async () => {
  await using env = await startEnv();
  await createPod(env, "web-1", { ip: "10.244.0.5" });
  await createService(env, "web-headless", {
    selector: { app: "web" },
    clusterIP: "None",
    ports: [httpPort],
  });
  await createService(env, "external", { ports: [{ port: 443 }] });
  const headless = await eventually(async () => {
    const ep = await env.endpoints("web-headless");
    assert.ok(ep !== undefined, "the headless Service's Endpoints exist");
    return ep;
  });
  assert.deepEqual(headless.metadata.labels, { "service.kubernetes.io/headless": "" });
  assert.equal(await env.endpoints("external"), undefined, "a selectorless Service gets none");

  await env.client.delete(servicesResource, "default", "web-headless");
  await eventually(async () => {
    assert.equal(await env.endpoints("web-headless"), undefined, "deleted with the Service");
  });
});
