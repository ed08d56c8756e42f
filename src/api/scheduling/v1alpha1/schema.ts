/** Named schema definitions of gantry's `scheduling.k8s.io/v1alpha1` Workload and PodGroup. */

import { conditionName, kindSchema, listSchema } from "../../apps/v1/schema-helpers.ts";
import { int32, mapList, obj, str } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";

/** `io.k8s.api.scheduling.v1alpha1.<name>`. */
export function schedulingV1alpha1Name(name: string): string {
  return `io.k8s.api.scheduling.v1alpha1.${name}`;
}

const n = schedulingV1alpha1Name;
const gv = { group: "scheduling.k8s.io", version: "v1alpha1" };

export const schedulingV1alpha1Definitions: Definitions = {
  [n("Workload")]: kindSchema(
    { ...gv, kind: "Workload" },
    "Workload allows for expressing scheduling constraints that should be used when managing the lifecycle of workloads from the scheduling perspective, including scheduling, preemption, eviction and other phases.",
    { spec: ref(n("WorkloadSpec"), "Spec defines the desired behavior of a Workload.") },
    ["spec"],
  ),
  [n("WorkloadList")]: listSchema({ ...gv, kind: "WorkloadList" }, n("Workload")),
  [n("WorkloadSpec")]: obj(
    {
      controllerRef: ref(
        n("TypedLocalObjectReference"),
        "ControllerRef is an optional reference to the controlling object, such as a Deployment or Job. It can be set after creation but is immutable once set.",
      ),
      podGroups: mapList(ref(n("WorkloadPodGroup")), "name", {
        description:
          "PodGroups is the list of pod groups that make up the Workload. At most 8 pod groups; the list is immutable. Pods join a group through spec.workloadRef.podGroup.",
      }),
      podGroupTemplates: mapList(ref(n("PodGroupTemplate")), "name", {
        description:
          "PodGroupTemplates are the templates standalone PodGroup objects are created from, by name. At most 8 templates; the list is immutable.",
      }),
    },
    {
      description:
        "WorkloadSpec defines the desired state of a Workload. At least one of podGroups and podGroupTemplates must be non-empty.",
    },
  ),
  [n("TypedLocalObjectReference")]: obj(
    {
      apiGroup: str(
        "APIGroup is the group for the resource being referenced. If empty, the core API group is inferred.",
      ),
      kind: str("Kind is the type of resource being referenced."),
      name: str("Name is the name of resource being referenced."),
    },
    {
      description:
        "TypedLocalObjectReference allows to reference typed object inside the same namespace.",
      required: ["kind", "name"],
    },
  ),
  [n("WorkloadPodGroup")]: obj(
    {
      name: str(
        "Name is a unique identifier for the PodGroup within the Workload. It must be a DNS label.",
      ),
      policy: ref(n("PodGroupPolicy"), "Policy defines the scheduling policy for this PodGroup."),
      replicas: int32(
        "Replicas is the number of replicas of this pod group the workload expects; each replica is scheduled as its own gang.",
      ),
    },
    {
      description:
        "WorkloadPodGroup represents a set of pods with a common scheduling policy, embedded in a Workload.",
      required: ["name", "policy"],
    },
  ),
  [n("PodGroupTemplate")]: obj(
    {
      name: str(
        "Name is a unique identifier for the template within the Workload. It must be a DNS label.",
      ),
      policy: ref(
        n("PodGroupPolicy"),
        "Policy defines the scheduling policy for PodGroups made from this template.",
      ),
    },
    {
      description: "PodGroupTemplate is the policy standalone PodGroup objects refer to by name.",
      required: ["name", "policy"],
    },
  ),
  [n("PodGroupPolicy")]: obj(
    {
      basic: obj(
        {},
        {
          description:
            "Basic specifies that the pods in this group should be scheduled using standard Kubernetes scheduling behavior.",
        },
      ),
      gang: ref(
        n("GangSchedulingPolicy"),
        "Gang specifies that the pods in this group should be scheduled using all-or-nothing semantics.",
      ),
    },
    {
      description:
        "PodGroupPolicy defines the scheduling configuration for a PodGroup. Exactly one of basic and gang must be set.",
    },
  ),
  [n("GangSchedulingPolicy")]: obj(
    {
      minCount: int32(
        "MinCount is the minimum number of pods that must be schedulable or scheduled at the same time for the scheduler to admit the entire group. It must be a positive integer.",
      ),
    },
    {
      description: "GangSchedulingPolicy holds options for the gang scheduling policy.",
      required: ["minCount"],
    },
  ),
  [n("PodGroup")]: kindSchema(
    { ...gv, kind: "PodGroup" },
    "PodGroup represents a runtime instance of pods grouped for gang scheduling. PodGroups are created by workload controllers from Workload.podGroupTemplates; each corresponds to one replica of the workload.",
    {
      spec: ref(n("PodGroupSpec"), "Spec defines the desired state of the PodGroup."),
      status: ref(
        n("PodGroupStatus"),
        "Status represents the current observed state of the PodGroup.",
      ),
    },
    ["spec"],
  ),
  [n("PodGroupList")]: listSchema({ ...gv, kind: "PodGroupList" }, n("PodGroup")),
  [n("PodGroupSpec")]: obj(
    {
      workloadRef: ref(
        n("PodGroupWorkloadReference"),
        "WorkloadRef references the Workload, in the same namespace, that defines the policy. Immutable.",
      ),
      podGroupTemplateName: str(
        "PodGroupTemplateName is the name of the Workload's podGroupTemplate this PodGroup is made from. Immutable.",
      ),
    },
    {
      description: "PodGroupSpec defines the desired state of a PodGroup.",
      required: ["workloadRef", "podGroupTemplateName"],
    },
  ),
  [n("PodGroupWorkloadReference")]: obj(
    { name: str("Name of the Workload in the same namespace.") },
    {
      description: "PodGroupWorkloadReference names a Workload in the PodGroup's namespace.",
      required: ["name"],
    },
  ),
  [n("PodGroupStatus")]: obj(
    {
      scheduledPods: int32("ScheduledPods is the count of pods that have been assigned to nodes."),
      conditions: mapList(ref(conditionName), "type", {
        description:
          "Conditions represent the latest observations of the PodGroup's state. The scheduler sets PodGroupScheduled.",
      }),
    },
    { description: "PodGroupStatus represents the current observed state of a PodGroup." },
  ),
};
