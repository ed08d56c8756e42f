import assert from "node:assert/strict";
import { test } from "node:test";
import type {
  ConfigMap,
  CustomResourceDefinition,
  Event,
  KubeObject,
  OwnerReference,
} from "../../api/index.ts";
import {
  type Client,
  configMapsResource,
  customResourceDefinitionsResource,
  eventsResource,
  isNotFound,
  namespacesResource,
  newInformerFactory,
  type ResourceRef,
} from "../../client/index.ts";
import { componentLifetime, eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock, systemRandom } from "../../util/index.ts";
import { newControllerManager } from "../index.ts";

ensureNoLeaksInEachTest();

async function startEnv() {
  const harness = await startClusterHarness();
  const stop = componentLifetime();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const manager = newControllerManager(
    {
      client: harness.client,
      informers,
      clock: systemClock,
      random: systemRandom,
      logger: discardLogger,
    },
    { controllers: ["garbagecollector"] },
  );
  const running = Promise.all([informers.start(stop.signal), manager.start(stop.signal)]);
  return {
    client: harness.client as Client,
    informers,
    manager,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await harness[Symbol.asyncDispose]();
    },
  };
}

/** The object, or undefined once it is gone. */
async function find(client: Client, resource: ResourceRef, name: string) {
  try {
    return await client.get<KubeObject>(
      resource,
      resource.namespaced ? "default" : undefined,
      name,
    );
  } catch (error: unknown) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

const refTo = (owner: KubeObject, block = false): OwnerReference => ({
  apiVersion: owner.apiVersion ?? "v1",
  kind: owner.kind ?? "ConfigMap",
  name: owner.metadata.name ?? "",
  uid: owner.metadata.uid ?? "",
  ...(block ? { blockOwnerDeletion: true } : {}),
});

function configMap(
  name: string,
  owners: OwnerReference[] = [],
  finalizers: string[] = [],
): ConfigMap {
  const cm: ConfigMap = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "default" },
  };
  if (owners.length > 0) cm.metadata.ownerReferences = owners;
  if (finalizers.length > 0) cm.metadata.finalizers = finalizers;
  return cm;
}

const create = (client: Client, cm: ConfigMap) => client.create<ConfigMap>(configMapsResource, cm);

test("GarbageCollector: background deletion removes dependents whose owners are gone", async () => {
  await using env = await startEnv();
  const owner = await create(env.client, configMap("owner"));
  const other = await create(env.client, configMap("other"));
  await create(env.client, configMap("only-child", [refTo(owner)]));
  await create(env.client, configMap("two-parents", [refTo(owner), refTo(other)]));
  await env.client.delete(configMapsResource, "default", "owner");
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "only-child"), undefined);
    const kept = await find(env.client, configMapsResource, "two-parents");
    assert.deepEqual(kept?.metadata.ownerReferences, [refTo(other)]);
  });
});

test("GarbageCollector: an owner recreated with the same name does not keep old dependents", async () => {
  await using env = await startEnv();
  const first = await create(env.client, configMap("owner"));
  await env.client.delete(configMapsResource, "default", "owner");
  const second = await create(env.client, configMap("owner"));
  await create(env.client, configMap("stale", [refTo(first)]));
  await create(env.client, configMap("current", [refTo(second)]));
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "stale"), undefined);
  });
  const current = await find(env.client, configMapsResource, "current");
  const owner = await find(env.client, configMapsResource, "owner");
  assert.deepEqual(
    { current: current?.metadata.name, owner: owner?.metadata.uid },
    { current: "current", owner: second.metadata.uid },
  );
});

test("GarbageCollector: foreground deletion waits for blocking dependents only", async () => {
  await using env = await startEnv();
  const owner = await create(env.client, configMap("owner"));
  // The blocking dependent cannot go before its own finalizer is removed.
  await create(env.client, configMap("blocking", [refTo(owner, true)], ["example.com/hold"]));
  await create(env.client, configMap("plain", [refTo(owner)]));
  await env.client.delete(configMapsResource, "default", "owner", {
    propagationPolicy: "Foreground",
  });
  const waiting = await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "plain"), undefined);
    const blocking = await find(env.client, configMapsResource, "blocking");
    assert.notEqual(blocking?.metadata.deletionTimestamp, undefined);
    const got = await find(env.client, configMapsResource, "owner");
    assert.ok(got !== undefined, "got !== undefined");
    return got;
  });
  assert.deepEqual(waiting.metadata.finalizers, ["foregroundDeletion"]);
  await env.client.patch(configMapsResource, "default", "blocking", "merge", {
    metadata: { finalizers: null },
  });
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "blocking"), undefined);
    assert.equal(await find(env.client, configMapsResource, "owner"), undefined);
  });
});

test("GarbageCollector: foreground deletion of an owner without dependents releases it at once", async () => {
  await using env = await startEnv();
  await create(env.client, configMap("lonely"));
  await env.client.delete(configMapsResource, "default", "lonely", {
    propagationPolicy: "Foreground",
  });
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "lonely"), undefined);
  });
});

test("GarbageCollector: orphan deletion keeps dependents and removes their owner references", async () => {
  await using env = await startEnv();
  const owner = await create(env.client, configMap("owner"));
  const other = await create(env.client, configMap("other"));
  await create(env.client, configMap("a", [refTo(owner, true)]));
  await create(env.client, configMap("b", [refTo(owner), refTo(other)]));
  await env.client.delete(configMapsResource, "default", "owner", { propagationPolicy: "Orphan" });
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "owner"), undefined);
  });
  const a = await find(env.client, configMapsResource, "a");
  const b = await find(env.client, configMapsResource, "b");
  assert.deepEqual(
    { a: a?.metadata.ownerReferences, b: b?.metadata.ownerReferences },
    { a: undefined, b: [refTo(other)] },
  );
});

const widgetCrd: CustomResourceDefinition = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
      },
    ],
  },
};

test("GarbageCollector: custom resources are collected once their CRD appears", async () => {
  await using env = await startEnv();
  await env.client.create(customResourceDefinitionsResource, widgetCrd);
  const widgets: ResourceRef = {
    group: "example.com",
    version: "v1",
    resource: "widgets",
    kind: "Widget",
    namespaced: true,
  };
  const owner = await create(env.client, configMap("owner"));
  const widget = await eventually(() =>
    env.client.create<KubeObject>(widgets, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", namespace: "default", ownerReferences: [refTo(owner)] },
    }),
  );
  await create(env.client, configMap("of-widget", [refTo(widget)]));
  await env.client.delete(configMapsResource, "default", "owner");
  await eventually(async () => {
    assert.equal(await find(env.client, widgets, "w"), undefined);
    assert.equal(await find(env.client, configMapsResource, "of-widget"), undefined);
  });
});

test("GarbageCollector: stops watching a custom resource once its CRD is deleted", async () => {
  await using env = await startEnv();
  await env.client.create(customResourceDefinitionsResource, widgetCrd);
  const widgets: ResourceRef = {
    group: "example.com",
    version: "v1",
    resource: "widgets",
    kind: "Widget",
    namespaced: true,
  };
  // The collector watches widgets once it collects one whose owner is gone.
  const owner = await create(env.client, configMap("owner"));
  await eventually(() =>
    env.client.create<KubeObject>(widgets, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", namespace: "default", ownerReferences: [refTo(owner)] },
    }),
  );
  await env.client.delete(configMapsResource, "default", "owner");
  await eventually(async () => assert.equal(await find(env.client, widgets, "w"), undefined));
  const watching = env.informers.forResource(widgets);
  await env.client.delete(
    customResourceDefinitionsResource,
    undefined,
    widgetCrd.metadata.name ?? "",
  );
  // Stopped and forgotten by the collector: the factory hands out a new informer.
  await eventually(() =>
    assert.ok(
      env.informers.forResource(widgets) !== watching,
      "the collector stopped the widgets informer",
    ),
  );
});

test("GarbageCollector: an owner in another namespace counts as absent and is reported", async () => {
  await using env = await startEnv();
  await env.client.create(namespacesResource, { metadata: { name: "other" } });
  const owner = await create(env.client, {
    ...configMap("owner"),
    metadata: { name: "owner", namespace: "other" },
  });
  const dependent = await create(env.client, configMap("cross", [refTo(owner)]));
  await eventually(async () => {
    assert.equal(await find(env.client, configMapsResource, "cross"), undefined);
  });
  await env.manager.flushEvents();
  const events = (await env.client.list<Event>(eventsResource, "default")).items.filter(
    (e) => e.reason === "OwnerRefInvalidNamespace",
  );
  assert.deepEqual(
    events.map((e) => [e.type, e.involvedObject.name, e.involvedObject.uid, e.message]),
    [
      [
        "Warning",
        "cross",
        dependent.metadata.uid,
        `ownerRef [v1/ConfigMap, namespace: default, name: owner, uid: ${owner.metadata.uid}] does not exist in namespace "default"`,
      ],
    ],
  );
  const kept = await env.client.get(configMapsResource, "other", "owner");
  assert.equal(kept.metadata.uid, owner.metadata.uid);
});
