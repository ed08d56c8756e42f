import {
  betaStorageClassAnnotation,
  type PersistentVolumeClaim,
  pickDefaultStorageClass,
  type StorageClass,
} from "../../../api/index.ts";
import { type AdmissionPlugin, admit, type ObjectReader } from "../admission.ts";

const segment = "storageclasses.storage.k8s.io";

/**
 * DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a new
 * PersistentVolumeClaim with no class — neither `spec.storageClassName` (an explicit `""`
 * counts as a class: "no class") nor the beta annotation — gets the default StorageClass's
 * name (the newest class marked default; `pickDefaultStorageClass`). Nothing happens when no
 * class is marked default.
 */
export function newDefaultStorageClass(reader: ObjectReader): AdmissionPlugin {
  return {
    name: "DefaultStorageClass",
    handles: (a) =>
      a.operation === "CREATE" &&
      a.group === "" &&
      a.resource === "persistentvolumeclaims" &&
      a.subresource === "",
    async mutate(a) {
      const claim = a.object as PersistentVolumeClaim;
      claim.spec ??= {};
      if (claim.metadata.annotations?.[betaStorageClassAnnotation] !== undefined) return admit;
      if (claim.spec.storageClassName !== undefined && claim.spec.storageClassName !== null) {
        return admit;
      }
      // A class created a moment ago (kubectl apply of a class, then a claim) must count, so
      // the list is read once the cache has caught up with storage.
      await reader.getFresh(segment, "", "");
      const chosen = pickDefaultStorageClass(reader.list(segment, "") as unknown as StorageClass[]);
      if (chosen?.metadata.name !== undefined) claim.spec.storageClassName = chosen.metadata.name;
      return admit;
    },
  };
}
