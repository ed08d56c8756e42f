import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ClusterHarness, startClusterHarness } from "../../testing/cluster-harness.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import {
  configMapsResource,
  namespacesResource,
  nodesResource,
  type ResourceRef,
} from "../client.ts";
import { newInformerFactory } from "./informer-factory.ts";

describe("InformerFactory", { timeout: 30_000 }, () => {
  let harness: ClusterHarness;
  before(async () => {
    harness = await startClusterHarness();
  });
  after(async () => {
    await harness[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  test("InformerFactory.forResource: one informer per resource and scope", () => {
    const factory = newInformerFactory(harness.client);
    const all = factory.forResource(configMapsResource);
    assert.equal(factory.forResource(configMapsResource), all);
    assert.equal(factory.forResource(configMapsResource, {}), all);
    const distinct = new Set([
      all,
      factory.forResource(configMapsResource, { namespace: "default" }),
      factory.forResource(configMapsResource, { labelSelector: "app=web" }),
      factory.forResource(configMapsResource, { fieldSelector: "metadata.name=x" }),
      factory.forResource(nodesResource),
    ]);
    assert.equal(distinct.size, 5);
  });

  test("InformerFactory.start: runs every informer, including ones asked for later, until abort", async () => {
    const factory = newInformerFactory(harness.client, { backoff: { initialMs: 10 } });
    const namespaces = factory.forResource(namespacesResource);
    const controller = new AbortController();
    const running = factory.start(controller.signal);
    const timeout = AbortSignal.timeout(10_000);
    try {
      assert.equal(await factory.waitForSync(timeout), true);
      assert.ok(
        namespaces.lister.get(undefined, "default") !== undefined,
        'namespaces.lister.get(undefined, "default") !== undefined',
      );
      const late = factory.forResource(nodesResource);
      assert.equal(await late.waitForSync(timeout), true);
      await assert.rejects(factory.start(controller.signal), TypeError);
    } finally {
      controller.abort();
      await running;
    }
  });

  test("InformerFactory.stop: stops an informer of a resource that is not served, and forgets it", async () => {
    const factory = newInformerFactory(harness.client, { backoff: { initialMs: 10 } });
    const missing: ResourceRef = {
      group: "gone.example.com",
      version: "v1",
      resource: "things",
      kind: "Thing",
      namespaced: true,
    };
    const namespaces = factory.forResource(namespacesResource);
    const retrying = factory.forResource(missing);
    const controller = new AbortController();
    const running = factory.start(controller.signal);
    const timeout = AbortSignal.timeout(10_000);
    try {
      assert.equal(await namespaces.waitForSync(timeout), true);
      // Resolves only once the informer, which keeps retrying its 404s, has stopped.
      await factory.stop(missing);
      await factory.stop(missing);
      assert.equal(await factory.waitForSync(timeout), true, "waitForSync no longer waits for it");
      const fresh = factory.forResource(missing);
      assert.ok(fresh !== retrying, "forResource hands out a new informer after stop");
      assert.equal(retrying.hasSynced(), false);
    } finally {
      controller.abort();
      await running;
    }
  });
});
