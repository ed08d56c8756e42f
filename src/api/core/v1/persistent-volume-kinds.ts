/** The core/v1 PersistentVolume (cluster-scoped, `pv`) and PersistentVolumeClaim (`pvc`) kinds. */
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import { coreSchemaRoot } from "./kind-helpers.ts";
import {
  applyPersistentVolumeClaimDefaults,
  applyPersistentVolumeDefaults,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from "./persistent-volume.ts";
import {
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
  validatePersistentVolumeStatusUpdate,
  validatePersistentVolumeUpdate,
} from "./persistent-volume-validation.ts";

export const persistentVolumeKind: KindDefinition<PersistentVolume> = {
  group: "",
  version: "v1",
  kind: "PersistentVolume",
  listKind: "PersistentVolumeList",
  resource: "persistentvolumes",
  singular: "persistentvolume",
  namespaced: false,
  shortNames: ["pv"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("PersistentVolume"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyPersistentVolumeDefaults,
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
  validateStatusUpdate: validatePersistentVolumeStatusUpdate,
};

export const persistentVolumeClaimKind: KindDefinition<PersistentVolumeClaim> = {
  group: "",
  version: "v1",
  kind: "PersistentVolumeClaim",
  listKind: "PersistentVolumeClaimList",
  resource: "persistentvolumeclaims",
  singular: "persistentvolumeclaim",
  namespaced: true,
  shortNames: ["pvc"],
  categories: [],
  verbs: allVerbs,
  schema: coreSchemaRoot("PersistentVolumeClaim"),
  tracksGeneration: false,
  subresources: { status: true },
  applyDefaults: applyPersistentVolumeClaimDefaults,
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
  validateStatusUpdate: validatePersistentVolumeClaimStatusUpdate,
};
