/**
 * The `leaderworkersets.leaderworkerset.x-k8s.io` CustomResourceDefinition gantry installs at
 * start-up: upstream's (kubernetes-sigs/lws config/crd/bases) names, scope, subresources,
 * printer columns and defaults, with a structural schema for the fields the controller reads.
 * Pod templates and claim templates keep whatever they are sent (`preserve-unknown-fields`)
 * instead of upstream's full PodSpec schema; the pods created from them are validated as pods.
 * Two defaults upstream's mutating webhook sets are schema defaults here: a missing
 * `rolloutStrategy.rollingUpdateConfiguration` and a missing `networkConfig`.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from "../../api/index.ts";

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
  return {
    type: "object",
    description,
    properties: {
      metadata: {
        type: "object",
        description: "Standard object's metadata.",
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
        description: "Specification of the desired behavior of the pod.",
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
}

const conditionSchema: JSONSchemaProps = {
  type: "object",
  description:
    "Condition contains details for one aspect of the current state of this API Resource.",
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
};

const specSchema: JSONSchemaProps = {
  type: "object",
  description:
    "One group consists of a single leader and M workers, and the total number of pods in a group is M+1. LeaderWorkerSet will create N replicas of leader-worker pod groups.",
  required: ["leaderWorkerTemplate"],
  properties: {
    leaderWorkerTemplate: {
      type: "object",
      description: "LeaderWorkerTemplate defines the template for leader/worker pods",
      required: ["workerTemplate"],
      properties: {
        leaderTemplate: podTemplate("LeaderTemplate defines the pod template for leader pods."),
        workerTemplate: podTemplate("WorkerTemplate defines the pod template for worker pods."),
        size: int32(
          "Number of pods to create. It is the total number of pods in each group. The minimum is 1 which represent the leader. Default to 1.",
          { default: 1 },
        ),
        restartPolicy: {
          type: "string",
          description: "RestartPolicy defines the restart policy when pod failures happen.",
          enum: ["Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"],
          default: "RecreateGroupOnPodRestart",
        },
        subGroupPolicy: {
          type: "object",
          description:
            "SubGroupPolicy describes the policy that will be applied when creating subgroups in each replica.",
          properties: {
            subGroupPolicyType: {
              type: "string",
              enum: ["LeaderWorker", "LeaderExcluded"],
              default: "LeaderWorker",
            },
            subGroupSize: int32("The number of pods per subgroup."),
          },
        },
        volumeClaimTemplates: {
          type: "array",
          items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
        persistentVolumeClaimRetentionPolicy: {
          type: "object",
          properties: { whenDeleted: { type: "string" }, whenScaled: { type: "string" } },
        },
      },
    },
    networkConfig: {
      type: "object",
      description: "NetworkConfig defines the network configuration of the group",
      required: ["subdomainPolicy"],
      properties: {
        subdomainPolicy: {
          type: "string",
          description:
            "SubdomainPolicy determines the policy that will be used when creating the headless service, defaults to shared",
          enum: ["Shared", "UniquePerReplica"],
        },
      },
      default: { subdomainPolicy: "Shared" },
    },
    replicas: int32(
      "Number of leader-workers groups. A scale subresource is available to enable HPA. Default to 1.",
      { default: 1 },
    ),
    rolloutStrategy: {
      type: "object",
      description:
        "RolloutStrategy defines the strategy that will be applied to update replicas when a revision is made to the leaderWorkerTemplate.",
      required: ["type"],
      properties: {
        rollingUpdateConfiguration: {
          type: "object",
          description:
            "RollingUpdateConfiguration defines the parameters to be used when type is RollingUpdateStrategyType.",
          properties: {
            maxSurge: intOrString(
              "The maximum number of replicas that can be scheduled above the original number of replicas.",
              0,
            ),
            maxUnavailable: intOrString(
              "The maximum number of replicas that can be unavailable during the update.",
              1,
            ),
            partition: int32(
              "Partition indicates the ordinal at which the lws should be partitioned for updates.",
              { default: 0 },
            ),
          },
          default: {},
        },
        type: {
          type: "string",
          description: "Type defines the rollout strategy, it can only be “RollingUpdate” for now.",
          enum: ["RollingUpdate"],
          default: "RollingUpdate",
        },
      },
      default: { type: "RollingUpdate" },
    },
    startupPolicy: {
      type: "string",
      description: "StartupPolicy determines the startup policy for the worker statefulset.",
      enum: ["LeaderCreated", "LeaderReady"],
      default: "LeaderCreated",
    },
  },
};

const statusSchema: JSONSchemaProps = {
  type: "object",
  description: "LeaderWorkerSetStatus defines the observed state of LeaderWorkerSet",
  properties: {
    conditions: {
      type: "array",
      description: "Conditions track the condition of the leaderworkerset.",
      items: conditionSchema,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["type"],
    },
    hpaPodSelector: {
      type: "string",
      description:
        "HPAPodSelector for pods that belong to the LeaderWorkerSet object, this is needed for HPA to know what pods belong to the LeaderWorkerSet object. Here we only select the leader pods.",
    },
    observedGeneration: { type: "integer", format: "int64", minimum: 0 },
    readyReplicas: int32(
      "ReadyReplicas track the number of groups that are in ready state (updated or not).",
    ),
    replicas: int32(
      "Replicas track the total number of groups that have been created (updated or not, ready or not)",
    ),
    updatedReplicas: int32(
      "UpdatedReplicas track the number of groups that have been updated (ready or not).",
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
            openAPIV3Schema: {
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
