/**
 * Kueue's field documentation for the CRDs in kueue.ts, as upstream's CRD YAML carries it
 * (kubernetes-sigs/kueue config/components/crd/bases, `v1beta1`), keyed by field path (see
 * describe.ts). The flavor-fungibility policies keep the wording of the releases whose values
 * (`Borrow`, `Preempt`, `TryNextFlavor`) gantry's schema accepts.
 */
import { condition, typeMeta } from "./common-descriptions.ts";
import { type Descriptions, lines, under } from "./describe.ts";

const labelSelector: Descriptions = {
  matchExpressions:
    "matchExpressions is a list of label selector requirements. The requirements are ANDed.",
  "matchExpressions.key": "key is the label key that the selector applies to.",
  "matchExpressions.operator": lines(
    "operator represents a key's relationship to a set of values.",
    "Valid operators are In, NotIn, Exists and DoesNotExist.",
  ),
  "matchExpressions.values": lines(
    "values is an array of string values. If the operator is In or NotIn,",
    "the values array must be non-empty. If the operator is Exists or DoesNotExist,",
    "the values array must be empty. This array is replaced during a strategic",
    "merge patch.",
  ),
  matchLabels: lines(
    "matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels",
    'map is equivalent to an element of matchExpressions, whose key field is "key", the',
    'operator is "In", and the values array contains only "value". The requirements are ANDed.',
  ),
};

const stopPolicyValues = [
  "Depending on its value, its associated workloads will:",
  "",
  "- None - Workloads are admitted",
  "- HoldAndDrain - Admitted workloads are evicted and Reserving workloads will cancel the reservation.",
  "- Hold - Admitted workloads will run to completion and Reserving workloads will cancel the reservation.",
];

const resourceFlavor: Descriptions = {
  "": "ResourceFlavor is the Schema for the resourceflavors API.",
  ...typeMeta,
  spec: "spec is the specification of the ResourceFlavor.",
  "spec.nodeLabels": lines(
    "nodeLabels are labels that associate the ResourceFlavor with Nodes that",
    "have the same labels.",
    "When a Workload is admitted, its podsets can only get assigned",
    "ResourceFlavors whose nodeLabels match the nodeSelector and nodeAffinity",
    "fields.",
    "Once a ResourceFlavor is assigned to a podSet, the ResourceFlavor's",
    "nodeLabels should be injected into the pods of the Workload by the",
    "controller that integrates with the Workload object.",
    "",
    "nodeLabels can be up to 8 elements.",
  ),
  "spec.nodeTaints": lines(
    "nodeTaints are taints that the nodes associated with this ResourceFlavor",
    "have.",
    "Workloads' podsets must have tolerations for these nodeTaints in order to",
    "get assigned this ResourceFlavor during admission.",
    "When this ResourceFlavor has also set the matching tolerations (in .spec.tolerations),",
    "then the nodeTaints are not considered during admission.",
    "Only the 'NoSchedule' and 'NoExecute' taint effects are evaluated,",
    "while 'PreferNoSchedule' is ignored.",
    "",
    "An example of a nodeTaint is",
    'cloud.provider.com/preemptible="true":NoSchedule',
    "",
    "nodeTaints can be up to 8 elements.",
  ),
  "spec.nodeTaints.effect": lines(
    "Required. The effect of the taint on pods",
    "that do not tolerate the taint.",
    "Valid effects are NoSchedule, PreferNoSchedule and NoExecute.",
  ),
  "spec.nodeTaints.key": "Required. The taint key to be applied to a node.",
  "spec.nodeTaints.timeAdded": "TimeAdded represents the time at which the taint was added.",
  "spec.nodeTaints.value": "The taint value corresponding to the taint key.",
  "spec.tolerations": lines(
    "tolerations are extra tolerations that will be added to the pods admitted in",
    "the quota associated with this resource flavor.",
    "",
    "An example of a toleration is",
    'cloud.provider.com/preemptible="true":NoSchedule',
    "",
    "tolerations can be up to 8 elements.",
  ),
  "spec.tolerations.effect": lines(
    "Effect indicates the taint effect to match. Empty means match all taint effects.",
    "When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.",
  ),
  "spec.tolerations.key": lines(
    "Key is the taint key that the toleration applies to. Empty means match all taint keys.",
    "If the key is empty, operator must be Exists; this combination means to match all values and all keys.",
  ),
  "spec.tolerations.operator": lines(
    "Operator represents a key's relationship to the value.",
    "Valid operators are Exists and Equal. Defaults to Equal.",
    "Exists is equivalent to wildcard for value, so that a pod can",
    "tolerate all taints of a particular category.",
  ),
  "spec.tolerations.tolerationSeconds": lines(
    "TolerationSeconds represents the period of time the toleration (which must be",
    "of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default,",
    "it is not set, which means tolerate the taint forever (do not evict). Zero and",
    "negative values will be treated as 0 (evict immediately) by the system.",
  ),
  "spec.tolerations.value": lines(
    "Value is the taint value the toleration matches to.",
    "If the operator is Exists, the value should be empty, otherwise just a regular string.",
  ),
  "spec.topologyName": lines(
    "topologyName indicates topology for the TAS ResourceFlavor.",
    "When specified, it enables scraping of the topology information from the",
    "nodes matching to the Resource Flavor node labels.",
  ),
};

/** ClusterQueue's FlavorUsage (status.flavorsReservation, status.flavorsUsage). */
const clusterQueueFlavorUsage: Descriptions = {
  name: "name of the flavor.",
  resources: "resources lists the quota usage for the resources in this flavor.",
  "resources.borrowed": lines(
    "borrowed is quantity of quota that is borrowed from the cohort. In other",
    "words, it's the used quota that is over the nominalQuota.",
  ),
  "resources.name": "name of the resource",
  "resources.total": lines(
    "total is the total quantity of used quota, including the amount borrowed",
    "from the cohort.",
  ),
};

const clusterQueue: Descriptions = {
  "": "ClusterQueue is the Schema for the clusterQueue API.",
  ...typeMeta,
  spec: "spec is the specification of the ClusterQueue.",
  "spec.admissionChecks": lines(
    "admissionChecks lists the AdmissionChecks required by this ClusterQueue.",
    "Cannot be used along with AdmissionCheckStrategy.",
  ),
  "spec.cohort": lines(
    "cohort that this ClusterQueue belongs to. CQs that belong to the",
    "same cohort can borrow unused resources from each other.",
    "",
    "A CQ can be a member of a single borrowing cohort. A workload submitted",
    "to a queue referencing this CQ can borrow quota from any CQ in the cohort.",
    "Only quota for the [resource, flavor] pairs listed in the CQ can be",
    "borrowed.",
    "If empty, this ClusterQueue cannot borrow from any other ClusterQueue and",
    "vice versa.",
    "",
    "A cohort is a name that links CQs together, but it doesn't reference any",
    "object.",
  ),
  "spec.flavorFungibility": lines(
    "flavorFungibility defines whether a workload should try the next flavor",
    "before borrowing or preempting in the flavor being evaluated.",
  ),
  "spec.flavorFungibility.whenCanBorrow": lines(
    "whenCanBorrow determines whether a workload should try the next flavor",
    "before borrowing in current flavor. The possible values are:",
    "",
    "- `Borrow` (default): allocate in current flavor if borrowing",
    "  is possible.",
    "- `TryNextFlavor`: try next flavor even if the current",
    "  flavor has enough resources to borrow.",
  ),
  "spec.flavorFungibility.whenCanPreempt": lines(
    "whenCanPreempt determines whether a workload should try the next flavor",
    "before borrowing in current flavor. The possible values are:",
    "",
    "- `Preempt`: allocate in current flavor if it's possible to preempt some workloads.",
    "- `TryNextFlavor` (default): try next flavor even if there are enough",
    "  candidates for preemption in the current flavor.",
  ),
  "spec.namespaceSelector": lines(
    "namespaceSelector defines which namespaces are allowed to submit workloads to",
    "this clusterQueue. Beyond this basic support for policy, a policy agent like",
    "Gatekeeper should be used to enforce more advanced policies.",
    "Defaults to null which is a nothing selector (no namespaces eligible).",
    "If set to an empty selector `{}`, then all namespaces are eligible.",
  ),
  ...under("spec.namespaceSelector", labelSelector),
  "spec.preemption": "preemption defines the preemption policies.",
  "spec.preemption.borrowWithinCohort": lines(
    "borrowWithinCohort determines whether a pending Workload can preempt",
    "Workloads from other ClusterQueues in the cohort if the workload requires borrowing.",
    "May only be configured with Classical Preemption, and __not__ with Fair Sharing.",
  ),
  "spec.preemption.borrowWithinCohort.maxPriorityThreshold": lines(
    "maxPriorityThreshold allows to restrict the set of workloads which",
    "might be preempted by a borrowing workload, to only workloads with",
    "priority less than or equal to the specified threshold priority.",
    "When the threshold is not specified, then any workload satisfying the",
    "policy can be preempted by the borrowing workload.",
  ),
  "spec.preemption.borrowWithinCohort.policy": lines(
    "policy determines the policy for preemption to reclaim quota within cohort while borrowing.",
    "Possible values are:",
    "- `Never` (default): do not allow for preemption, in other",
    "   ClusterQueues within the cohort, for a borrowing workload.",
    "- `LowerPriority`: allow preemption, in other ClusterQueues",
    "   within the cohort, for a borrowing workload, but only if",
    "   the preempted workloads are of lower priority.",
  ),
  "spec.preemption.reclaimWithinCohort": lines(
    "reclaimWithinCohort determines whether a pending Workload can preempt",
    "Workloads from other ClusterQueues in the cohort that are using more than",
    "their nominal quota. The possible values are:",
    "",
    "- `Never` (default): do not preempt Workloads in the cohort.",
    "- `LowerPriority`: **Classic Preemption** if the pending Workload",
    "  fits within the nominal quota of its ClusterQueue, only preempt",
    "  Workloads in the cohort that have lower priority than the pending",
    "  Workload. **Fair Sharing** only preempt Workloads in the cohort that",
    "  have lower priority than the pending Workload and that satisfy the",
    "  Fair Sharing preemptionStategies.",
    "- `Any`: **Classic Preemption** if the pending Workload fits within",
    "   the nominal quota of its ClusterQueue, preempt any Workload in the",
    "   cohort, irrespective of priority. **Fair Sharing** preempt Workloads",
    "   in the cohort that satisfy the Fair Sharing preemptionStrategies.",
  ),
  "spec.preemption.withinClusterQueue": lines(
    "withinClusterQueue determines whether a pending Workload that doesn't fit",
    "within the nominal quota for its ClusterQueue, can preempt active Workloads in",
    "the ClusterQueue. The possible values are:",
    "",
    "- `Never` (default): do not preempt Workloads in the ClusterQueue.",
    "- `LowerPriority`: only preempt Workloads in the ClusterQueue that have",
    "  lower priority than the pending Workload.",
    "- `LowerOrNewerEqualPriority`: only preempt Workloads in the ClusterQueue that",
    "  either have a lower priority than the pending workload or equal priority",
    "  and are newer than the pending workload.",
  ),
  "spec.queueingStrategy": lines(
    "queueingStrategy indicates the queueing strategy of the workloads",
    "across the queues in this ClusterQueue.",
    "Current Supported Strategies:",
    "",
    "- StrictFIFO: workloads are ordered strictly by creation time.",
    "Older workloads that can't be admitted will block admitting newer",
    "workloads even if they fit available quota.",
    "- BestEffortFIFO: workloads are ordered by creation time,",
    "however older workloads that can't be admitted will not block",
    "admitting newer workloads that fit existing quota.",
  ),
  "spec.resourceGroups": lines(
    "resourceGroups describes groups of resources.",
    "Each resource group defines the list of resources and a list of flavors",
    "that provide quotas for these resources.",
    "Each resource and each flavor can only form part of one resource group.",
    "resourceGroups can be up to 16, with a max of 256 total flavors across all groups.",
  ),
  "spec.resourceGroups.coveredResources": lines(
    "coveredResources is the list of resources covered by the flavors in this",
    "group.",
    "Examples: cpu, memory, vendor.com/gpu.",
    "The list cannot be empty and it can contain up to 64 resources. With a total",
    "of up to 256 covered resources across all resource groups in the ClusterQueue.",
  ),
  "spec.resourceGroups.flavors": lines(
    "flavors is the list of flavors that provide the resources of this group.",
    "Typically, different flavors represent different hardware models",
    "(e.g., gpu models, cpu architectures) or pricing models (on-demand vs spot",
    "cpus).",
    "Each flavor MUST list all the resources listed for this group in the same",
    "order as the .resources field.",
    "The list cannot be empty and it can contain up to 64 flavors, with a max of",
    "256 total flavors across all resource groups in the ClusterQueue.",
  ),
  "spec.resourceGroups.flavors.name": lines(
    "name of this flavor. The name should match the .metadata.name of a",
    "ResourceFlavor. If a matching ResourceFlavor does not exist, the",
    "ClusterQueue will have an Active condition set to False.",
  ),
  "spec.resourceGroups.flavors.resources": lines(
    "resources is the list of quotas for this flavor per resource.",
    "There could be up to 64 resources.",
  ),
  "spec.resourceGroups.flavors.resources.borrowingLimit": lines(
    "borrowingLimit is the maximum amount of quota for the [flavor, resource]",
    "combination that this ClusterQueue is allowed to borrow from the unused",
    "quota of other ClusterQueues in the same cohort.",
    "In total, at a given time, Workloads in a ClusterQueue can consume a",
    "quantity of quota equal to nominalQuota+borrowingLimit, assuming the other",
    "ClusterQueues in the cohort have enough unused quota.",
    "If null, it means that there is no borrowing limit.",
    "If not null, it must be non-negative.",
    "borrowingLimit must be null if spec.cohort is empty.",
  ),
  "spec.resourceGroups.flavors.resources.lendingLimit": lines(
    "lendingLimit is the maximum amount of unused quota for the [flavor, resource]",
    "combination that this ClusterQueue can lend to other ClusterQueues in the same cohort.",
    "In total, at a given time, ClusterQueue reserves for its exclusive use",
    "a quantity of quota equals to nominalQuota - lendingLimit.",
    "If null, it means that there is no lending limit, meaning that",
    "all the nominalQuota can be borrowed by other clusterQueues in the cohort.",
    "If not null, it must be non-negative.",
    "lendingLimit must be null if spec.cohort is empty.",
    "This field is in beta stage and is enabled by default.",
  ),
  "spec.resourceGroups.flavors.resources.name": "name of this resource.",
  "spec.resourceGroups.flavors.resources.nominalQuota": lines(
    "nominalQuota is the quantity of this resource that is available for",
    "Workloads admitted by this ClusterQueue at a point in time.",
    "The nominalQuota must be non-negative.",
    "nominalQuota should represent the resources in the cluster available for",
    "running jobs (after discounting resources consumed by system components",
    "and pods not managed by kueue). In an autoscaled cluster, nominalQuota",
    "should account for resources that can be provided by a component such as",
    "Kubernetes cluster-autoscaler.",
    "",
    "If the ClusterQueue belongs to a cohort, the sum of the quotas for each",
    "(flavor, resource) combination defines the maximum quantity that can be",
    "allocated by a ClusterQueue in the cohort.",
  ),
  "spec.stopPolicy": lines(
    "stopPolicy - if set to a value different from None, the ClusterQueue is considered Inactive, no new reservation being",
    "made.",
    "",
    ...stopPolicyValues,
  ),
  status: "status is the status of the ClusterQueue.",
  "status.admittedWorkloads": lines(
    "admittedWorkloads is the number of workloads currently admitted to this",
    "clusterQueue and haven't finished yet.",
  ),
  "status.conditions": lines(
    "conditions hold the latest available observations of the ClusterQueue",
    "current state.",
  ),
  ...under("status.conditions", condition),
  "status.flavorsReservation": lines(
    "flavorsReservation are the reserved quotas, by flavor, currently in use by the",
    "workloads assigned to this ClusterQueue.",
  ),
  ...under("status.flavorsReservation", clusterQueueFlavorUsage),
  "status.flavorsUsage": lines(
    "flavorsUsage are the used quotas, by flavor, currently in use by the",
    "workloads admitted in this ClusterQueue.",
  ),
  ...under("status.flavorsUsage", clusterQueueFlavorUsage),
  "status.pendingWorkloads": lines(
    "pendingWorkloads is the number of workloads currently waiting to be",
    "admitted to this clusterQueue.",
  ),
  "status.reservingWorkloads": lines(
    "reservingWorkloads is the number of workloads currently reserving quota in this",
    "clusterQueue.",
  ),
};

/** LocalQueue's LocalQueueFlavorUsage (status.flavorUsage, status.flavorsReservation). */
const localQueueFlavorUsage: Descriptions = {
  name: "name of the flavor.",
  resources: "resources lists the quota usage for the resources in this flavor.",
  "resources.name": "name of the resource.",
  "resources.total": "total is the total quantity of used quota.",
};

const localQueue: Descriptions = {
  "": "LocalQueue is the Schema for the localQueues API",
  ...typeMeta,
  spec: "LocalQueueSpec defines the desired state of LocalQueue",
  "spec.clusterQueue": "clusterQueue is a reference to a clusterQueue that backs this localQueue.",
  "spec.stopPolicy": lines(
    "stopPolicy - if set to a value different from None, the LocalQueue is considered Inactive,",
    "no new reservation being made.",
    "",
    ...stopPolicyValues,
  ),
  status: "LocalQueueStatus defines the observed state of LocalQueue",
  "status.admittedWorkloads": lines(
    "admittedWorkloads is the number of workloads in this LocalQueue",
    "admitted to a ClusterQueue and that haven't finished yet.",
  ),
  "status.conditions": lines(
    "Conditions hold the latest available observations of the LocalQueue",
    "current state.",
  ),
  ...under("status.conditions", condition),
  "status.flavorUsage": lines(
    "flavorsUsage are the used quotas, by flavor currently in use by the",
    "workloads assigned to this LocalQueue.",
  ),
  ...under("status.flavorUsage", localQueueFlavorUsage),
  "status.flavors":
    "flavors lists all currently available ResourceFlavors in specified ClusterQueue.",
  "status.flavorsReservation": lines(
    "flavorsReservation are the reserved quotas, by flavor currently in use by the",
    "workloads assigned to this LocalQueue.",
  ),
  ...under("status.flavorsReservation", localQueueFlavorUsage),
  "status.pendingWorkloads":
    "PendingWorkloads is the number of Workloads in the LocalQueue not yet admitted to a ClusterQueue",
  "status.reservingWorkloads": lines(
    "reservingWorkloads is the number of workloads in this LocalQueue",
    "reserving quota in a ClusterQueue and that haven't finished yet.",
  ),
};

/** Descriptions of the ResourceFlavor, ClusterQueue and LocalQueue schemas, by kind. */
export const queueDescriptions = { resourceFlavor, clusterQueue, localQueue } as const;
