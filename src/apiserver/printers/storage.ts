// kubectl's columns for persistentvolumes, persistentvolumeclaims, podtemplates and
// storage.k8s.io/v1 storageclasses, as upstream's printPersistentVolume,
// printPersistentVolumeClaim, printPodTemplate and printStorageClass
// (pkg/printers/internalversion/printers.go, 1.33).

import { humanAge } from "./human-duration.ts";
import {
  ageColumn,
  column,
  containersDescription,
  imagesDescription,
  nameColumn,
} from "./internal/columns.ts";
import { containerCells, formatLabels } from "./internal/format.ts";
import { at, isDeleting, list, nameOf, type Obj, optStr, stringMap } from "./internal/read.ts";
import type { TablePrinter } from "./table.ts";

const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";
const defaultClassAnnotations = [
  "storageclass.kubernetes.io/is-default-class",
  "storageclass.beta.kubernetes.io/is-default-class",
];

/** `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order, each once. */
export function formatAccessModes(modes: readonly unknown[]): string {
  const abbreviations: [string, string][] = [
    ["ReadWriteOnce", "RWO"],
    ["ReadOnlyMany", "ROX"],
    ["ReadWriteMany", "RWX"],
    ["ReadWriteOncePod", "RWOP"],
  ];
  return abbreviations
    .filter(([mode]) => modes.includes(mode))
    .map(([, short]) => short)
    .join(",");
}

/** `GetPersistentVolume(Claim)Class`: the beta annotation, else `storageClassName`. */
function storageClassOf(object: Obj): string {
  const annotated = stringMap(object, "metadata", "annotations")[betaStorageClassAnnotation];
  return annotated ?? optStr(object, "spec", "storageClassName") ?? "";
}

/** A `*string` cell: `<unset>` when nil. */
function unsetOr(object: Obj, ...path: string[]): string {
  const value = at(object, ...path);
  return typeof value === "string" ? value : "<unset>";
}

/** `Quantity.String()` of the `storage` entry; the zero quantity prints `0`. */
function storageOf(object: Obj, ...path: string[]): string {
  return stringMap(object, ...path)["storage"] ?? "0";
}

function phaseOf(object: Obj): string {
  return isDeleting(object) ? "Terminating" : (optStr(object, "status", "phase") ?? "");
}

function age(object: Obj, now: Date): string {
  return humanAge(at(object, "metadata", "creationTimestamp"), now);
}

const volumeAttributesClassColumn = (of: string) =>
  column("VolumeAttributesClass", "string", `VolumeAttributesClass of the ${of}`);

/**
 * Printer for persistentvolumes: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM
 * STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE, and VOLUMEMODE with `-o wide`.
 */
export const persistentVolumePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column(
      "Capacity",
      "string",
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    ),
    column(
      "Access Modes",
      "string",
      "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes",
    ),
    column(
      "Reclaim Policy",
      "string",
      "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming",
    ),
    column(
      "Status",
      "string",
      "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase",
    ),
    column(
      "Claim",
      "string",
      "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding",
    ),
    column("StorageClass", "string", "StorageClass of the pv"),
    volumeAttributesClassColumn("pv"),
    column(
      "Reason",
      "string",
      "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
    ),
    ageColumn,
    column(
      "VolumeMode",
      "string",
      "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
      { priority: 1 },
    ),
  ],
  printRow: (pv, now) => {
    const claimRef = at(pv, "spec", "claimRef");
    const claim =
      claimRef === undefined || claimRef === null
        ? ""
        : `${optStr(claimRef, "namespace") ?? ""}/${optStr(claimRef, "name") ?? ""}`;
    return {
      cells: [
        nameOf(pv),
        storageOf(pv, "spec", "capacity"),
        formatAccessModes(list(pv, "spec", "accessModes")),
        optStr(pv, "spec", "persistentVolumeReclaimPolicy") ?? "",
        phaseOf(pv),
        claim,
        storageClassOf(pv),
        unsetOr(pv, "spec", "volumeAttributesClassName"),
        optStr(pv, "status", "reason") ?? "",
        age(pv, now),
        unsetOr(pv, "spec", "volumeMode"),
      ],
    };
  },
};

/**
 * Printer for persistentvolumeclaims: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS
 * VOLUMEATTRIBUTESCLASS AGE, and VOLUMEMODE with `-o wide`. Capacity and access modes come from
 * the status, and only once the claim names a volume.
 */
export const persistentVolumeClaimPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Status", "string", "phase represents the current phase of PersistentVolumeClaim."),
    column(
      "Volume",
      "string",
      "volumeName is the binding reference to the PersistentVolume backing this claim.",
    ),
    column(
      "Capacity",
      "string",
      "capacity represents the actual resources of the underlying volume.",
    ),
    column(
      "Access Modes",
      "string",
      "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1",
    ),
    column("StorageClass", "string", "StorageClass of the pvc"),
    volumeAttributesClassColumn("pvc"),
    ageColumn,
    column(
      "VolumeMode",
      "string",
      "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
      { priority: 1 },
    ),
  ],
  printRow: (pvc, now) => {
    const volumeName = optStr(pvc, "spec", "volumeName") ?? "";
    const bound = volumeName !== "";
    return {
      cells: [
        nameOf(pvc),
        phaseOf(pvc),
        volumeName,
        bound ? storageOf(pvc, "status", "capacity") : "",
        bound ? formatAccessModes(list(pvc, "status", "accessModes")) : "",
        storageClassOf(pvc),
        unsetOr(pvc, "spec", "volumeAttributesClassName"),
        age(pvc, now),
        unsetOr(pvc, "spec", "volumeMode"),
      ],
    };
  },
};

/** Printer for podtemplates: NAME CONTAINERS IMAGES POD LABELS. */
export const podTemplatePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Containers", "string", containersDescription),
    column("Images", "string", imagesDescription),
    column("Pod Labels", "string", "The labels for the pod template."),
  ],
  printRow: (podTemplate) => {
    const [names, images] = containerCells(podTemplate, "template", "spec");
    return {
      cells: [
        nameOf(podTemplate),
        names,
        images,
        formatLabels(stringMap(podTemplate, "template", "metadata", "labels")),
      ],
    };
  },
};

/**
 * Printer for storageclasses: NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE
 * ALLOWVOLUMEEXPANSION AGE; the default class's name is followed by ` (default)`.
 */
export const storageClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column("Provisioner", "string", "provisioner indicates the type of the provisioner."),
    column(
      "ReclaimPolicy",
      "string",
      "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
    ),
    column(
      "VolumeBindingMode",
      "string",
      "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.",
    ),
    column(
      "AllowVolumeExpansion",
      "string",
      "allowVolumeExpansion shows whether the storage class allow volume expand.",
    ),
    ageColumn,
  ],
  printRow: (storageClass, now) => {
    const annotations = stringMap(storageClass, "metadata", "annotations");
    const isDefault = defaultClassAnnotations.some((key) => annotations[key] === "true");
    const expansion = at(storageClass, "allowVolumeExpansion");
    return {
      cells: [
        `${nameOf(storageClass)}${isDefault ? " (default)" : ""}`,
        optStr(storageClass, "provisioner") ?? "",
        optStr(storageClass, "reclaimPolicy") ?? "Delete",
        optStr(storageClass, "volumeBindingMode") ?? "Immediate",
        expansion === true,
        age(storageClass, now),
      ],
    };
  },
};
