import assert from "node:assert/strict";
import { test } from "node:test";
import type { PersistentVolume } from "../../api/index.ts";
import {
  type Client,
  isNotFound,
  newInformerFactory,
  persistentVolumesResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newPvProtectionController } from "./index.ts";

ensureNoLeaksInEachTest();

test("pv-protection: a Bound volume is kept while deleting; once not Bound it goes", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client as Client;
  const stop = new AbortController();
  const informers = newInformerFactory(client, { clock: systemClock });
  const controller = newPvProtectionController({
    client,
    informers,
    clock: systemClock,
    logger: discardLogger,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  try {
    const created = await client.create<PersistentVolume>(persistentVolumesResource, {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "pv-1" },
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/data" },
      },
    });
    assert.deepEqual(created.metadata.finalizers, ["kubernetes.io/pv-protection"]);
    const bound = structuredClone(created);
    bound.status = { phase: "Bound" };
    await client.updateStatus(persistentVolumesResource, bound);
    await client.delete(persistentVolumesResource, undefined, "pv-1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const held = await client.get<PersistentVolume>(persistentVolumesResource, undefined, "pv-1");
    assert.ok(held.metadata.deletionTimestamp !== undefined, "the volume is being deleted");
    assert.deepEqual(held.metadata.finalizers, ["kubernetes.io/pv-protection"], "but kept");
    held.status = { phase: "Released" };
    await client.updateStatus(persistentVolumesResource, held);
    await eventually(async () => {
      try {
        await client.get(persistentVolumesResource, undefined, "pv-1");
        assert.fail("the volume still exists");
      } catch (error: unknown) {
        assert.ok(isNotFound(error), `the volume is gone, not ${String(error)}`);
      }
    });
  } finally {
    stop.abort();
    await running;
  }
});
