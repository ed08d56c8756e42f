/** Named schema definitions of `apps/v1` StatefulSet, with `kubectl explain` descriptions. */
import {
  anyValue,
  atomicList,
  int32,
  int64,
  intOrString,
  mapList,
  obj,
  str,
} from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";
import {
  appsCondition,
  appsName,
  kindSchema,
  labelSelectorName,
  listSchema,
  metadataRef,
  podTemplateSpecName,
  typeMetaProperties,
} from "./schema-helpers.ts";

const gv = { group: "apps", version: "v1" };

export const statefulSetDefinitions: Definitions = {
  [appsName("StatefulSet")]: kindSchema(
    { ...gv, kind: "StatefulSet" },
    "StatefulSet represents a set of pods with consistent identities. Identities are defined as network (a single stable DNS and hostname) and storage (as many VolumeClaims as requested).",
    {
      spec: ref(
        appsName("StatefulSetSpec"),
        "Spec defines the desired identities of pods in this set.",
      ),
      status: ref(
        appsName("StatefulSetStatus"),
        "Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.",
      ),
    },
  ),
  [appsName("StatefulSetList")]: listSchema(
    { ...gv, kind: "StatefulSetList" },
    appsName("StatefulSet"),
  ),
  [appsName("StatefulSetSpec")]: obj(
    {
      replicas: int32(
        "replicas is the desired number of replicas of the given Template. These are replicas in the sense that they are instantiations of the same Template, but individual replicas also have a consistent identity. Defaults to 1.",
      ),
      selector: ref(
        labelSelectorName,
        "selector is a label query over pods that should match the replica count. It must match the pod template's labels.",
      ),
      template: ref(
        podTemplateSpecName,
        `template is the object that describes the pod that will be created if insufficient replicas are detected. The only allowed template.spec.restartPolicy value is "Always".`,
      ),
      volumeClaimTemplates: atomicList(
        ref(appsName("PersistentVolumeClaimTemplate")),
        "volumeClaimTemplates is a list of claims that pods are allowed to reference.",
      ),
      serviceName: str(
        "serviceName is the name of the service that governs this StatefulSet. This service must exist before the StatefulSet, and is responsible for the network identity of the set.",
      ),
      podManagementPolicy: str(
        "podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. The default policy is `OrderedReady`.",
        { enum: ["OrderedReady", "Parallel"] },
      ),
      updateStrategy: ref(
        appsName("StatefulSetUpdateStrategy"),
        "updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.",
      ),
      revisionHistoryLimit: int32(
        "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. The revision history consists of all revisions not represented by a currently applied StatefulSetSpec version. The default value is 10.",
      ),
      minReadySeconds: int32(
        "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)",
      ),
      persistentVolumeClaimRetentionPolicy: ref(
        appsName("StatefulSetPersistentVolumeClaimRetentionPolicy"),
        "persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates. By default, all persistent volume claims are created as needed and retained until manually deleted.",
      ),
      ordinals: ref(
        appsName("StatefulSetOrdinals"),
        'ordinals controls the numbering of replica indices in a StatefulSet. The default ordinals behavior assigns a "0" index to the first replica and increments the index by one for each additional replica requested.',
      ),
    },
    {
      description: "A StatefulSetSpec is the specification of a StatefulSet.",
      required: ["selector", "template"],
    },
  ),
  [appsName("PersistentVolumeClaimTemplate")]: obj(
    {
      ...typeMetaProperties(),
      metadata: metadataRef(),
      spec: anyValue(
        "spec defines the desired characteristics of a volume requested by a pod author.",
      ),
      status: anyValue(
        "status represents the current information/status of a persistent volume claim.",
      ),
    },
    {
      description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
    },
  ),
  [appsName("StatefulSetUpdateStrategy")]: obj(
    {
      type: str(
        "Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.",
        {
          enum: ["OnDelete", "RollingUpdate"],
        },
      ),
      rollingUpdate: ref(
        appsName("RollingUpdateStatefulSetStrategy"),
        "RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.",
      ),
    },
    {
      description:
        "StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates. It includes any additional parameters necessary to perform the update for the indicated strategy.",
    },
  ),
  [appsName("RollingUpdateStatefulSetStrategy")]: obj(
    {
      partition: int32(
        "Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. During a rolling update, all pods from ordinal Replicas-1 to Partition are updated. All pods from ordinal Partition-1 to 0 remain untouched. The default value is 0.",
      ),
      maxUnavailable: intOrString(
        "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding up. This can not be 0. Defaults to 1.",
      ),
    },
    {
      description:
        "RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.",
    },
  ),
  [appsName("StatefulSetPersistentVolumeClaimRetentionPolicy")]: obj(
    {
      whenDeleted: str(
        "WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted. The default policy of `Retain` causes PVCs to not be affected by StatefulSet deletion.",
        { enum: ["Delete", "Retain"] },
      ),
      whenScaled: str(
        "WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down. The default policy of `Retain` causes PVCs to not be affected by a scaledown.",
        { enum: ["Delete", "Retain"] },
      ),
    },
    {
      description:
        "StatefulSetPersistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from the StatefulSet VolumeClaimTemplates.",
    },
  ),
  [appsName("StatefulSetOrdinals")]: obj(
    {
      start: int32(
        "start is the number representing the first replica's index. It may be used to number replicas from an alternate index (eg: 1-indexed) over the default 0-indexed names, or to orchestrate progressive movement of replicas from one StatefulSet to another. If set, replica indices will be in the range [.spec.ordinals.start, .spec.ordinals.start + .spec.replicas). Defaults to 0.",
      ),
    },
    {
      description:
        "StatefulSetOrdinals describes the policy used for replica ordinal assignment in this StatefulSet.",
    },
  ),
  [appsName("StatefulSetStatus")]: obj(
    {
      observedGeneration: int64(
        "observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the StatefulSet's generation, which is updated on mutation by the API Server.",
      ),
      replicas: int32("replicas is the number of Pods created by the StatefulSet controller."),
      readyReplicas: int32(
        "readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.",
      ),
      currentReplicas: int32(
        "currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.",
      ),
      updatedReplicas: int32(
        "updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.",
      ),
      currentRevision: str(
        "currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).",
      ),
      updateRevision: str(
        "updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)",
      ),
      collisionCount: int32(
        "collisionCount is the count of hash collisions for the StatefulSet. The StatefulSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.",
      ),
      conditions: mapList(ref(appsName("StatefulSetCondition")), "type", {
        description:
          "Represents the latest available observations of a statefulset's current state.",
      }),
      availableReplicas: int32(
        "Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.",
      ),
    },
    {
      description: "StatefulSetStatus represents the current state of a StatefulSet.",
      required: ["replicas"],
    },
  ),
  [appsName("StatefulSetCondition")]: appsCondition("StatefulSet", false),
};
