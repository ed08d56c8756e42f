import assert from "node:assert/strict";
import { test } from "node:test";
import type { CustomResourceDefinition } from "../api/index.ts";
import { customResourceDefinitionsResource } from "../client/index.ts";
import { startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";

ensureNoLeaksInEachTest();

const clusterQueues = "clusterqueues.kueue.x-k8s.io";

test("bootstrap: gantry's CRDs are left unwritten when current, and brought back to gantry's spec when the stored one differs", async () => {
  await using harness = await startClusterHarness({ storage: "sqlite" });
  const read = () =>
    harness.client.get<CustomResourceDefinition>(
      customResourceDefinitionsResource,
      undefined,
      clusterQueues,
    );
  const installed = await read();
  const version = installed.spec.versions[0];
  assert.ok(version !== undefined, "the CRD has a version");
  assert.match(
    version.schema?.openAPIV3Schema?.properties?.["spec"]?.properties?.["cohort"]?.description ??
      "",
    /^cohort that this ClusterQueue belongs to/,
  );

  // A restart with nothing changed writes nothing.
  await harness.restart();
  const again = await read();
  assert.equal(again.metadata.resourceVersion, installed.metadata.resourceVersion);

  // A stored CRD from an older gantry (here: one without the printer columns and with another
  // description) is given this gantry's spec at the next start.
  const older = structuredClone(again);
  const olderVersion = older.spec.versions[0];
  assert.ok(olderVersion !== undefined, "the CRD has a version");
  delete olderVersion.additionalPrinterColumns;
  olderVersion.schema = {
    openAPIV3Schema: {
      ...olderVersion.schema?.openAPIV3Schema,
      description: "ClusterQueue is the Schema for the clusterqueue API",
    },
  };
  const written = await harness.client.update(customResourceDefinitionsResource, older);
  assert.notEqual(written.metadata.resourceVersion, again.metadata.resourceVersion);
  await harness.restart();
  const upgraded = await read();
  assert.deepEqual(upgraded.spec, installed.spec);
  assert.equal(upgraded.metadata.uid, installed.metadata.uid, "updated, not recreated");
});
