// The public surface of storage.k8s.io/v1.
export { storageClassKind, storageV1Kinds } from "./kinds.ts";
export { storageName, storageV1Definitions } from "./schema.ts";
export {
  applyStorageClassDefaults,
  betaIsDefaultStorageClassAnnotation,
  isDefaultStorageClass,
  isDefaultStorageClassAnnotation,
  pickDefaultStorageClass,
  type StorageClass,
  type TopologySelectorTerm,
  type VolumeBindingMode,
} from "./storage-class.ts";
export { validateStorageClass, validateStorageClassUpdate } from "./validation.ts";
