/**
 * core/v1 PersistentVolume and PersistentVolumeClaim: types, well-known names and defaults
 * (`SetDefaults_PersistentVolume`, `SetDefaults_PersistentVolumeClaim` and
 * `SetDefaults_PersistentVolumeClaimSpec`, pkg/apis/core/v1/defaults.go, 1.33).
 */
import type { KubeObject, LabelSelector } from "../../meta/types.ts";
import type { ObjectReference } from "./event.ts";
import { canonicalizeQuantities } from "./kind-helpers.ts";
import type { NodeSelector, ResourceList } from "./pod-template.ts";

export type PersistentVolumeAccessMode =
  | "ReadWriteOnce"
  | "ReadOnlyMany"
  | "ReadWriteMany"
  | "ReadWriteOncePod";
export type PersistentVolumeMode = "Filesystem" | "Block";
export type PersistentVolumeReclaimPolicy = "Retain" | "Delete" | "Recycle";
export type PersistentVolumePhase = "Pending" | "Available" | "Bound" | "Released" | "Failed";
export type PersistentVolumeClaimPhase = "Pending" | "Bound" | "Lost";

/** Upstream's `supportedAccessModes`, sorted as `sets.List` prints them. */
export const supportedAccessModes: readonly PersistentVolumeAccessMode[] = [
  "ReadOnlyMany",
  "ReadWriteMany",
  "ReadWriteOnce",
  "ReadWriteOncePod",
];
export const supportedVolumeModes: readonly PersistentVolumeMode[] = ["Block", "Filesystem"];
export const supportedReclaimPolicies: readonly PersistentVolumeReclaimPolicy[] = [
  "Delete",
  "Recycle",
  "Retain",
];

/** The deprecated annotation that named a claim's class before `storageClassName`. */
export const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";

export interface TypedObjectReference {
  apiGroup?: string | null;
  kind: string;
  name: string;
  namespace?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: PersistentVolumeAccessMode[];
  selector?: LabelSelector | null;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeName?: string;
  storageClassName?: string | null;
  volumeMode?: PersistentVolumeMode | null;
  dataSource?: TypedObjectReference | null;
  dataSourceRef?: TypedObjectReference | null;
  volumeAttributesClassName?: string | null;
}

export interface PersistentVolumeClaimCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PersistentVolumeClaimStatus {
  phase?: PersistentVolumeClaimPhase;
  accessModes?: PersistentVolumeAccessMode[];
  capacity?: ResourceList;
  conditions?: PersistentVolumeClaimCondition[];
  allocatedResources?: ResourceList;
  allocatedResourceStatuses?: Record<string, string>;
  currentVolumeAttributesClassName?: string;
  modifyVolumeStatus?: { targetVolumeAttributesClassName?: string; status: string };
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

/**
 * Every PersistentVolumeSource field upstream knows, in the order `ValidatePersistentVolumeSpec`
 * checks them. `hostPath`, `local` and `csi` are typed below; the others are kept as sent.
 */
export const persistentVolumeSourceFields = [
  "hostPath",
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "glusterfs",
  "flocker",
  "nfs",
  "rbd",
  "quobyte",
  "cephfs",
  "iscsi",
  "cinder",
  "fc",
  "flexVolume",
  "azureFile",
  "vsphereVolume",
  "photonPersistentDisk",
  "portworxVolume",
  "azureDisk",
  "scaleIO",
  "local",
  "storageos",
  "csi",
] as const;

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: PersistentVolumeAccessMode[];
  claimRef?: ObjectReference | null;
  persistentVolumeReclaimPolicy?: PersistentVolumeReclaimPolicy;
  storageClassName?: string;
  mountOptions?: string[];
  volumeMode?: PersistentVolumeMode | null;
  nodeAffinity?: { required?: NodeSelector | null } | null;
  volumeAttributesClassName?: string | null;
  hostPath?: { path: string; type?: string } | null;
  local?: { path: string; fsType?: string } | null;
  csi?: { driver: string; volumeHandle: string; [field: string]: unknown } | null;
  nfs?: { server: string; path: string; readOnly?: boolean } | null;
  [otherSource: string]: unknown;
}

export interface PersistentVolumeStatus {
  phase?: PersistentVolumePhase;
  message?: string;
  reason?: string;
  lastPhaseTransitionTime?: string;
}

export interface PersistentVolume extends KubeObject {
  spec?: PersistentVolumeSpec;
  status?: PersistentVolumeStatus;
}

/**
 * `SetDefaults_PersistentVolume`: phase Pending, reclaim policy Retain, volume mode Filesystem.
 * Quantities are canonicalized as the Go decoder does.
 */
export function applyPersistentVolumeDefaults(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.status ??= {};
  pv.status.phase ??= "Pending";
  if ((pv.spec.persistentVolumeReclaimPolicy ?? "") === "") {
    pv.spec.persistentVolumeReclaimPolicy = "Retain";
  }
  pv.spec.volumeMode ??= "Filesystem";
  canonicalizeQuantities(pv.spec.capacity);
}

/** `SetDefaults_PersistentVolumeClaim` and `…ClaimSpec`: phase Pending, mode Filesystem. */
export function applyPersistentVolumeClaimDefaults(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.status ??= {};
  pvc.status.phase ??= "Pending";
  pvc.spec.volumeMode ??= "Filesystem";
  pvc.spec.resources ??= {};
  canonicalizeQuantities(pvc.spec.resources.requests);
  canonicalizeQuantities(pvc.spec.resources.limits);
  canonicalizeQuantities(pvc.status.capacity);
}
