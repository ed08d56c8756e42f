// The persistentvolume-binder controller and what it decides without the API.
export {
  newPersistentVolumeBinder,
  type PersistentVolumeBinderDeps,
  type PersistentVolumeBinderOptions,
} from "./binder.ts";
export {
  annBindCompleted,
  annBoundByController,
  annDynamicallyProvisioned,
  annSelectedNode,
  emulatedProvisioner,
  findMatchingVolume,
  provisionedVolume,
} from "./matching.ts";
