import assert from "node:assert/strict";
import { test } from "node:test";
import type { Pod } from "../api/index.ts";
import { podsResource } from "../client/index.ts";
import { startClusterHarness } from "../testing/index.ts";
import { withoutManagedFields } from "./write-body.ts";

test("withoutManagedFields: drops only metadata.managedFields, leaving the object alone", () => {
  const pod = {
    metadata: {
      name: "p",
      labels: { a: "b" },
      managedFields: [{ manager: "m", operation: "Update" }],
    },
    spec: { containers: [] },
  };
  const body = withoutManagedFields(pod);
  assert.deepEqual(body, { metadata: { name: "p", labels: { a: "b" } }, spec: { containers: [] } });
  assert.equal(pod.metadata.managedFields.length, 1, "the cached object keeps its fields");
  const bare = { metadata: { name: "q" } };
  assert.equal(withoutManagedFields(bare), bare, "nothing to drop: the same object");
});

test("an update without managedFields keeps the stored ones and adds the updater's", async () => {
  await using harness = await startClusterHarness();
  const user = harness.newClient("user");
  const kueue = harness.newClient("kueue");
  const created = await user.create<Pod>(podsResource, {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default" },
    spec: {
      schedulingGates: [{ name: "kueue.x-k8s.io/admission" }],
      containers: [{ name: "c", image: "pause" }],
    },
  } as Pod);
  const ungated = structuredClone(created);
  ungated.metadata.labels = { "kueue.x-k8s.io/podset": "main" };
  delete ungated.spec.schedulingGates;
  const written = await kueue.update<Pod>(podsResource, withoutManagedFields(ungated));
  const managers = (written.metadata.managedFields ?? []).map((m) => m.manager).sort();
  assert.deepEqual(managers, ["kueue", "user"]);
  const own = written.metadata.managedFields?.find((m) => m.manager === "kueue");
  assert.deepEqual(own?.fieldsV1, {
    "f:metadata": { "f:labels": { ".": {}, "f:kueue.x-k8s.io/podset": {} } },
  });
});
