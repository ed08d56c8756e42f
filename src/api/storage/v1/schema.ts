/** Named schema definitions of `storage.k8s.io/v1` StorageClass. */
import { kindSchema, listSchema } from "../../apps/v1/schema-helpers.ts";
import { atomicList, bool, obj, str, stringMap } from "../../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../../schema/schema.ts";

/** `io.k8s.api.storage.v1.<name>`. */
export function storageName(name: string): string {
  return `io.k8s.api.storage.v1.${name}`;
}

const gv = { group: "storage.k8s.io", version: "v1" };
const topologyTermName = "io.k8s.api.core.v1.TopologySelectorTerm";
const topologyRequirementName = "io.k8s.api.core.v1.TopologySelectorLabelRequirement";
const atomic = (schema: Schema): Schema => ({ ...schema, "x-kubernetes-map-type": "atomic" });

export const storageV1Definitions: Definitions = {
  [storageName("StorageClass")]: kindSchema(
    { ...gv, kind: "StorageClass" },
    "StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.\n\nStorageClasses are non-namespaced; the name of the storage class according to etcd is in ObjectMeta.Name.",
    {
      provisioner: str("provisioner indicates the type of the provisioner."),
      parameters: stringMap(
        "parameters holds the parameters for the provisioner that should create volumes of this storage class.",
      ),
      reclaimPolicy: str(
        "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.",
      ),
      mountOptions: atomicList(
        str(),
        'mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this storage class. e.g. ["ro", "soft"]. Not validated - mount of the PVs will simply fail if one is invalid.',
      ),
      allowVolumeExpansion: bool(
        "allowVolumeExpansion shows whether the storage class allow volume expand.",
      ),
      volumeBindingMode: str(
        "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.",
      ),
      allowedTopologies: atomicList(
        ref(topologyTermName),
        "allowedTopologies restrict the node topologies where volumes can be dynamically provisioned. Each volume plugin defines its own supported topology specifications. An empty TopologySelectorTerm list means there is no topology restriction. This field is only honored by servers that enable the VolumeScheduling feature.",
      ),
    },
    ["provisioner"],
  ),
  [storageName("StorageClassList")]: listSchema(
    { ...gv, kind: "StorageClassList" },
    storageName("StorageClass"),
  ),
  [topologyTermName]: atomic(
    obj(
      {
        matchLabelExpressions: atomicList(
          ref(topologyRequirementName),
          "A list of topology selector requirements by labels.",
        ),
      },
      {
        description:
          "A topology selector term represents the result of label queries. A null or empty topology selector term matches no objects. The requirements of them are ANDed. It provides a subset of functionality as NodeSelectorTerm. This is an alpha feature and may change in the future.",
      },
    ),
  ),
  [topologyRequirementName]: obj(
    {
      key: str("The label key that the selector applies to."),
      values: atomicList(
        str(),
        "An array of string values. One value must match the label to be selected. Each entry in Values is ORed.",
      ),
    },
    {
      description:
        "A topology selector requirement is a selector that matches given label. This is an alpha feature and may change in the future.",
      required: ["key", "values"],
    },
  ),
};
