import assert from "node:assert/strict";
import { test } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "../../api/index.ts";
import {
  type Client,
  isNotFound,
  newInformerFactory,
  persistentVolumeClaimsResource,
  persistentVolumesResource,
  storageClassesResource,
} from "../../client/index.ts";
import { eventually, startClusterHarness } from "../../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../../testing/leak-check.ts";
import { discardLogger, systemClock } from "../../util/index.ts";
import { newEventRecorder } from "../framework/index.ts";
import { newPvProtectionController } from "../pv-protection/index.ts";
import { newPvcProtectionController } from "../pvc-protection/index.ts";
import { newPersistentVolumeBinder } from "./index.ts";

ensureNoLeaksInEachTest();

/**
 * The API server (whose StorageObjectInUseProtection puts finalizers on claims and volumes) and
 * the persistentvolume-binder, with the protection controllers that remove those finalizers.
 */
async function startEnv() {
  const harness = await startClusterHarness();
  const stop = new AbortController();
  const informers = newInformerFactory(harness.client, { clock: systemClock });
  const events = newEventRecorder(
    { client: harness.client, clock: systemClock, logger: discardLogger },
    { component: "persistentvolume-controller" },
  );
  const controller = newPersistentVolumeBinder({
    client: harness.client,
    informers,
    clock: systemClock,
    logger: discardLogger,
    events,
  });
  const common = { client: harness.client, informers, clock: systemClock, logger: discardLogger };
  const running = Promise.all([
    informers.start(stop.signal),
    controller.start(stop.signal),
    newPvcProtectionController(common).start(stop.signal),
    newPvProtectionController(common).start(stop.signal),
  ]);
  const client = harness.client as Client;
  return {
    client,
    claim: (name: string) =>
      client.get<PersistentVolumeClaim>(persistentVolumeClaimsResource, "default", name),
    volume: (name: string) =>
      client.get<PersistentVolume>(persistentVolumesResource, undefined, name),
    async [Symbol.asyncDispose]() {
      stop.abort();
      await running;
      await events.flush();
      await harness[Symbol.asyncDispose]();
    },
  };
}

type Env = Awaited<ReturnType<typeof startEnv>>;

async function createClaim(
  env: Env,
  name: string,
  spec: Partial<NonNullable<PersistentVolumeClaim["spec"]>> = {},
  annotations?: Record<string, string>,
) {
  return env.client.create<PersistentVolumeClaim>(persistentVolumeClaimsResource, {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: "default", ...(annotations === undefined ? {} : { annotations }) },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "1Gi" } },
      storageClassName: "",
      ...spec,
    },
  });
}

async function createVolume(
  env: Env,
  name: string,
  size: string,
  spec: Partial<NonNullable<PersistentVolume["spec"]>> = {},
  labels?: Record<string, string>,
) {
  return env.client.create<PersistentVolume>(persistentVolumesResource, {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, ...(labels === undefined ? {} : { labels }) },
    spec: {
      capacity: { storage: size },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: `/data/${name}` },
      ...spec,
    },
  });
}

async function createClass(env: Env, name: string, extra: Partial<StorageClass> = {}) {
  return env.client.create<StorageClass>(storageClassesResource, {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name },
    provisioner: "gantry.dev/emulated",
    ...extra,
  });
}

async function waitBound(env: Env, name: string): Promise<PersistentVolumeClaim> {
  return eventually(async () => {
    const claim = await env.claim(name);
    assert.equal(claim.status?.phase, "Bound", `claim ${name} is Bound`);
    return claim;
  });
}

test("persistentvolume-binder: a claim binds the smallest Available volume that fits", async () => {
  await using env = await startEnv();
  await createVolume(env, "small", "500Mi");
  await createVolume(env, "big", "10Gi");
  await createVolume(env, "fit", "2Gi");
  await createVolume(env, "rwx-only", "1Gi", { accessModes: ["ReadWriteMany"] });
  await eventually(async () =>
    assert.equal((await env.volume("fit")).status?.phase, "Available", "a new volume is Available"),
  );
  await createClaim(env, "data");
  const claim = await waitBound(env, "data");
  assert.equal(claim.spec?.volumeName, "fit");
  assert.deepEqual(claim.status?.capacity, { storage: "2Gi" });
  assert.deepEqual(claim.status?.accessModes, ["ReadWriteOnce"]);
  assert.equal(claim.metadata.annotations?.["pv.kubernetes.io/bind-completed"], "yes");
  assert.equal(claim.metadata.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
  const volume = await eventually(async () => {
    const v = await env.volume("fit");
    assert.equal(v.status?.phase, "Bound", "the volume is Bound");
    return v;
  });
  assert.equal(volume.spec?.claimRef?.name, "data");
  assert.equal(volume.spec?.claimRef?.uid, claim.metadata.uid);
  assert.equal(volume.metadata.annotations?.["pv.kubernetes.io/bound-by-controller"], "yes");
  assert.equal((await env.volume("big")).status?.phase, "Available", "the others stay Available");
});

test("persistentvolume-binder: class, selector and volume mode must match", async () => {
  await using env = await startEnv();
  await createVolume(env, "fast", "1Gi", { storageClassName: "fast" }, { tier: "gold" });
  await createVolume(env, "block", "1Gi", { volumeMode: "Block" }, { tier: "gold" });
  await createVolume(env, "plain", "1Gi", {}, { tier: "silver" });
  await createClaim(env, "gold", { selector: { matchLabels: { tier: "gold" } } });
  await createClaim(env, "fast", { storageClassName: "fast" });
  const fast = await waitBound(env, "fast");
  assert.equal(fast.spec?.volumeName, "fast");
  // "gold" selects fast (wrong class) and block (wrong mode): it waits.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const gold = await env.claim("gold");
  assert.equal(gold.status?.phase, "Pending", "no volume satisfies the gold claim");
  assert.equal(gold.spec?.volumeName ?? "", "");
  // A matching volume appears later: the waiting claim takes it.
  await createVolume(env, "gold-fs", "1Gi", {}, { tier: "gold" });
  assert.equal((await waitBound(env, "gold")).spec?.volumeName, "gold-fs");
});

test("persistentvolume-binder: a volume pre-bound to a claim is used even if bigger", async () => {
  await using env = await startEnv();
  await createVolume(env, "exact", "1Gi");
  await createVolume(env, "reserved", "5Gi", {
    claimRef: { kind: "PersistentVolumeClaim", namespace: "default", name: "mine" },
  });
  await createClaim(env, "mine");
  const claim = await waitBound(env, "mine");
  assert.equal(claim.spec?.volumeName, "reserved");
  const volume = await env.volume("reserved");
  assert.equal(volume.spec?.claimRef?.uid, claim.metadata.uid, "the claimRef gets the claim's uid");
  assert.equal(
    volume.metadata.annotations?.["pv.kubernetes.io/bound-by-controller"],
    undefined,
    "a user's pre-binding is not marked as the controller's",
  );
});

test("persistentvolume-binder: the emulated provisioner makes a volume for an Immediate class", async () => {
  await using env = await startEnv();
  await createClass(env, "fast", { mountOptions: ["noatime"] });
  const created = await createClaim(env, "dynamic", {
    storageClassName: "fast",
    resources: { requests: { storage: "3Gi" } },
  });
  const claim = await waitBound(env, "dynamic");
  const name = `pvc-${created.metadata.uid}`;
  assert.equal(claim.spec?.volumeName, name);
  assert.deepEqual(claim.status?.capacity, { storage: "3Gi" });
  assert.equal(
    claim.metadata.annotations?.["volume.kubernetes.io/storage-provisioner"],
    "gantry.dev/emulated",
  );
  const volume = await env.volume(name);
  assert.equal(volume.spec?.storageClassName, "fast");
  assert.equal(volume.spec?.persistentVolumeReclaimPolicy, "Delete", "the class's reclaim policy");
  assert.deepEqual(volume.spec?.mountOptions, ["noatime"]);
  assert.equal(volume.spec?.hostPath?.path, `/var/lib/gantry/volumes/${name}`);
  assert.equal(
    volume.metadata.annotations?.["pv.kubernetes.io/provisioned-by"],
    "gantry.dev/emulated",
  );

  // Delete reclaim: deleting the claim deletes the provisioned volume.
  await env.client.delete(persistentVolumeClaimsResource, "default", "dynamic");
  await eventually(async () => {
    try {
      await env.volume(name);
      assert.fail(`${name} still exists`);
    } catch (error: unknown) {
      assert.ok(isNotFound(error), `the volume is deleted, not ${String(error)}`);
    }
  });
});

test("persistentvolume-binder: WaitForFirstConsumer waits for the scheduler's selected node", async () => {
  await using env = await startEnv();
  await createClass(env, "local", { volumeBindingMode: "WaitForFirstConsumer" });
  await createClaim(env, "later", { storageClassName: "local" });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal((await env.claim("later")).status?.phase, "Pending", "no volume before a consumer");
  const pending = await env.claim("later");
  pending.metadata.annotations = {
    ...(pending.metadata.annotations ?? {}),
    "volume.kubernetes.io/selected-node": "node-1",
  };
  await env.client.update(persistentVolumeClaimsResource, pending);
  const claim = await waitBound(env, "later");
  const volume = await env.volume(claim.spec?.volumeName ?? "");
  assert.deepEqual(
    volume.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.[0]?.values,
    ["node-1"],
  );
});

test("persistentvolume-binder: a class-less claim gets a default class marked later", async () => {
  await using env = await startEnv();
  // Without the cluster's default class `standard`, which admission would give the claim.
  await env.client.delete(storageClassesResource, undefined, "standard");
  const created = await env.client.create<PersistentVolumeClaim>(persistentVolumeClaimsResource, {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "early", namespace: "default" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  });
  assert.equal(created.spec?.storageClassName, undefined, "no default class yet");
  await createClaim(env, "explicit-none");
  await new Promise((resolve) => setTimeout(resolve, 200));
  await createClass(env, "late", {
    metadata: {
      name: "late",
      annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
    },
  });
  const claim = await waitBound(env, "early");
  assert.equal(claim.spec?.storageClassName, "late");
  const untouched = await env.claim("explicit-none");
  assert.equal(untouched.spec?.storageClassName, "", "an explicit empty class stays empty");
  assert.equal(untouched.status?.phase, "Pending");
});

test("persistentvolume-binder: Retain releases, Delete of a static volume fails", async () => {
  await using env = await startEnv();
  await createVolume(env, "kept", "1Gi", {
    claimRef: { kind: "PersistentVolumeClaim", namespace: "default", name: "a" },
  });
  await createVolume(env, "static", "1Gi", {
    persistentVolumeReclaimPolicy: "Delete",
    claimRef: { kind: "PersistentVolumeClaim", namespace: "default", name: "b" },
  });
  await createClaim(env, "a");
  await createClaim(env, "b");
  await waitBound(env, "a");
  await waitBound(env, "b");
  await env.client.delete(persistentVolumeClaimsResource, "default", "a");
  await env.client.delete(persistentVolumeClaimsResource, "default", "b");
  const kept = await eventually(async () => {
    const v = await env.volume("kept");
    assert.equal(v.status?.phase, "Released", "Retain: Released");
    return v;
  });
  assert.equal(kept.spec?.claimRef?.name, "a", "a Released volume keeps its claimRef");
  const failed = await eventually(async () => {
    const v = await env.volume("static");
    assert.equal(v.status?.phase, "Failed", "Delete without a deleter: Failed");
    return v;
  });
  assert.equal(
    failed.status?.message,
    'error getting deleter volume plugin for volume "static": no deletable volume plugin matched',
  );
});

test("persistentvolume-binder: a bound volume is protected; once forced away its claim is Lost", async () => {
  await using env = await startEnv();
  await createVolume(env, "gone", "1Gi");
  await createClaim(env, "orphan");
  await waitBound(env, "orphan");
  await env.client.delete(persistentVolumesResource, undefined, "gone");
  // pv-protection keeps a Bound volume: the claim stays Bound.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const held = await env.volume("gone");
  assert.ok(held.metadata.deletionTimestamp !== undefined, "the volume is being deleted");
  assert.equal((await env.claim("orphan")).status?.phase, "Bound", "the claim is still Bound");
  // Forced away (its finalizer removed by hand), the claim has lost its volume.
  held.metadata.finalizers = [];
  await env.client.update(persistentVolumesResource, held);
  await eventually(async () =>
    assert.equal((await env.claim("orphan")).status?.phase, "Lost", "the claim is Lost"),
  );
});
