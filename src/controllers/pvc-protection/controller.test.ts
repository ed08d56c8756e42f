import assert from "node:assert/strict";
import { test } from "node:test";
import type { PersistentVolumeClaim, Pod } from "../../api/index.ts";
import {
  type Client,
  isNotFound,
  newInformerFactory,
  persistentVolumeClaimsResource,
  podsResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { claimNamesOf, newPvcProtectionController, podUsesClaim } from "./index.ts";

ensureNoLeaksInEachTest();

const pod = (
  name: string,
  volumes: NonNullable<Pod["spec"]>["volumes"],
  extra: { nodeName?: string; phase?: "Running" | "Succeeded" } = {},
): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default" },
  spec: {
    ...(extra.nodeName === undefined ? {} : { nodeName: extra.nodeName }),
    containers: [{ name: "c", image: "busybox" }],
    volumes: volumes ?? [],
  },
  ...(extra.phase === undefined ? {} : { status: { phase: extra.phase } }),
});

test("claimNamesOf and podUsesClaim: claim volumes and ephemeral volumes of scheduled, running pods", () => {
  const volumes = [
    { name: "data", persistentVolumeClaim: { claimName: "data" } },
    { name: "scratch", ephemeral: { volumeClaimTemplate: { spec: {} } } },
    { name: "tmp", emptyDir: {} },
  ];
  assert.deepEqual(claimNamesOf(pod("web", volumes)), ["data", "web-scratch"]);
  assert.equal(podUsesClaim(pod("web", volumes, { nodeName: "n" }), "data"), true);
  assert.equal(podUsesClaim(pod("web", volumes, { nodeName: "n" }), "web-scratch"), true);
  assert.equal(podUsesClaim(pod("web", volumes), "data"), false, "an unscheduled pod does not");
  assert.equal(
    podUsesClaim(pod("web", volumes, { nodeName: "n", phase: "Succeeded" }), "data"),
    false,
    "a terminated pod does not",
  );
  assert.equal(podUsesClaim(pod("web", volumes, { nodeName: "n" }), "other"), false);
});

test("pvc-protection: a claim in use waits for its pod, then goes", async () => {
  await using harness = await startClusterHarness();
  const client = harness.client as Client;
  const stop = new AbortController();
  const informers = newInformerFactory(client, { clock: systemClock });
  const controller = newPvcProtectionController({
    client,
    informers,
    clock: systemClock,
    logger: discardLogger,
  });
  const running = Promise.all([informers.start(stop.signal), controller.start(stop.signal)]);
  try {
    const created = await client.create<PersistentVolumeClaim>(persistentVolumeClaimsResource, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", namespace: "default" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    assert.deepEqual(created.metadata.finalizers, ["kubernetes.io/pvc-protection"]);
    await client.create<Pod>(
      podsResource,
      pod("user", [{ name: "data", persistentVolumeClaim: { claimName: "data" } }], {
        nodeName: "node-1",
      }),
    );
    await client.delete(persistentVolumeClaimsResource, "default", "data");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const held = await client.get<PersistentVolumeClaim>(
      persistentVolumeClaimsResource,
      "default",
      "data",
    );
    assert.ok(held.metadata.deletionTimestamp !== undefined, "the claim is being deleted");
    assert.deepEqual(held.metadata.finalizers, ["kubernetes.io/pvc-protection"], "but kept");
    await client.delete(podsResource, "default", "user", { gracePeriodSeconds: 0 });
    await eventually(async () => {
      try {
        await client.get(persistentVolumeClaimsResource, "default", "data");
        assert.fail("the claim still exists");
      } catch (error: unknown) {
        assert.ok(isNotFound(error), `the claim is gone, not ${String(error)}`);
      }
    });
  } finally {
    stop.abort();
    await running;
  }
});
