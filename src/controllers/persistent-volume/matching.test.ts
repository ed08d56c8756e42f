import assert from "node:assert/strict";
import { test } from "node:test";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "../../api/index.ts";
import { findMatchingVolume, provisionedVolume } from "./matching.ts";

const claim = (
  spec: Partial<NonNullable<PersistentVolumeClaim["spec"]>> = {},
): PersistentVolumeClaim => ({
  metadata: { name: "data", namespace: "default", uid: "uid-1", resourceVersion: "7" },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
});
const volume = (
  name: string,
  size: string,
  spec: Partial<NonNullable<PersistentVolume["spec"]>> = {},
  phase: "Available" | "Pending" | "Bound" = "Available",
  labels?: Record<string, string>,
): PersistentVolume => ({
  metadata: { name, ...(labels === undefined ? {} : { labels }) },
  spec: { capacity: { storage: size }, accessModes: ["ReadWriteOnce", "ReadOnlyMany"], ...spec },
  status: { phase },
});

const cases: {
  name: string;
  claim: PersistentVolumeClaim;
  volumes: PersistentVolume[];
  delay?: boolean;
  want: string | undefined;
}[] = [
  {
    name: "the smallest volume at least as large as the request",
    claim: claim(),
    volumes: [volume("10g", "10Gi"), volume("2g", "2Gi"), volume("512m", "512Mi")],
    want: "2g",
  },
  {
    name: "an equal size fits",
    claim: claim(),
    volumes: [volume("2g", "2Gi"), volume("1024m", "1024Mi")],
    want: "1024m",
  },
  {
    name: "volumes not yet Available, claimed or deleting are skipped",
    claim: claim(),
    volumes: [
      volume("pending", "1Gi", {}, "Pending"),
      volume("taken", "1Gi", { claimRef: { namespace: "default", name: "other", uid: "u2" } }),
    ],
    want: undefined,
  },
  {
    name: "the class must match; no class matches only class-less volumes",
    claim: claim({ storageClassName: "fast" }),
    volumes: [volume("none", "1Gi"), volume("slow", "1Gi", { storageClassName: "slow" })],
    want: undefined,
  },
  {
    name: "every requested access mode must be offered",
    claim: claim({ accessModes: ["ReadWriteOnce", "ReadWriteMany"] }),
    volumes: [
      volume("rwo", "1Gi"),
      volume("rwx", "5Gi", { accessModes: ["ReadWriteMany", "ReadWriteOnce"] }),
    ],
    want: "rwx",
  },
  {
    name: "volume modes must match, Filesystem when unset",
    claim: claim({ volumeMode: "Block" }),
    volumes: [volume("fs", "1Gi"), volume("block", "1Gi", { volumeMode: "Block" })],
    want: "block",
  },
  {
    name: "the selector picks by label",
    claim: claim({
      selector: { matchExpressions: [{ key: "tier", operator: "In", values: ["gold"] }] },
    }),
    volumes: [
      volume("silver", "1Gi", {}, "Available", { tier: "silver" }),
      volume("gold", "2Gi", {}, "Available", { tier: "gold" }),
    ],
    want: "gold",
  },
  {
    name: "a volume pre-bound to the claim wins over a better fit",
    claim: claim(),
    volumes: [
      volume("fit", "1Gi"),
      volume("mine", "8Gi", { claimRef: { namespace: "default", name: "data" } }, "Pending"),
    ],
    want: "mine",
  },
  {
    name: "a pre-bound volume naming another uid is not this claim's",
    claim: claim(),
    volumes: [
      volume("old", "1Gi", { claimRef: { namespace: "default", name: "data", uid: "uid-0" } }),
    ],
    want: undefined,
  },
  {
    name: "delayed binding considers only pre-bound volumes",
    claim: claim(),
    volumes: [volume("fit", "1Gi")],
    delay: true,
    want: undefined,
  },
];

for (const c of cases) {
  test(`findMatchingVolume: ${c.name}`, () => {
    assert.equal(findMatchingVolume(c.claim, c.volumes, c.delay)?.metadata.name, c.want);
  });
}

test("provisionedVolume: pvc-<uid>, pre-bound, the class's policy, node affinity to the selected node", () => {
  const storageClass: StorageClass = {
    metadata: { name: "standard" },
    provisioner: "gantry.dev/emulated",
    reclaimPolicy: "Retain",
  };
  const c = claim({ volumeMode: "Block", accessModes: ["ReadWriteOncePod"] });
  c.metadata.annotations = { "volume.kubernetes.io/selected-node": "node-2" };
  const pv = provisionedVolume(c, storageClass);
  assert.equal(pv.metadata.name, "pvc-uid-1");
  assert.equal(pv.metadata.annotations?.["pv.kubernetes.io/provisioned-by"], "gantry.dev/emulated");
  assert.deepEqual(pv.spec?.claimRef, {
    kind: "PersistentVolumeClaim",
    namespace: "default",
    name: "data",
    uid: "uid-1",
    apiVersion: "v1",
    resourceVersion: "7",
  });
  assert.deepEqual(pv.spec?.capacity, { storage: "1Gi" });
  assert.deepEqual(pv.spec?.accessModes, ["ReadWriteOncePod"]);
  assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Retain");
  assert.equal(pv.spec?.volumeMode, "Block");
  assert.equal(pv.spec?.storageClassName, "standard");
  assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms, [
    { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["node-2"] }] },
  ]);
  const immediate = provisionedVolume(claim(), storageClass);
  assert.equal(immediate.spec?.nodeAffinity, undefined, "no node affinity without a selected node");
});
