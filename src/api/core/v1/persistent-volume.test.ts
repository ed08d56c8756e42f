import assert from "node:assert/strict";
import test from "node:test";
import { fieldErrorString } from "../../meta/field-errors.ts";
import {
  applyPersistentVolumeClaimDefaults,
  applyPersistentVolumeDefaults,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type PersistentVolumeClaimSpec,
  type PersistentVolumeSpec,
} from "./persistent-volume.ts";
import { persistentVolumeClaimKind, persistentVolumeKind } from "./persistent-volume-kinds.ts";
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
  validatePersistentVolumeUpdate,
} from "./persistent-volume-validation.ts";

const claimMeta = { name: "data", namespace: "default", resourceVersion: "1" };
const claimSpec = (extra: Partial<PersistentVolumeClaimSpec> = {}): PersistentVolumeClaimSpec => ({
  accessModes: ["ReadWriteOnce"],
  resources: { requests: { storage: "1Gi" } },
  ...extra,
});
const claim = (spec: PersistentVolumeClaimSpec, phase?: "Bound"): PersistentVolumeClaim => {
  const pvc: PersistentVolumeClaim = { metadata: { ...claimMeta }, spec: structuredClone(spec) };
  applyPersistentVolumeClaimDefaults(pvc);
  if (phase !== undefined) pvc.status = { phase, capacity: { storage: "1Gi" } };
  return pvc;
};
const strings = (errs: readonly Parameters<typeof fieldErrorString>[0][]) =>
  errs.map(fieldErrorString);

const claimCases: { name: string; spec: PersistentVolumeClaimSpec; want: string[] }[] = [
  { name: "a claim kubectl would send", spec: claimSpec(), want: [] },
  {
    name: "a class, a selector, Block mode and a PVC data source",
    spec: claimSpec({
      storageClassName: "standard",
      selector: { matchLabels: { tier: "fast" } },
      volumeMode: "Block",
      dataSource: { kind: "PersistentVolumeClaim", name: "src" },
    }),
    want: [],
  },
  {
    name: "no access modes and no storage request",
    spec: { resources: {} },
    want: [
      "spec.accessModes: Required value: at least 1 access mode is required",
      "spec.resources[storage]: Required value",
    ],
  },
  {
    name: "an unknown access mode and ReadWriteOncePod with another mode",
    spec: claimSpec({ accessModes: ["ReadWriteOncePod", "ReadWriteOnce", "Sometimes" as never] }),
    want: [
      'spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
    ],
  },
  {
    name: "a zero storage request",
    spec: claimSpec({ resources: { requests: { storage: "0" } } }),
    want: ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
  },
  {
    name: "a bad class name and volume mode",
    spec: claimSpec({ storageClassName: "Fast_SSD", volumeMode: "Raw" as never }),
    want: [
      "spec.storageClassName: Invalid value: \"Fast_SSD\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ],
  },
  {
    name: "a data source in the core group that is not a claim",
    spec: claimSpec({ dataSource: { kind: "Pod", name: "x" } }),
    want: [
      "spec.dataSource: Invalid value: \"Pod\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ],
  },
];

for (const c of claimCases) {
  test(`validatePersistentVolumeClaim: ${c.name}`, () => {
    assert.deepEqual(strings(validatePersistentVolumeClaim(claim(c.spec))), c.want);
  });
}

test("PVC defaults: volumeMode Filesystem, phase Pending, canonical quantities", () => {
  const pvc = claim(claimSpec({ resources: { requests: { storage: "1024Mi" } } }));
  assert.equal(pvc.spec?.volumeMode, "Filesystem");
  assert.equal(pvc.status?.phase, "Pending");
  assert.equal(pvc.spec?.resources?.requests?.["storage"], "1Gi");
  const block = claim(claimSpec({ volumeMode: "Block" }));
  assert.equal(block.spec?.volumeMode, "Block", "an explicit mode is kept");
});

const updateCases: {
  name: string;
  old: PersistentVolumeClaim;
  next: PersistentVolumeClaim;
  want: string[];
}[] = [
  {
    name: "the binder sets volumeName once",
    old: claim(claimSpec()),
    next: claim(claimSpec({ volumeName: "pv-1" })),
    want: [],
  },
  {
    name: "a class given to a claim that had none",
    old: claim(claimSpec()),
    next: claim(claimSpec({ storageClassName: "standard" })),
    want: [],
  },
  {
    name: "a bound claim grows",
    old: claim(claimSpec(), "Bound"),
    next: claim(claimSpec({ resources: { requests: { storage: "2Gi" } } }), "Bound"),
    want: [],
  },
  {
    name: "a pending claim may not change its size",
    old: claim(claimSpec()),
    next: claim(claimSpec({ resources: { requests: { storage: "2Gi" } } })),
    want: [
      "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
    ],
  },
  {
    name: "a bound claim may not shrink to its capacity",
    old: claim(claimSpec({ resources: { requests: { storage: "2Gi" } } }), "Bound"),
    next: claim(claimSpec(), "Bound"),
    want: [
      "spec.resources.requests.storage: Forbidden: field can not be less than status.capacity",
    ],
  },
  {
    name: "access modes, class and volumeName are fixed",
    old: claim(claimSpec({ storageClassName: "a", volumeName: "pv-1" })),
    next: claim(
      claimSpec({ storageClassName: "b", volumeName: "pv-2", accessModes: ["ReadWriteMany"] }),
    ),
    want: [
      "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
    ],
  },
  {
    name: "volumeMode is immutable, at upstream's path",
    old: claim(claimSpec()),
    next: claim(claimSpec({ volumeMode: "Block" })),
    want: [
      "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
      'volumeMode: Invalid value: "Block": field is immutable',
    ],
  },
  {
    name: "volumeAttributesClassName needs a feature gate 1.33 leaves off",
    old: claim(claimSpec()),
    next: claim(claimSpec({ volumeAttributesClassName: "gold" })),
    want: [
      "spec.volumeAttributesClassName: Forbidden: update is forbidden when the VolumeAttributesClass feature gate is disabled",
    ],
  },
];

for (const c of updateCases) {
  test(`validatePersistentVolumeClaimUpdate: ${c.name}`, () => {
    assert.deepEqual(strings(validatePersistentVolumeClaimUpdate(c.next, c.old)), c.want);
  });
}

const pvMeta = { name: "pv-1", resourceVersion: "1" };
const pvSpec = (extra: Partial<PersistentVolumeSpec> = {}): PersistentVolumeSpec => ({
  capacity: { storage: "5Gi" },
  accessModes: ["ReadWriteOnce"],
  hostPath: { path: "/data/pv-1" },
  ...extra,
});
const volume = (spec: PersistentVolumeSpec): PersistentVolume => {
  const pv: PersistentVolume = { metadata: { ...pvMeta }, spec: structuredClone(spec) };
  applyPersistentVolumeDefaults(pv);
  return pv;
};

const pvCases: { name: string; spec: PersistentVolumeSpec; want: string[] }[] = [
  { name: "a hostPath volume", spec: pvSpec(), want: [] },
  {
    name: "a CSI volume with node affinity and a class",
    spec: {
      capacity: { storage: "1Ti" },
      accessModes: ["ReadWriteMany"],
      storageClassName: "fast",
      csi: { driver: "ebs.csi.aws.com", volumeHandle: "vol-1" },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] },
          ],
        },
      },
    },
    want: [],
  },
  {
    name: "no capacity, no access modes, no source",
    spec: {},
    want: [
      "spec.accessModes: Required value",
      "spec.capacity: Required value",
      'spec.capacity: Unsupported value: {}: supported values: "storage"',
      "spec: Required value: must specify a volume type",
    ],
  },
  {
    name: "two sources",
    spec: pvSpec({ nfs: { server: "nfs.local", path: "/x" } }),
    want: ["spec.nfs: Forbidden: may not specify more than 1 volume type"],
  },
  {
    name: "a zero capacity and an unknown reclaim policy",
    spec: pvSpec({ capacity: { storage: "0" }, persistentVolumeReclaimPolicy: "Keep" as never }),
    want: [
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
    ],
  },
  {
    name: "a local volume needs node affinity",
    spec: pvSpec({ hostPath: undefined as never, local: { path: "/mnt/disks/ssd1" } }),
    want: ["spec.nodeAffinity: Required value: Local volume requires node affinity"],
  },
  {
    name: "sources count in upstream's order; a second cephfs is reported as cephFS",
    spec: pvSpec({ cephfs: { monitors: ["10.0.0.1"] }, local: { path: "/mnt" } }),
    want: [
      "spec.cephFS: Forbidden: may not specify more than 1 volume type",
      "spec.local: Forbidden: may not specify more than 1 volume type",
    ],
  },
  {
    name: "node affinity without required terms",
    spec: pvSpec({ nodeAffinity: {} }),
    want: ["spec.nodeAffinity.required: Required value: must specify required node constraints"],
  },
  {
    name: "a CSI source without its handle",
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      csi: { driver: "d" } as never,
    },
    want: ["spec.csi.volumeHandle: Required value"],
  },
];

for (const c of pvCases) {
  test(`validatePersistentVolume: ${c.name}`, () => {
    assert.deepEqual(strings(validatePersistentVolume(volume(c.spec))), c.want);
  });
}

test("PV defaults: Retain, Filesystem, phase Pending", () => {
  const pv = volume(pvSpec());
  assert.equal(pv.spec?.persistentVolumeReclaimPolicy, "Retain");
  assert.equal(pv.spec?.volumeMode, "Filesystem");
  assert.equal(pv.status?.phase, "Pending");
  const deleting = volume(pvSpec({ persistentVolumeReclaimPolicy: "Delete" }));
  assert.equal(deleting.spec?.persistentVolumeReclaimPolicy, "Delete", "an explicit policy stays");
});

test("validatePersistentVolumeUpdate: the source and volume mode are fixed, a claimRef is not", () => {
  const old = volume(pvSpec());
  const bound = volume(
    pvSpec({ claimRef: { kind: "PersistentVolumeClaim", namespace: "default", name: "data" } }),
  );
  assert.deepEqual(strings(validatePersistentVolumeUpdate(bound, old)), []);
  const moved = volume(pvSpec({ hostPath: { path: "/elsewhere" }, volumeMode: "Block" }));
  assert.deepEqual(strings(validatePersistentVolumeUpdate(moved, old)), [
    "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation",
    'volumeMode: Invalid value: "Block": field is immutable',
  ]);
});

test("kinds: pv and pvc short names, scopes and status subresources", () => {
  assert.deepEqual(persistentVolumeKind.shortNames, ["pv"]);
  assert.equal(persistentVolumeKind.namespaced, false);
  assert.equal(persistentVolumeKind.subresources.status, true);
  assert.deepEqual(persistentVolumeClaimKind.shortNames, ["pvc"]);
  assert.equal(persistentVolumeClaimKind.namespaced, true);
  assert.equal(persistentVolumeClaimKind.subresources.status, true);
});
