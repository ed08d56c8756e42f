/**
 * The `leaderworkersets.leaderworkerset.x-k8s.io` CustomResourceDefinition gantry installs at
 * start-up: upstream's (kubernetes-sigs/lws config/crd/bases) names, scope, subresources,
 * printer columns and defaults, with a structural schema for the fields the controller reads.
 * Pod templates and claim templates keep whatever they are sent (`preserve-unknown-fields`)
 * instead of upstream's full PodSpec schema; the pods created from them are validated as pods.
 * Two defaults upstream's mutating webhook sets are schema defaults here: a missing
 * `rolloutStrategy.rollingUpdateConfiguration` and a missing `networkConfig`. Every declared
 * field carries upstream's description (the doc comments of lws's api/leaderworkerset/v1 types,
 * which its CRD YAML is generated from), so `kubectl explain lws.spec` reads as upstream's.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from "../../api/index.ts";
import { condition, typeMeta } from "./common-descriptions.ts";
import { describe, lines } from "./describe.ts";
import { podTemplateDescriptions } from "./pod-template-descriptions.ts";

const int32 = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "integer",
  format: "int32",
  description,
  ...extra,
});

const intOrString = (description: string, fallback: number): JSONSchemaProps => ({
  anyOf: [{ type: "integer" }, { type: "string" }],
  "x-kubernetes-int-or-string": true,
  default: fallback,
  description,
});

const stringMap: JSONSchemaProps = { type: "object", additionalProperties: { type: "string" } };

/** A PodTemplateSpec: typed metadata as upstream's schema has it, the pod spec kept as sent. */
function podTemplate(description: string): JSONSchemaProps {
  const template: JSONSchemaProps = {
    type: "object",
    properties: {
      metadata: {
        type: "object",
        properties: {
          annotations: stringMap,
          finalizers: { type: "array", items: { type: "string" } },
          labels: stringMap,
          name: { type: "string" },
          namespace: { type: "string" },
        },
      },
      spec: {
        type: "object",
        required: ["containers"],
        properties: {
          containers: {
            type: "array",
            items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
        },
        "x-kubernetes-preserve-unknown-fields": true,
      },
    },
  };
  return describe(template, { "": description, ...podTemplateDescriptions });
}

const conditionSchema: JSONSchemaProps = describe(
  {
    type: "object",
    required: ["lastTransitionTime", "message", "reason", "status", "type"],
    properties: {
      lastTransitionTime: { type: "string", format: "date-time" },
      message: { type: "string", maxLength: 32768 },
      observedGeneration: { type: "integer", format: "int64", minimum: 0 },
      reason: {
        type: "string",
        maxLength: 1024,
        minLength: 1,
        pattern: "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
      },
      status: { type: "string", enum: ["True", "False", "Unknown"] },
      type: {
        type: "string",
        maxLength: 316,
        pattern:
          "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
      },
    },
  },
  {
    "": "Condition contains details for one aspect of the current state of this API Resource.",
    ...condition,
  },
);

const specSchema: JSONSchemaProps = {
  type: "object",
  description: "spec defines the desired behavior of LeaderWorkerSet.",
  required: ["leaderWorkerTemplate"],
  properties: {
    leaderWorkerTemplate: {
      type: "object",
      description: "leaderWorkerTemplate defines the template for leader/worker pods",
      required: ["workerTemplate"],
      properties: {
        leaderTemplate: podTemplate("leaderTemplate defines the pod template for leader pods."),
        workerTemplate: podTemplate("workerTemplate defines the pod template for worker pods."),
        size: int32(
          lines(
            "size is the number of pods to create. It is the total number of pods in each group.",
            "The minimum is 1 which represent the leader. When set to 1, the leader",
            "pod is created for each group as well as a 0-replica StatefulSet for the workers.",
            "Default to 1.",
          ),
          { default: 1 },
        ),
        restartPolicy: {
          type: "string",
          description: lines(
            "restartPolicy defines the restart policy when pod failures happen.",
            "The former named Default policy is deprecated, will be removed in the future,",
            "replace with None policy for the same behavior.",
          ),
          enum: ["Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"],
          default: "RecreateGroupOnPodRestart",
        },
        subGroupPolicy: {
          type: "object",
          description: lines(
            "subGroupPolicy describes the policy that will be applied when creating subgroups",
            "in each replica.",
          ),
          properties: {
            subGroupPolicyType: {
              type: "string",
              description: lines(
                "subGroupPolicyType defines what type of Subgroups to create. Defaults to",
                "LeaderWorker",
              ),
              enum: ["LeaderWorker", "LeaderExcluded"],
              default: "LeaderWorker",
            },
            subGroupSize: int32(
              lines(
                "subGroupSize is the number of pods per subgroup. This value is immutable,",
                "and must not be greater than LeaderWorkerSet.Spec.Size.",
                "Size must be divisible by subGroupSize in which case the",
                "subgroups will be of equal size. Or size - 1 is divisible",
                "by subGroupSize, in which case the leader is considered as",
                "the extra pod, and will be part of the first subgroup.",
              ),
            ),
          },
        },
        volumeClaimTemplates: {
          type: "array",
          description: lines(
            "volumeClaimTemplates is a list of claims that pods are allowed to reference.",
            "Every claim in this list must have at least one matching (by name) volumeMount",
            "in one container in the template. A claim in this list takes precedence over",
            "any volumes in the template, with the same name.",
          ),
          items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
        persistentVolumeClaimRetentionPolicy: {
          type: "object",
          description: lines(
            "persistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from",
            "the VolumeClaimTemplates.",
          ),
          properties: {
            whenDeleted: {
              type: "string",
              description: lines(
                "WhenDeleted specifies what happens to PVCs created from StatefulSet",
                "VolumeClaimTemplates when the StatefulSet is deleted. The default policy",
                "of `Retain` causes PVCs to not be affected by StatefulSet deletion. The",
                "`Delete` policy causes those PVCs to be deleted.",
              ),
            },
            whenScaled: {
              type: "string",
              description: lines(
                "WhenScaled specifies what happens to PVCs created from StatefulSet",
                "VolumeClaimTemplates when the StatefulSet is scaled down. The default",
                "policy of `Retain` causes PVCs to not be affected by a scaledown. The",
                "`Delete` policy causes the associated PVCs for any excess pods above",
                "the replica count to be deleted.",
              ),
            },
          },
        },
      },
    },
    networkConfig: {
      type: "object",
      description: "networkConfig defines the network configuration of the group",
      required: ["subdomainPolicy"],
      properties: {
        subdomainPolicy: {
          type: "string",
          description: lines(
            "subdomainPolicy determines the policy that will be used when creating",
            "the headless service, defaults to shared",
          ),
          enum: ["Shared", "UniquePerReplica"],
        },
      },
      default: { subdomainPolicy: "Shared" },
    },
    replicas: int32(
      lines(
        "replicas is the number of leader-workers groups. A scale subresource is available to enable HPA. The",
        "selector for HPA will be that of the leader pod, and so practically HPA will be looking up the",
        "leader pod metrics. Note that the leader pod could aggregate metrics from",
        "the rest of the group and expose them as a summary custom metric representing the whole",
        "group.",
        "On scale down, the leader pod as well as the workers statefulset will be deleted.",
        "Default to 1.",
      ),
      { default: 1 },
    ),
    rolloutStrategy: {
      type: "object",
      description: lines(
        "rolloutStrategy defines the strategy that will be applied to update replicas",
        "when a revision is made to the leaderWorkerTemplate.",
      ),
      required: ["type"],
      properties: {
        rollingUpdateConfiguration: {
          type: "object",
          description:
            "rollingUpdateConfiguration defines the parameters to be used when type is RollingUpdateStrategyType.",
          properties: {
            maxSurge: intOrString(
              lines(
                "maxSurge is the maximum number of replicas that can be scheduled above the original number of",
                "replicas.",
                "Value can be an absolute number (ex: 5) or a percentage of total replicas at",
                "the start of the update (ex: 10%).",
                "Absolute number is calculated from percentage by rounding up.",
                "By default, a value of 0 is used.",
                "Example: when this is set to 30%, the new replicas can be scaled up by 30%",
                "immediately when the rolling update starts. Once old replicas have been deleted,",
                "new replicas can be scaled up further, ensuring that total number of replicas running",
                "at any time during the update is at most 130% of original replicas.",
                "When rolling update completes, replicas will fall back to the original replicas.",
              ),
              0,
            ),
            maxUnavailable: intOrString(
              lines(
                "maxUnavailable is the maximum number of replicas that can be unavailable during the update.",
                "Value can be an absolute number (ex: 5) or a percentage of total replicas at the start of update (ex: 10%).",
                "Absolute number is calculated from percentage by rounding down.",
                "This can not be 0 if MaxSurge is 0.",
                "By default, a fixed value of 1 is used.",
                "Example: when this is set to 30%, the old replicas can be scaled down by 30%",
                "immediately when the rolling update starts. Once new replicas are ready, old replicas",
                "can be scaled down further, followed by scaling up the new replicas, ensuring",
                "that at least 70% of original number of replicas are available at all times",
                "during the update.",
              ),
              1,
            ),
            partition: int32(
              lines(
                "partition indicates the ordinal at which the lws should be partitioned for updates.",
                "During a rolling update, all the groups from ordinal Partition to Replicas-1 will be updated.",
                "The groups from 0 to Partition-1 will not be updated.",
                "This is helpful in incremental rollout strategies like canary deployments",
                "or interactive rollout strategies for multiple replicas like xPyD deployments.",
                "Once partition field and maxSurge field both set, the bursted replicas will keep remaining",
                "until the rolling update is completely done and the partition field is reset to 0.",
                "This is as expected to reduce the reconciling complexity.",
                "The default value is 0.",
              ),
              { default: 0 },
            ),
          },
          default: {},
        },
        type: {
          type: "string",
          description: "type defines the rollout strategy, it can only be “RollingUpdate” for now.",
          enum: ["RollingUpdate"],
          default: "RollingUpdate",
        },
      },
      default: { type: "RollingUpdate" },
    },
    startupPolicy: {
      type: "string",
      description: "startupPolicy determines the startup policy for the worker statefulset.",
      enum: ["LeaderCreated", "LeaderReady"],
      default: "LeaderCreated",
    },
  },
};

const statusSchema: JSONSchemaProps = {
  type: "object",
  description: "status represents the current status of LeaderWorkerSet.",
  properties: {
    conditions: {
      type: "array",
      description: "conditions track the condition of the leaderworkerset.",
      items: conditionSchema,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["type"],
    },
    hpaPodSelector: {
      type: "string",
      description: lines(
        "hpaPodSelector for pods that belong to the LeaderWorkerSet object, this is",
        "needed for HPA to know what pods belong to the LeaderWorkerSet object. Here",
        "we only select the leader pods.",
      ),
    },
    // Upstream leaves this field undocumented; the sentence is gantry's, in StatefulSet's words.
    observedGeneration: {
      type: "integer",
      format: "int64",
      minimum: 0,
      description:
        "observedGeneration is the most recent generation observed for this LeaderWorkerSet.",
    },
    readyReplicas: int32(
      "readyReplicas track the number of groups that are in ready state (updated or not).",
    ),
    replicas: int32(
      "replicas track the total number of groups that have been created (updated or not, ready or not)",
    ),
    updatedReplicas: int32(
      "updatedReplicas track the number of groups that have been updated (ready or not).",
    ),
  },
};

/** The CRD object, as `kubectl get crd leaderworkersets.leaderworkerset.x-k8s.io -o yaml` shows its spec. */
export function leaderWorkerSetCrd(): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "leaderworkersets.leaderworkerset.x-k8s.io" },
    spec: {
      group: "leaderworkerset.x-k8s.io",
      names: {
        kind: "LeaderWorkerSet",
        listKind: "LeaderWorkerSetList",
        plural: "leaderworkersets",
        shortNames: ["lws"],
        singular: "leaderworkerset",
      },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          additionalPrinterColumns: [
            {
              name: "Ready",
              type: "integer",
              description: "Number of ready replicas",
              jsonPath: ".status.readyReplicas",
            },
            {
              name: "Desired",
              type: "integer",
              description: "Number of desired replicas",
              jsonPath: ".spec.replicas",
            },
            {
              name: "Up-to-date",
              type: "integer",
              description: "Number of up-to-date replicas",
              jsonPath: ".status.updatedReplicas",
            },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
          ],
          schema: {
            openAPIV3Schema: describe(
              {
                type: "object",
                description: "LeaderWorkerSet is the Schema for the leaderworkersets API",
                properties: {
                  apiVersion: { type: "string" },
                  kind: { type: "string" },
                  metadata: { type: "object" },
                  spec: specSchema,
                  status: statusSchema,
                },
              },
              typeMeta,
            ),
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: ".spec.replicas",
              statusReplicasPath: ".status.replicas",
              labelSelectorPath: ".status.hpaPodSelector",
            },
          },
        },
      ],
    },
  };
}
