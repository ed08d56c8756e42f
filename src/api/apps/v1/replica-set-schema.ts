/** Named schema definitions of `apps/v1` ReplicaSet, with `kubectl explain` descriptions. */
import { int32, int64, mapList, obj } from "../../schema/builders.ts";
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

export const replicaSetDefinitions: Definitions = {
  [appsName("ReplicaSet")]: kindSchema(
    { ...gv, kind: "ReplicaSet" },
    "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
    {
      spec: ref(
        appsName("ReplicaSetSpec"),
        "Spec defines the specification of the desired behavior of the ReplicaSet.",
      ),
      status: ref(
        appsName("ReplicaSetStatus"),
        "Status is the most recently observed status of the ReplicaSet.",
      ),
    },
  ),
  [appsName("ReplicaSetList")]: listSchema(
    { ...gv, kind: "ReplicaSetList" },
    appsName("ReplicaSet"),
  ),
  [appsName("ReplicaSetSpec")]: obj(
    {
      replicas: int32(
        "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.",
      ),
      minReadySeconds: int32(
        "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)",
      ),
      selector: ref(
        labelSelectorName,
        "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels.",
      ),
      template: ref(
        podTemplateSpecName,
        "Template is the object that describes the pod that will be created if insufficient replicas are detected.",
      ),
    },
    { description: "ReplicaSetSpec is the specification of a ReplicaSet.", required: ["selector"] },
  ),
  [appsName("ReplicaSetStatus")]: obj(
    {
      replicas: int32("Replicas is the most recently observed number of non-terminating pods."),
      fullyLabeledReplicas: int32(
        "The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.",
      ),
      readyReplicas: int32(
        "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
      ),
      availableReplicas: int32(
        "The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.",
      ),
      terminatingReplicas: int32("The number of terminating pods for this replica set."),
      observedGeneration: int64(
        "ObservedGeneration reflects the generation of the most recently observed ReplicaSet.",
      ),
      conditions: mapList(ref(appsName("ReplicaSetCondition")), "type", {
        description:
          "Represents the latest available observations of a replica set's current state.",
      }),
    },
    {
      description: "ReplicaSetStatus represents the current status of a ReplicaSet.",
      required: ["replicas"],
    },
  ),
  [appsName("ReplicaSetCondition")]: appsCondition("ReplicaSet", false),
};
