/** Named schema definitions of `apps/v1` DaemonSet, with `kubectl explain` descriptions. */
import { int32, int64, intOrString, mapList, obj, str } from "../../schema/builders.ts";
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

export const daemonSetDefinitions: Definitions = {
  [appsName("DaemonSet")]: kindSchema(
    { ...gv, kind: "DaemonSet" },
    "DaemonSet represents the configuration of a daemon set.",
    {
      spec: ref(appsName("DaemonSetSpec"), "The desired behavior of this daemon set."),
      status: ref(
        appsName("DaemonSetStatus"),
        "The current status of this daemon set. This data may be out of date by some window of time.",
      ),
    },
  ),
  [appsName("DaemonSetList")]: listSchema({ ...gv, kind: "DaemonSetList" }, appsName("DaemonSet")),
  [appsName("DaemonSetSpec")]: obj(
    {
      selector: ref(
        labelSelectorName,
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels.",
      ),
      template: ref(
        podTemplateSpecName,
        `An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template's node selector (or on every node if no node selector is specified). The only allowed template.spec.restartPolicy value is "Always".`,
      ),
      updateStrategy: ref(
        appsName("DaemonSetUpdateStrategy"),
        "An update strategy to replace existing DaemonSet pods with new pods.",
      ),
      minReadySeconds: int32(
        "The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready).",
      ),
      revisionHistoryLimit: int32(
        "The number of old history to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.",
      ),
    },
    {
      description: "DaemonSetSpec is the specification of a daemon set.",
      required: ["selector", "template"],
    },
  ),
  [appsName("DaemonSetUpdateStrategy")]: obj(
    {
      type: str(
        `Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.`,
        {
          enum: ["OnDelete", "RollingUpdate"],
        },
      ),
      rollingUpdate: ref(
        appsName("RollingUpdateDaemonSet"),
        `Rolling update config params. Present only if type = "RollingUpdate".`,
      ),
    },
    {
      description:
        "DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.",
    },
  ),
  [appsName("RollingUpdateDaemonSet")]: obj(
    {
      maxUnavailable: intOrString(
        "The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Absolute number is calculated from percentage by rounding up. This cannot be 0 if MaxSurge is 0 Default value is 1.",
      ),
      maxSurge: intOrString(
        "The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up to a minimum of 1. Default value is 0.",
      ),
    },
    { description: "Spec to control the desired behavior of daemon set rolling update." },
  ),
  [appsName("DaemonSetStatus")]: obj(
    {
      currentNumberScheduled: int32(
        "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
      ),
      numberMisscheduled: int32(
        "The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.",
      ),
      desiredNumberScheduled: int32(
        "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).",
      ),
      numberReady: int32(
        "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
      ),
      observedGeneration: int64(
        "The most recent generation observed by the daemon set controller.",
      ),
      updatedNumberScheduled: int32(
        "The total number of nodes that are running updated daemon pod",
      ),
      numberAvailable: int32(
        "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
      ),
      numberUnavailable: int32(
        "The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)",
      ),
      collisionCount: int32(
        "Count of hash collisions for the DaemonSet. The DaemonSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.",
      ),
      conditions: mapList(ref(appsName("DaemonSetCondition")), "type", {
        description: "Represents the latest available observations of a DaemonSet's current state.",
      }),
    },
    {
      description: "DaemonSetStatus represents the current status of a daemon set.",
      required: [
        "currentNumberScheduled",
        "numberMisscheduled",
        "desiredNumberScheduled",
        "numberReady",
      ],
    },
  ),
  [appsName("DaemonSetCondition")]: appsCondition("DaemonSet", false),
};
