import assert from "node:assert/strict";
import { test } from "node:test";
import type { KueueWorkload, Pod, ResourceFlavor } from "../api/index.ts";
import { isConflict, type Lister, podsResource } from "../client/index.ts";
import { makeKueueWorkload, startClusterHarness } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { ungatedPod, ungatePod } from "./pod-integration/writes.ts";
import { kueueWorkloadsResource } from "./resources.ts";
import { mergePatchOf, statusOnly, withoutManagedFields } from "./write-body.ts";

ensureNoLeaksInEachTest();

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

test("mergePatchOf: changed and added fields, removed ones as null, arrays whole", () => {
  const before = {
    metadata: { name: "p", labels: { a: "1", gone: "x" }, resourceVersion: "7" },
    spec: { gates: [{ name: "g1" }, { name: "g2" }], nodeSelector: { zone: "a" } },
  };
  const after = {
    metadata: { name: "p", labels: { a: "1", b: "2" }, resourceVersion: "7" },
    spec: { gates: [{ name: "g2" }], nodeSelector: { zone: "a" } },
  };
  assert.deepEqual(mergePatchOf(before, after), {
    metadata: { labels: { b: "2", gone: null } },
    spec: { gates: [{ name: "g2" }] },
  });
  assert.equal(mergePatchOf(before, structuredClone(before)), undefined, "equal: no patch");
  assert.deepEqual(
    mergePatchOf({ spec: { gates: [{ name: "g" }] } }, { spec: {} }),
    { spec: { gates: null } },
    "a field left out is removed",
  );
});

test("statusOnly: the identity, labels, annotations and status, nothing else", () => {
  const workload = {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "Workload",
    metadata: {
      name: "w",
      namespace: "ns",
      uid: "u",
      resourceVersion: "9",
      labels: { l: "v" },
      finalizers: ["f"],
      ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "pu" }],
      managedFields: [{ manager: "m" }],
    },
    spec: { queueName: "q", podSets: [{ name: "main", count: 1 }] },
    status: { conditions: [{ type: "QuotaReserved", status: "True" }] },
  };
  const copy = structuredClone(workload);
  assert.deepEqual(statusOnly(workload), {
    apiVersion: "kueue.x-k8s.io/v1beta1",
    kind: "Workload",
    metadata: { name: "w", namespace: "ns", uid: "u", resourceVersion: "9", labels: { l: "v" } },
    status: { conditions: [{ type: "QuotaReserved", status: "True" }] },
  });
  assert.deepEqual(workload, copy, "the object itself is left alone");
});

/** A flavor lister over fixed flavors. */
function flavorLister(flavors: ResourceFlavor[]): Lister<ResourceFlavor> {
  return {
    get: (_ns: string | undefined, name: string) => flavors.find((f) => f.metadata.name === name),
    list: () => flavors,
  } as unknown as Lister<ResourceFlavor>;
}

test("ungatePod: a merge patch leaves the pod a PUT of ungatedPod leaves, and conflicts when stale", async () => {
  await using harness = await startClusterHarness();
  const user = harness.newClient("user");
  const kueue = harness.newClient("kueue");
  const gated = (name: string): Pod =>
    ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: "default", labels: { app: "x" } },
      spec: {
        schedulingGates: [{ name: "kueue.x-k8s.io/admission" }, { name: "other" }],
        nodeSelector: { disk: "ssd" },
        tolerations: [{ key: "a", operator: "Exists" }],
        containers: [{ name: "c", image: "pause" }],
      },
    }) as Pod;
  const flavors = flavorLister([
    {
      apiVersion: "kueue.x-k8s.io/v1beta1",
      kind: "ResourceFlavor",
      metadata: { name: "spot" },
      spec: {
        nodeLabels: { pool: "spot" },
        tolerations: [{ key: "spot", operator: "Exists", effect: "NoSchedule" }],
      },
    } as ResourceFlavor,
  ]);
  const workload = makeKueueWorkload("w").podSet("main", 1, { cpu: "1" }).obj();
  workload.status = {
    admission: {
      clusterQueue: "cq",
      podSetAssignments: [{ name: "main", flavors: { cpu: "spot" }, count: 1 }],
    },
  } as NonNullable<KueueWorkload["status"]>;

  const viaPut = await user.create<Pod>(podsResource, gated("put"));
  const viaPatch = await user.create<Pod>(podsResource, gated("patch"));
  await kueue.update<Pod>(podsResource, ungatedPod(viaPut, workload, flavors));
  await ungatePod({ client: kueue }, viaPatch, workload, flavors);
  const put = await user.get<Pod>(podsResource, "default", "put");
  const patched = await user.get<Pod>(podsResource, "default", "patch");
  assert.deepEqual(patched.spec, put.spec, "the same spec");
  assert.deepEqual(patched.metadata.labels, put.metadata.labels, "the same labels");
  assert.deepEqual(patched.spec.schedulingGates, [{ name: "other" }], "only Kueue's gate is gone");
  assert.deepEqual(patched.spec.nodeSelector, { disk: "ssd", pool: "spot" });
  assert.ok(
    patched.spec.tolerations?.some((t) => t.key === "spot"),
    "the flavor's toleration is added",
  );
  assert.equal(patched.metadata.labels?.["kueue.x-k8s.io/podset"], "main");
  const fields = (p: Pod) =>
    p.metadata.managedFields?.find((m) => m.manager === "kueue")?.fieldsV1 as unknown;
  assert.deepEqual(fields(patched), fields(put), "kueue owns the same fields either way");

  // The cached pod is stale: the patch carries its resourceVersion and conflicts.
  const stale = await user.create<Pod>(podsResource, gated("stale"));
  await user.update<Pod>(podsResource, {
    ...stale,
    metadata: { ...stale.metadata, labels: { app: "y" } },
  });
  await assert.rejects(
    ungatePod({ client: kueue }, stale, workload, flavors),
    (error: unknown) => isConflict(error),
    "a patch over a changed pod conflicts",
  );
});

test("a status-only update keeps the stored spec, metadata and labels, and conflicts when stale", async () => {
  await using harness = await startClusterHarness();
  const user = harness.newClient("user");
  const kueue = harness.newClient("kueue");
  const built = makeKueueWorkload("w").queue("q").podSet("main", 1, { cpu: "1" }).obj();
  built.metadata.labels = { l: "v" };
  built.metadata.finalizers = ["kueue.x-k8s.io/resource-in-use"];
  const created = await user.create<KueueWorkload>(kueueWorkloadsResource, built);
  const status = {
    admission: {
      clusterQueue: "cq",
      podSetAssignments: [{ name: "main", flavors: { cpu: "default" }, count: 1 }],
    },
  };
  const next = { ...created, status } as unknown as KueueWorkload;
  const written = await kueue.updateStatus<KueueWorkload>(kueueWorkloadsResource, statusOnly(next));
  assert.deepEqual(written.spec, created.spec, "the spec stays as stored");
  assert.deepEqual(written.metadata.labels, { l: "v" }, "labels stay");
  assert.deepEqual(written.metadata.finalizers, ["kueue.x-k8s.io/resource-in-use"]);
  assert.equal(written.status?.admission?.clusterQueue, "cq", "the status is written");
  await assert.rejects(
    kueue.updateStatus<KueueWorkload>(kueueWorkloadsResource, statusOnly(next)),
    (error: unknown) => isConflict(error),
    "a status write over a changed Workload conflicts",
  );
});
