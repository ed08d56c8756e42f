/**
 * storage.k8s.io/v1 StorageClass: type, the default-class annotation and defaults
 * (`SetDefaults_StorageClass`, pkg/apis/storage/v1/defaults.go, 1.33).
 */

import { newestByCreation } from "../../meta/newest.ts";
import type { KubeObject } from "../../meta/types.ts";

export type VolumeBindingMode = "Immediate" | "WaitForFirstConsumer";

/** What default-class picking reads of a class (a cached, read-only object will do). */
interface ClassMetadata {
  readonly metadata: {
    readonly name?: string;
    readonly creationTimestamp?: string | null;
    readonly annotations?: Readonly<Record<string, string>>;
  };
}

/** The annotation that marks the cluster's default StorageClass. */
export const isDefaultStorageClassAnnotation = "storageclass.kubernetes.io/is-default-class";
/** The beta spelling upstream still honours. */
export const betaIsDefaultStorageClassAnnotation =
  "storageclass.beta.kubernetes.io/is-default-class";

export interface TopologySelectorTerm {
  matchLabelExpressions?: { key: string; values: string[] }[];
}

export interface StorageClass extends KubeObject {
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: "Delete" | "Retain" | "Recycle";
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: VolumeBindingMode;
  allowedTopologies?: TopologySelectorTerm[];
}

/** `SetDefaults_StorageClass`: reclaim policy Delete, binding mode Immediate. */
export function applyStorageClassDefaults(storageClass: StorageClass): void {
  if ((storageClass.reclaimPolicy ?? "") === "") storageClass.reclaimPolicy = "Delete";
  if ((storageClass.volumeBindingMode ?? "") === "") storageClass.volumeBindingMode = "Immediate";
}

/**
 * The default StorageClass among `classes` (storage/util's `GetDefaultClass`): those marked
 * default, newest first, ties by name. `undefined` when none is. Used by the DefaultStorageClass
 * admission plugin and by the persistentvolume-binder's retroactive assignment.
 */
export function pickDefaultStorageClass<C extends ClassMetadata>(
  classes: readonly C[],
): C | undefined {
  return newestByCreation(classes.filter(isDefaultStorageClass));
}

/** `IsDefaultAnnotation` (storage/util): either spelling of the annotation set to `"true"`. */
export function isDefaultStorageClass(storageClass: ClassMetadata): boolean {
  const annotations = storageClass.metadata.annotations ?? {};
  return (
    annotations[isDefaultStorageClassAnnotation] === "true" ||
    annotations[betaIsDefaultStorageClassAnnotation] === "true"
  );
}
