/** Named schemas of core/v1 PersistentVolume, PersistentVolumeClaim and PodTemplate. */
import { metaDefinitionNames as m } from "../../meta/schema.ts";
import { atomicList, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../../schema/schema.ts";
import { kindSchema, listSchema } from "./schema-kind.ts";
import { core, coreName, resourceList, timeRef } from "./schema-pod-template.ts";

const strings = (description: string): Schema => atomicList(str(), description);

/** A volume source gantry does not model: any object, kept as sent. */
const keptAsSent = (name: string): Schema => ({
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
  description: `A ${name} persistent volume source, kept as sent.`,
});

const otherPvSources = [
  "gcePersistentDisk",
  "awsElasticBlockStore",
  "glusterfs",
  "rbd",
  "quobyte",
  "cephfs",
  "iscsi",
  "cinder",
  "fc",
  "flocker",
  "flexVolume",
  "azureFile",
  "vsphereVolume",
  "azureDisk",
  "photonPersistentDisk",
  "portworxVolume",
  "scaleIO",
  "storageos",
];

const typedReference = (description: string, namespaced: boolean): Schema => ({
  ...obj(
    {
      apiGroup: str("APIGroup is the group for the resource being referenced."),
      kind: str("Kind is the type of resource being referenced"),
      name: str("Name is the name of resource being referenced"),
      ...(namespaced
        ? { namespace: str("Namespace is the namespace of resource being referenced") }
        : {}),
    },
    { description, required: ["kind", "name"] },
  ),
  "x-kubernetes-map-type": "atomic",
});

function pvSpecFields(): Record<string, Schema> {
  const fields: Record<string, Schema> = {
    capacity: resourceList(
      "capacity is the description of the persistent volume's resources and capacity.",
    ),
    accessModes: strings("accessModes contains all ways the volume can be mounted."),
    claimRef: core(
      "ObjectReference",
      "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.",
    ),
    persistentVolumeReclaimPolicy: str(
      "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated).",
    ),
    storageClassName: str(
      "storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.",
    ),
    mountOptions: strings('mountOptions is the list of mount options, e.g. ["ro", "soft"].'),
    volumeMode: str(
      "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.",
    ),
    nodeAffinity: core(
      "VolumeNodeAffinity",
      "nodeAffinity defines constraints that limit what nodes this volume can be accessed from.",
    ),
    volumeAttributesClassName: str(
      "Name of VolumeAttributesClass to which this persistent volume belongs.",
    ),
    hostPath: core("HostPathVolumeSource", "hostPath represents a directory on the host."),
    local: core(
      "LocalVolumeSource",
      "local represents directly-attached storage with node affinity",
    ),
    csi: core(
      "CSIPersistentVolumeSource",
      "csi represents storage that is handled by an external CSI driver.",
    ),
    nfs: core("NFSVolumeSource", "nfs represents an NFS mount on the host."),
  };
  for (const name of otherPvSources) fields[name] = keptAsSent(name);
  return fields;
}

export const storageDefinitions: Definitions = {
  [coreName("PersistentVolume")]: kindSchema(
    "PersistentVolume",
    "PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes",
    {
      spec: core(
        "PersistentVolumeSpec",
        "spec defines a specification of a persistent volume owned by the cluster.",
      ),
      status: core(
        "PersistentVolumeStatus",
        "status represents the current information/status for the persistent volume.",
      ),
    },
  ),
  [coreName("PersistentVolumeList")]: listSchema("PersistentVolume", core("PersistentVolume")),
  [coreName("PersistentVolumeSpec")]: obj(pvSpecFields(), {
    description: "PersistentVolumeSpec is the specification of a persistent volume.",
  }),
  [coreName("PersistentVolumeStatus")]: obj(
    {
      phase: str(
        "phase indicates if a volume is available, bound to a claim, or released by a claim.",
      ),
      message: str(
        "message is a human-readable message indicating details about why the volume is in this state.",
      ),
      reason: str(
        "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.",
      ),
      lastPhaseTransitionTime: timeRef(
        "lastPhaseTransitionTime is the time the phase transitioned from one to another.",
      ),
    },
    { description: "PersistentVolumeStatus is the current status of a persistent volume." },
  ),
  [coreName("VolumeNodeAffinity")]: obj(
    {
      required: core("NodeSelector", "required specifies hard node constraints that must be met."),
    },
    {
      description:
        "VolumeNodeAffinity defines constraints that limit what nodes this volume can be accessed from.",
    },
  ),
  [coreName("LocalVolumeSource")]: obj(
    {
      path: str("path of the full path to the volume on the node."),
      fsType: str("fsType is the filesystem type to mount."),
    },
    {
      description: "Local represents directly-attached storage with node affinity",
      required: ["path"],
    },
  ),
  [coreName("NFSVolumeSource")]: obj(
    {
      server: str("server is the hostname or IP address of the NFS server."),
      path: str("path that is exported by the NFS server."),
      readOnly: {
        type: "boolean",
        description:
          "readOnly here will force the NFS export to be mounted with read-only permissions.",
      },
    },
    {
      description: "Represents an NFS mount that lasts the lifetime of a pod.",
      required: ["server", "path"],
    },
  ),
  [coreName("CSIPersistentVolumeSource")]: {
    ...obj(
      {
        driver: str("driver is the name of the driver to use for this volume. Required."),
        volumeHandle: str(
          "volumeHandle is the unique volume name returned by the CSI volume plugin's CreateVolume to refer to the volume on all subsequent calls. Required.",
        ),
      },
      {
        description: "Represents storage that is managed by an external CSI volume driver",
        required: ["driver", "volumeHandle"],
      },
    ),
    "x-kubernetes-preserve-unknown-fields": true,
  },
  [coreName("PersistentVolumeClaim")]: kindSchema(
    "PersistentVolumeClaim",
    "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
    {
      spec: core(
        "PersistentVolumeClaimSpec",
        "spec defines the desired characteristics of a volume requested by a pod author.",
      ),
      status: core(
        "PersistentVolumeClaimStatus",
        "status represents the current information/status of a persistent volume claim. Read-only.",
      ),
    },
  ),
  [coreName("PersistentVolumeClaimList")]: listSchema(
    "PersistentVolumeClaim",
    core("PersistentVolumeClaim"),
  ),
  [coreName("PersistentVolumeClaimSpec")]: obj(
    {
      accessModes: strings("accessModes contains the desired access modes the volume should have."),
      selector: ref(
        m.labelSelector,
        "selector is a label query over volumes to consider for binding.",
      ),
      resources: core(
        "VolumeResourceRequirements",
        "resources represents the minimum resources the volume should have.",
      ),
      volumeName: str(
        "volumeName is the binding reference to the PersistentVolume backing this claim.",
      ),
      storageClassName: str(
        "storageClassName is the name of the StorageClass required by the claim.",
      ),
      volumeMode: str(
        "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.",
      ),
      dataSource: typedReference(
        "dataSource field can be used to specify an existing VolumeSnapshot object or an existing PVC.",
        false,
      ),
      dataSourceRef: typedReference(
        "dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired.",
        true,
      ),
      volumeAttributesClassName: str(
        "volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.",
      ),
    },
    {
      description:
        "PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes",
    },
  ),
  [coreName("VolumeResourceRequirements")]: obj(
    {
      limits: resourceList("Limits describes the maximum amount of compute resources allowed."),
      requests: resourceList(
        "Requests describes the minimum amount of compute resources required.",
      ),
    },
    {
      description:
        "VolumeResourceRequirements describes the storage resource requirements for a volume.",
    },
  ),
  [coreName("PersistentVolumeClaimStatus")]: obj(
    {
      phase: str("phase represents the current phase of PersistentVolumeClaim."),
      accessModes: strings(
        "accessModes contains the actual access modes the volume backing the PVC has.",
      ),
      capacity: resourceList("capacity represents the actual resources of the underlying volume."),
      conditions: {
        type: "array",
        items: core("PersistentVolumeClaimCondition"),
        description: "conditions is the current Condition of persistent volume claim.",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"],
        "x-kubernetes-patch-merge-key": "type",
        "x-kubernetes-patch-strategy": "merge",
      },
      allocatedResources: resourceList(
        "allocatedResources tracks the resources allocated to a PVC including its capacity.",
      ),
      allocatedResourceStatuses: {
        type: "object",
        additionalProperties: str(),
        description:
          "allocatedResourceStatuses stores status of resource being resized for the given PVC.",
        "x-kubernetes-map-type": "granular",
      },
      currentVolumeAttributesClassName: str(
        "currentVolumeAttributesClassName is the current name of the VolumeAttributesClass the PVC is using.",
      ),
      modifyVolumeStatus: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        description:
          "ModifyVolumeStatus represents the status object of ControllerModifyVolume operation.",
      },
    },
    {
      description:
        "PersistentVolumeClaimStatus is the current status of a persistent volume claim.",
    },
  ),
  [coreName("PersistentVolumeClaimCondition")]: obj(
    {
      type: str("Type is the type of the condition."),
      status: str("Status is the status of the condition."),
      lastProbeTime: timeRef("lastProbeTime is the time we probed the condition."),
      lastTransitionTime: timeRef(
        "lastTransitionTime is the time the condition transitioned from one status to another.",
      ),
      reason: str(
        "reason is a unique, this should be a short, machine understandable string that gives the reason for condition's last transition.",
      ),
      message: str(
        "message is the human-readable message indicating details about last transition.",
      ),
    },
    {
      description: "PersistentVolumeClaimCondition contains details about state of pvc",
      required: ["type", "status"],
    },
  ),
  [coreName("PodTemplate")]: kindSchema(
    "PodTemplate",
    "PodTemplate describes a template for creating copies of a predefined pod.",
    {
      template: core(
        "PodTemplateSpec",
        "Template defines the pods that will be created from this pod template.",
      ),
    },
  ),
  [coreName("PodTemplateList")]: listSchema("PodTemplate", core("PodTemplate")),
};
