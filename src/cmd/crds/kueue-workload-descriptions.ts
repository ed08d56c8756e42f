/**
 * Kueue's field documentation for the Workload and WorkloadPriorityClass CRDs in kueue.ts, as
 * upstream's CRD YAML carries it (kubernetes-sigs/kueue config/components/crd/bases, `v1beta1`),
 * keyed by field path (see describe.ts). Pod templates get Kubernetes' PodTemplateSpec text for
 * the few fields gantry's schema declares.
 */
import { condition, typeMeta } from "./common-descriptions.ts";
import { type Descriptions, lines, under } from "./describe.ts";
import { podTemplateDescriptions } from "./pod-template-descriptions.ts";

const workload: Descriptions = {
  "": "Workload is the Schema for the workloads API",
  ...typeMeta,
  spec: "WorkloadSpec defines the desired state of Workload",
  "spec.active": lines(
    "Active determines if a workload can be admitted into a queue.",
    "Changing active from true to false will evict any running workloads.",
    "Possible values are:",
    "",
    "  - false: indicates that a workload should never be admitted and evicts running workloads",
    "  - true: indicates that a workload can be evaluated for admission into it's respective queue.",
    "",
    "Defaults to true",
  ),
  "spec.maximumExecutionTimeSeconds": lines(
    "maximumExecutionTimeSeconds if provided, determines the maximum time, in seconds,",
    "the workload can be admitted before it's automatically deactivated.",
    "",
    "If unspecified, no execution time limit is enforced on the Workload.",
  ),
  "spec.podSets": lines(
    "podSets is a list of sets of homogeneous pods, each described by a Pod spec",
    "and a count.",
    "There must be at least one element and at most 8.",
    "podSets cannot be changed.",
  ),
  "spec.podSets.count": "count is the number of pods for the spec.",
  "spec.podSets.minCount": lines(
    "minCount is the minimum number of pods for the spec acceptable",
    "if the workload supports partial admission.",
    "",
    "If not provided, partial admission for the current PodSet is not",
    "enabled.",
    "",
    "Only one podSet within the workload can use this.",
    "",
    "This is an alpha field and requires enabling PartialAdmission feature gate.",
  ),
  "spec.podSets.name": "name is the PodSet name.",
  "spec.podSets.template": lines(
    "template is the Pod template.",
    "",
    "The only allowed fields in template.metadata are labels and annotations.",
    "",
    "If requests are omitted for a container or initContainer,",
    "they default to the limits if they are explicitly specified for the",
    "container or initContainer.",
    "",
    "During admission, the rules in nodeSelector and",
    "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution that match",
    "the keys in the nodeLabels from the ResourceFlavors considered for this",
    "Workload are used to filter the ResourceFlavors that can be assigned to",
    "this podSet.",
  ),
  ...under("spec.podSets.template", podTemplateDescriptions),
  "spec.podSets.topologyRequest": "topologyRequest defines the topology request for the PodSet.",
  "spec.priority": lines(
    "Priority determines the order of access to the resources managed by the",
    "ClusterQueue where the workload is queued.",
    "The priority value is populated from PriorityClassName.",
    "The higher the value, the higher the priority.",
    "If priorityClassName is specified, priority must not be null.",
  ),
  "spec.priorityClassName": lines(
    "If specified, indicates the workload's priority.",
    '"system-node-critical" and "system-cluster-critical" are two special',
    "keywords which indicate the highest priorities with the former being",
    "the highest priority. Any other name must be defined by creating a",
    "PriorityClass object with that name. If not specified, the workload",
    "priority will be default or zero if there is no default.",
  ),
  "spec.priorityClassSource": lines(
    "priorityClassSource determines whether the priorityClass field refers to a pod PriorityClass or kueue.x-k8s.io/workloadpriorityclass.",
    "Workload's PriorityClass can accept the name of a pod priorityClass or a workloadPriorityClass.",
    "When using pod PriorityClass, a priorityClassSource field has the scheduling.k8s.io/priorityclass value.",
  ),
  "spec.queueName": lines(
    "queueName is the name of the LocalQueue the Workload is associated with.",
    "queueName cannot be changed while .status.admission is not null.",
  ),
  status: "WorkloadStatus defines the observed state of Workload",
  "status.accumulatedPastExexcutionTimeSeconds": lines(
    "accumulatedPastExexcutionTimeSeconds holds the total time, in seconds, the workload spent",
    "in Admitted state, in the previous `Admit` - `Evict` cycles.",
  ),
  "status.admission": lines(
    "admission holds the parameters of the admission of the workload by a",
    "ClusterQueue. admission can be set back to null, but its fields cannot be",
    "changed once set.",
  ),
  "status.admission.clusterQueue":
    "clusterQueue is the name of the ClusterQueue that admitted this workload.",
  "status.admission.podSetAssignments":
    "PodSetAssignments hold the admission results for each of the .spec.podSets entries.",
  "status.admission.podSetAssignments.count": lines(
    "count is the number of pods taken into account at admission time.",
    "This field will not change in case of quota reclaim.",
    "Value could be missing for Workloads created before this field was added,",
    "in that case spec.podSets[*].count value will be used.",
  ),
  "status.admission.podSetAssignments.flavors":
    "Flavors are the flavors assigned to the workload for each resource.",
  "status.admission.podSetAssignments.name":
    "Name is the name of the podSet. It should match one of the names in .spec.podSets.",
  "status.admission.podSetAssignments.resourceUsage": lines(
    "resourceUsage keeps track of the total resources all the pods in the podset need to run.",
    "",
    "Beside what is provided in podSet's specs, this calculation takes into account",
    "the LimitRange defaults and RuntimeClass overheads at the moment of admission.",
    "This field will not change in case of quota reclaim.",
  ),
  "status.admission.podSetAssignments.topologyAssignment": lines(
    "topologyAssignment indicates the topology assignment divided into",
    "topology domains corresponding to the lowest level of the topology.",
    "The assignment specifies the number of Pods to be scheduled per topology",
    "domain and specifies the node selectors for each topology domain, in the",
    "following way: the node selector keys are specified by the levels field",
    "(same for all domains), and the corresponding node selector value is",
    "specified by the domains.values subfield. If the TopologySpec.Levels field contains",
    '"kubernetes.io/hostname" label, topologyAssignment will contain data only for',
    "this label, and omit higher levels in the topology",
    "",
    "Example:",
    "",
    "topologyAssignment:",
    "  levels:",
    "  - cloud.provider.com/topology-block",
    "  - cloud.provider.com/topology-rack",
    "  domains:",
    "  - values: [block-1, rack-1]",
    "    count: 4",
    "  - values: [block-1, rack-2]",
    "    count: 2",
    "",
    "Here:",
    "- 4 Pods are to be scheduled on nodes matching the node selector:",
    "  cloud.provider.com/topology-block: block-1",
    "  cloud.provider.com/topology-rack: rack-1",
    "- 2 Pods are to be scheduled on nodes matching the node selector:",
    "  cloud.provider.com/topology-block: block-1",
    "  cloud.provider.com/topology-rack: rack-2",
    "",
    "Example:",
    "Below there is an equivalent of the above example assuming, Topology",
    "object defines kubernetes.io/hostname as the lowest level in topology.",
    "Hence we omit higher level of topologies, since the hostname label",
    "is sufficient to explicitly identify a proper node.",
    "",
    "topologyAssignment:",
    "  levels:",
    "  - kubernetes.io/hostname",
    "  domains:",
    "  - values: [hostname-1]",
    "    count: 4",
    "  - values: [hostname-2]",
    "    count: 2",
  ),
  "status.admissionChecks":
    "admissionChecks list all the admission checks required by the workload and the current status",
  "status.conditions": lines(
    "conditions hold the latest available observations of the Workload",
    "current state.",
    "",
    "The type of the condition could be:",
    "",
    "- Admitted: the Workload was admitted through a ClusterQueue.",
    "- Finished: the associated workload finished running (failed or succeeded).",
    "- PodsReady: at least `.spec.podSets[*].count` Pods are ready or have",
    "succeeded.",
  ),
  ...under("status.conditions", condition),
  "status.reclaimablePods": lines(
    "reclaimablePods keeps track of the number pods within a podset for which",
    "the resource reservation is no longer needed.",
  ),
  "status.reclaimablePods.count":
    "count is the number of pods for which the requested resources are no longer needed.",
  "status.reclaimablePods.name": "name is the PodSet name.",
  "status.requeueState": lines(
    "requeueState holds the re-queue state",
    "when a workload meets Eviction with PodsReadyTimeout reason.",
  ),
  "status.requeueState.count": lines(
    "count records the number of times a workload has been re-queued",
    "When a deactivated (`.spec.activate`=`false`) workload is reactivated (`.spec.activate`=`true`),",
    "this count would be reset to null.",
  ),
  "status.requeueState.requeueAt": lines(
    "requeueAt records the time when a workload will be re-queued.",
    "When a deactivated (`.spec.activate`=`false`) workload is reactivated (`.spec.activate`=`true`),",
    "this time would be reset to null.",
  ),
  "status.resourceRequests": lines(
    "resourceRequests provides a detailed view of the resources that were",
    "requested by a non-admitted workload when it was considered for admission.",
    "If admission is non-null, resourceRequests will be empty because",
    "admission.resourceUsage contains the detailed information.",
  ),
  "status.resourceRequests.name":
    "name is the name of the podSet. It should match one of the names in .spec.podSets.",
  "status.resourceRequests.resources": lines(
    "resources is the total resources all the pods in the podset need to run.",
    "",
    "Beside what is provided in podSet's specs, this value also takes into account",
    "the LimitRange defaults and RuntimeClass overheads at the moment of consideration",
    "and the application of resource.excludeResourcePrefixes and resource.transformations.",
  ),
  "status.schedulingStats": "schedulingStats tracks scheduling statistics",
};

const workloadPriorityClass: Descriptions = {
  "": "WorkloadPriorityClass is the Schema for the workloadPriorityClass API",
  ...typeMeta,
  description: lines(
    "description is an arbitrary string that usually provides guidelines on",
    "when this workloadPriorityClass should be used.",
  ),
  value: lines(
    "value represents the integer value of this workloadPriorityClass. This is the actual priority that workloads",
    "receive when jobs have the name of this class in their workloadPriorityClass label.",
    "Changing the value of workloadPriorityClass doesn't affect the priority of workloads that were already created.",
  ),
};

/** Descriptions of the Workload and WorkloadPriorityClass schemas, by kind. */
export const workloadDescriptions = { workload, workloadPriorityClass } as const;
