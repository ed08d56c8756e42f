/**
 * Persistent storage with real kubectl against `gantry up`: discovery of persistentvolumes,
 * persistentvolumeclaims, podtemplates and storageclasses; a StorageClass of the emulated
 * provisioner marked default, a class-less PVC that the DefaultStorageClass plugin gives it and
 * the persistentvolume-binder provisions and binds; a PV applied by hand binding a matching
 * claim; upstream's columns and upstream's 422; on kubectl 1.27, 1.30 and 1.33 (one gantry, one
 * namespace and one default class per version).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  eventually,
  type GantryProcess,
  type KubectlResult,
  kubectl,
  kubectlOk as ok,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";

let gantry: GantryProcess;
before(async () => {
  gantry = await startGantry();
});
after(async () => {
  await gantry[Symbol.asyncDispose]();
});
ensureNoLeaksAfterSuite();

for (const version of ["1.27", "1.30", "1.33"]) {
  describe(`kubectl ${version}: PersistentVolumes, PersistentVolumeClaims and StorageClasses`, () => {
    const suffix = version.replace(".", "-");
    const ns = `storage-${suffix}`;
    const className = `emulated-${suffix}`;
    const pvName = `manual-${suffix}`;
    const run = (args: string[], input?: string): Promise<KubectlResult> =>
      kubectl(gantry, version, args, input === undefined ? {} : { input });

    test("api-resources lists pv, pvc, podtemplates and sc", async () => {
      const resources = ok(await run(["api-resources"]), "api-resources");
      assert.match(
        resources,
        /^persistentvolumeclaims\s+pvc\s+v1\s+true\s+PersistentVolumeClaim$/m,
      );
      assert.match(resources, /^persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume$/m);
      assert.match(resources, /^podtemplates\s+v1\s+true\s+PodTemplate$/m);
      assert.match(
        resources,
        /^storageclasses\s+sc\s+storage\.k8s\.io\/v1\s+false\s+StorageClass$/m,
      );
      assert.match(ok(await run(["api-versions"]), "api-versions"), /^storage\.k8s\.io\/v1$/m);
    });

    test("a default StorageClass: a class-less PVC gets it and is provisioned and Bound", async () => {
      ok(await run(["create", "namespace", ns]), "create namespace");
      const manifests = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${className}
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: gantry.dev/emulated
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: ${ns}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 2Gi
`;
      const applied = ok(await run(["apply", "-f", "-"], manifests), "apply class and claim");
      assert.match(applied, new RegExp(`storageclass\\.storage\\.k8s\\.io/${className} created`));
      assert.match(applied, /persistentvolumeclaim\/data created/);
      const sc = ok(await run(["get", "sc", className]), "get sc");
      assert.match(
        sc,
        /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/m,
      );
      assert.match(
        sc,
        new RegExp(
          `^${className} \\(default\\)\\s+gantry\\.dev/emulated\\s+Delete\\s+Immediate\\s+false\\s+\\S+$`,
          "m",
        ),
      );
      const out = await eventually(
        async () => {
          const text = ok(await run(["-n", ns, "get", "pvc"]), "get pvc");
          assert.match(text, /^data\s+Bound\s/m, `the claim is Bound:\n${text}`);
          return text;
        },
        30_000,
        200,
      );
      assert.match(
        out,
        /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$/m,
      );
      assert.match(
        out,
        new RegExp(
          `^data\\s+Bound\\s+pvc-[0-9a-f-]+\\s+2Gi\\s+RWO\\s+${className}\\s+<unset>\\s+\\S+$`,
          "m",
        ),
      );
      const wide = ok(await run(["-n", ns, "get", "pvc", "-o", "wide"]), "get pvc -o wide");
      assert.match(wide, /\s+VOLUMEMODE$/m);
      assert.match(wide, /\s+Filesystem$/m);
      const volume = ok(
        await run(["-n", ns, "get", "pvc", "data", "-o", "jsonpath={.spec.volumeName}"]),
        "volumeName",
      );
      const pv = ok(await run(["get", "pv", volume]), "get pv");
      assert.match(
        pv,
        /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$/m,
      );
      assert.match(
        pv,
        new RegExp(
          `^${volume}\\s+2Gi\\s+RWO\\s+Delete\\s+Bound\\s+${ns}/data\\s+${className}\\s+<unset>\\s+\\S+$`,
          "m",
        ),
      );
    });

    test("a PV applied by hand binds a matching claim", async () => {
      const manifests = `apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${pvName}
  labels:
    disk: ${suffix}
spec:
  capacity:
    storage: 5Gi
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  hostPath:
    path: /data/${pvName}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: manual
  namespace: ${ns}
spec:
  storageClassName: ""
  selector:
    matchLabels:
      disk: "${suffix}"
  accessModes: [ReadOnlyMany]
  resources:
    requests:
      storage: 1Gi
`;
      ok(await run(["apply", "-f", "-"], manifests), "apply pv and claim");
      const pv = await eventually(
        async () => {
          const text = ok(await run(["get", "pv", pvName]), "get pv");
          assert.match(text, /\sBound\s/, `the volume is Bound:\n${text}`);
          return text;
        },
        30_000,
        200,
      );
      assert.match(
        pv,
        new RegExp(
          `^${pvName}\\s+5Gi\\s+RWO,ROX\\s+Retain\\s+Bound\\s+${ns}/manual\\s+<unset>\\s+\\S+$`,
          "m",
        ),
      );
      const claim = ok(await run(["-n", ns, "get", "pvc", "manual"]), "get pvc manual");
      assert.match(
        claim,
        new RegExp(`^manual\\s+Bound\\s+${pvName}\\s+5Gi\\s+RWO,ROX\\s+<unset>\\s+\\S+$`, "m"),
      );
    });

    test("an invalid PVC gets upstream's 422 message", async () => {
      const bad = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: bad
  namespace: ${ns}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      cpu: "1"
`;
      const result = await run(["apply", "-f", "-"], bad);
      assert.notEqual(result.code, 0, "the invalid PVC is refused");
      assert.equal(
        result.stderr.trim(),
        'The PersistentVolumeClaim "bad" is invalid: spec.resources[storage]: Required value',
      );
    });

    test("a bound claim may grow but not change class", async () => {
      const changed = await run([
        "-n",
        ns,
        "patch",
        "pvc",
        "data",
        "--type=merge",
        "-p",
        '{"spec":{"storageClassName":"other"}}',
      ]);
      assert.notEqual(changed.code, 0, "changing the class is refused");
      assert.match(
        changed.stderr,
        /The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/,
      );
      ok(
        await run([
          "-n",
          ns,
          "patch",
          "pvc",
          "data",
          "--type=merge",
          "-p",
          '{"spec":{"resources":{"requests":{"storage":"3Gi"}}}}',
        ]),
        "grow the claim",
      );
    });

    test("deleting the claims: Delete removes the provisioned PV, Retain releases the manual one", async () => {
      const volume = ok(
        await run(["-n", ns, "get", "pvc", "data", "-o", "jsonpath={.spec.volumeName}"]),
        "volumeName",
      );
      ok(await run(["-n", ns, "delete", "pvc", "data", "manual"]), "delete claims");
      await eventually(
        async () => {
          const gone = await run(["get", "pv", volume]);
          assert.notEqual(gone.code, 0, `${volume} is deleted`);
          assert.match(gone.stderr, /NotFound|not found/);
        },
        30_000,
        200,
      );
      await eventually(
        async () => {
          const text = ok(await run(["get", "pv", pvName]), "get pv");
          assert.match(text, new RegExp(`\\sReleased\\s+${ns}/manual\\s`), `Released:\n${text}`);
        },
        30_000,
        200,
      );
      ok(await run(["delete", "pv", pvName]), "delete the released PV");
      ok(await run(["delete", "sc", className]), "delete the class");
    });
  });
}
