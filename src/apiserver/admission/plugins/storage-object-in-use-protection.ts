import type { KubeObject } from "../../../api/index.ts";
import { type AdmissionPlugin, admit } from "../admission.ts";

/** The finalizers the pvc-protection and pv-protection controllers remove. */
export const pvcProtectionFinalizer = "kubernetes.io/pvc-protection";
export const pvProtectionFinalizer = "kubernetes.io/pv-protection";

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection): a
 * new PersistentVolumeClaim gets the `kubernetes.io/pvc-protection` finalizer and a new
 * PersistentVolume `kubernetes.io/pv-protection`, once each, so neither is removed while in use.
 */
export function newStorageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: "StorageObjectInUseProtection",
    handles: (a) =>
      a.operation === "CREATE" &&
      a.group === "" &&
      (a.resource === "persistentvolumeclaims" || a.resource === "persistentvolumes") &&
      a.subresource === "",
    mutate(a) {
      const object = a.object as KubeObject;
      const finalizer =
        a.resource === "persistentvolumes" ? pvProtectionFinalizer : pvcProtectionFinalizer;
      const finalizers = object.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) object.metadata.finalizers = [...finalizers, finalizer];
      return admit;
    },
  };
}
