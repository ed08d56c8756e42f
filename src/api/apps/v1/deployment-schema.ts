/** Named schema definitions of `apps/v1` Deployment, with `kubectl explain` descriptions. */
import { bool, int32, intOrString, mapList, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";
import {
  appsCondition,
  appsName,
  kindSchema,
  labelSelectorName,
  listSchema,
  podTemplateSpecName,
} from "./schema-helpers.ts";

const gv = { group: "apps", version: "v1" };

export const deploymentDefinitions: Definitions = {
  [appsName("Deployment")]: kindSchema(
    { ...gv, kind: "Deployment" },
    "Deployment enables declarative updates for Pods and ReplicaSets.",
    {
      spec: ref(
        appsName("DeploymentSpec"),
        "Specification of the desired behavior of the Deployment.",
      ),
      status: ref(appsName("DeploymentStatus"), "Most recently observed status of the Deployment."),
    },
  ),
  [appsName("DeploymentList")]: listSchema(
    { ...gv, kind: "DeploymentList" },
    appsName("Deployment"),
  ),
  [appsName("DeploymentSpec")]: obj(
    {
      replicas: int32(
        "Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.",
      ),
      selector: ref(
        labelSelectorName,
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      ),
      template: ref(
        podTemplateSpecName,
        `Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".`,
      ),
      strategy: {
        ...ref(
          appsName("DeploymentStrategy"),
          "The deployment strategy to use to replace existing pods with new ones.",
        ),
        "x-kubernetes-patch-strategy": "retainKeys",
      },
      minReadySeconds: int32(
        "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)",
      ),
      revisionHistoryLimit: int32(
        "The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.",
      ),
      paused: bool("Indicates that the deployment is paused."),
      progressDeadlineSeconds: int32(
        "The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. Defaults to 600s.",
      ),
    },
    {
      description: "DeploymentSpec is the specification of the desired behavior of the Deployment.",
      required: ["selector", "template"],
    },
  ),
  [appsName("DeploymentStrategy")]: obj(
    {
      type: str(
        `Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.`,
        {
          enum: ["Recreate", "RollingUpdate"],
        },
      ),
      rollingUpdate: ref(
        appsName("RollingUpdateDeployment"),
        "Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.",
      ),
    },
    { description: "DeploymentStrategy describes how to replace existing pods with new ones." },
  ),
  [appsName("RollingUpdateDeployment")]: obj(
    {
      maxUnavailable: intOrString(
        "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. Defaults to 25%.",
      ),
      maxSurge: intOrString(
        "The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. Defaults to 25%.",
      ),
    },
    { description: "Spec to control the desired behavior of rolling update." },
  ),
  [appsName("DeploymentStatus")]: obj(
    {
      observedGeneration: {
        type: "integer",
        format: "int64",
        description: "The generation observed by the deployment controller.",
      },
      replicas: int32(
        "Total number of non-terminating pods targeted by this deployment (their labels match the selector).",
      ),
      updatedReplicas: int32(
        "Total number of non-terminating pods targeted by this deployment that have the desired template spec.",
      ),
      readyReplicas: int32(
        "Total number of non-terminating pods targeted by this Deployment with a Ready Condition.",
      ),
      availableReplicas: int32(
        "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.",
      ),
      unavailableReplicas: int32("Total number of unavailable pods targeted by this deployment."),
      terminatingReplicas: int32("Total number of terminating pods targeted by this deployment."),
      conditions: mapList(ref(appsName("DeploymentCondition")), "type", {
        description:
          "Represents the latest available observations of a deployment's current state.",
      }),
      collisionCount: int32(
        "Count of hash collisions for the Deployment. The Deployment controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.",
      ),
    },
    { description: "DeploymentStatus is the most recently observed status of the Deployment." },
  ),
  [appsName("DeploymentCondition")]: appsCondition("Deployment", true),
};
