import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatAccessModes,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  podTemplatePrinter,
  storageClassPrinter,
} from "./storage.ts";
import type { TableCell, TablePrinter } from "./table.ts";

const now = new Date("2024-06-01T12:00:00Z");
const metadata = { name: "data", namespace: "default", creationTimestamp: "2024-06-01T11:55:00Z" };

const cases: {
  name: string;
  printer: TablePrinter;
  object: Record<string, unknown>;
  want: TableCell[];
}[] = [
  {
    name: "a pending claim without a class: no volume, capacity or modes",
    printer: persistentVolumeClaimPrinter,
    object: {
      metadata,
      spec: {
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1Gi" } },
        volumeMode: "Filesystem",
      },
      status: { phase: "Pending" },
    },
    want: ["data", "Pending", "", "", "", "", "<unset>", "5m", "Filesystem"],
  },
  {
    name: "a bound claim prints the volume's capacity and modes from its status",
    printer: persistentVolumeClaimPrinter,
    object: {
      metadata,
      spec: {
        accessModes: ["ReadWriteOnce"],
        resources: { requests: { storage: "1Gi" } },
        storageClassName: "standard",
        volumeName: "pvc-1234",
        volumeMode: "Block",
      },
      status: {
        phase: "Bound",
        capacity: { storage: "2Gi" },
        accessModes: ["ReadWriteMany", "ReadWriteOnce"],
      },
    },
    want: ["data", "Bound", "pvc-1234", "2Gi", "RWO,RWX", "standard", "<unset>", "5m", "Block"],
  },
  {
    name: "a deleting claim is Terminating; the beta annotation names the class",
    printer: persistentVolumeClaimPrinter,
    object: {
      metadata: {
        ...metadata,
        deletionTimestamp: "2024-06-01T11:59:00Z",
        annotations: { "volume.beta.kubernetes.io/storage-class": "old" },
      },
      spec: { storageClassName: "new", volumeAttributesClassName: "gold" },
      status: { phase: "Bound" },
    },
    want: ["data", "Terminating", "", "", "", "old", "gold", "5m", "<unset>"],
  },
  {
    name: "an available volume",
    printer: persistentVolumePrinter,
    object: {
      metadata: { name: "pv-1", creationTimestamp: "2024-06-01T11:55:00Z" },
      spec: {
        capacity: { storage: "5Gi" },
        accessModes: ["ReadWriteOncePod"],
        persistentVolumeReclaimPolicy: "Retain",
        storageClassName: "manual",
        volumeMode: "Filesystem",
        hostPath: { path: "/data" },
      },
      status: { phase: "Available" },
    },
    want: [
      "pv-1",
      "5Gi",
      "RWOP",
      "Retain",
      "Available",
      "",
      "manual",
      "<unset>",
      "",
      "5m",
      "Filesystem",
    ],
  },
  {
    name: "a bound volume names its claim; a failed one its reason",
    printer: persistentVolumePrinter,
    object: {
      metadata: { name: "pv-2", creationTimestamp: "2024-06-01T11:55:00Z" },
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        persistentVolumeReclaimPolicy: "Delete",
        claimRef: { namespace: "default", name: "data" },
      },
      status: { phase: "Failed", reason: "VolumeFailedDelete" },
    },
    want: [
      "pv-2",
      "1Gi",
      "RWO",
      "Delete",
      "Failed",
      "default/data",
      "",
      "<unset>",
      "VolumeFailedDelete",
      "5m",
      "<unset>",
    ],
  },
  {
    name: "the default storage class is marked",
    printer: storageClassPrinter,
    object: {
      metadata: {
        name: "standard",
        creationTimestamp: "2024-06-01T11:55:00Z",
        annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
      },
      provisioner: "gantry.dev/emulated",
      reclaimPolicy: "Delete",
      volumeBindingMode: "WaitForFirstConsumer",
    },
    want: [
      "standard (default)",
      "gantry.dev/emulated",
      "Delete",
      "WaitForFirstConsumer",
      false,
      "5m",
    ],
  },
  {
    name: "a class annotated false is not the default; expansion is printed",
    printer: storageClassPrinter,
    object: {
      metadata: {
        name: "fast",
        creationTimestamp: "2024-06-01T11:55:00Z",
        annotations: { "storageclass.kubernetes.io/is-default-class": "false" },
      },
      provisioner: "ebs.csi.aws.com",
      reclaimPolicy: "Retain",
      volumeBindingMode: "Immediate",
      allowVolumeExpansion: true,
    },
    want: ["fast", "ebs.csi.aws.com", "Retain", "Immediate", true, "5m"],
  },
  {
    name: "a pod template",
    printer: podTemplatePrinter,
    object: {
      metadata,
      template: {
        metadata: { labels: { app: "web", tier: "front" } },
        spec: {
          containers: [
            { name: "nginx", image: "nginx:1.27" },
            { name: "log", image: "busybox" },
          ],
        },
      },
    },
    want: ["data", "nginx,log", "nginx:1.27,busybox", "app=web,tier=front"],
  },
  {
    name: "a pod template without labels",
    printer: podTemplatePrinter,
    object: { metadata, template: { spec: { containers: [{ name: "c", image: "i" }] } } },
    want: ["data", "c", "i", "<none>"],
  },
];

for (const c of cases) {
  test(`storage printers: ${c.name}`, () => {
    assert.deepEqual(c.printer.printRow(c.object, now).cells, c.want);
  });
}

test("storage printers: column headers as kubectl 1.33 prints them", () => {
  const names = (p: TablePrinter, wide: boolean) =>
    p.columns.filter((col) => wide || col.priority === 0).map((col) => col.name.toUpperCase());
  assert.deepEqual(names(persistentVolumeClaimPrinter, false), [
    "NAME",
    "STATUS",
    "VOLUME",
    "CAPACITY",
    "ACCESS MODES",
    "STORAGECLASS",
    "VOLUMEATTRIBUTESCLASS",
    "AGE",
  ]);
  assert.deepEqual(names(persistentVolumeClaimPrinter, true).at(-1), "VOLUMEMODE");
  assert.deepEqual(names(persistentVolumePrinter, false), [
    "NAME",
    "CAPACITY",
    "ACCESS MODES",
    "RECLAIM POLICY",
    "STATUS",
    "CLAIM",
    "STORAGECLASS",
    "VOLUMEATTRIBUTESCLASS",
    "REASON",
    "AGE",
  ]);
  assert.deepEqual(names(storageClassPrinter, false), [
    "NAME",
    "PROVISIONER",
    "RECLAIMPOLICY",
    "VOLUMEBINDINGMODE",
    "ALLOWVOLUMEEXPANSION",
    "AGE",
  ]);
  assert.deepEqual(names(podTemplatePrinter, false), [
    "NAME",
    "CONTAINERS",
    "IMAGES",
    "POD LABELS",
  ]);
});

test("formatAccessModes: upstream's order, duplicates once, unknown modes dropped", () => {
  assert.equal(formatAccessModes(["ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce"]), "RWO,RWX");
  assert.equal(formatAccessModes(["ReadOnlyMany", "Other"]), "ROX");
  assert.equal(formatAccessModes([]), "");
});
