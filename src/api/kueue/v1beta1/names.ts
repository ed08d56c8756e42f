/**
 * Kueue's API group, resource names, and the exact label, annotation, finalizer, gate and
 * condition strings clients observe (kubernetes-sigs/kueue v0.14).
 */

export const kueueGroup = "kueue.x-k8s.io";
export const kueueVersion = "v1beta1";
export const kueueApiVersion = `${kueueGroup}/${kueueVersion}`;

// Pod metadata keys (pkg/controller/constants and jobs/pod).
export const queueNameLabel = "kueue.x-k8s.io/queue-name";
export const managedLabel = "kueue.x-k8s.io/managed";
export const managedFinalizer = "kueue.x-k8s.io/managed";
export const admissionGate = "kueue.x-k8s.io/admission";
export const roleHashAnnotation = "kueue.x-k8s.io/role-hash";
export const podGroupNameLabel = "kueue.x-k8s.io/pod-group-name";
export const podGroupTotalCountAnnotation = "kueue.x-k8s.io/pod-group-total-count";
export const retriableInGroupAnnotation = "kueue.x-k8s.io/retriable-in-group";
export const podGroupFastAdmissionAnnotation = "kueue.x-k8s.io/pod-group-fast-admission";
export const podGroupServingAnnotation = "kueue.x-k8s.io/pod-group-serving";
export const podSuspendingParentAnnotation = "kueue.x-k8s.io/pod-suspending-parent";
export const prebuiltWorkloadLabel = "kueue.x-k8s.io/prebuilt-workload-name";
export const workloadPriorityClassLabel = "kueue.x-k8s.io/priority-class";
export const maxExecTimeLabel = "kueue.x-k8s.io/max-exec-time-seconds";
export const podSetLabel = "kueue.x-k8s.io/podset";
/**
 * KEP-976 story 3 (never built upstream; gantry's design in docs/decisions/0008): on a group's
 * driver pod, the YAML/JSON list of the group's pod sets (`name`, `count`, optional `template`).
 */
export const podGroupSetsAnnotation = "kueue.x-k8s.io/pod-group-sets";
/** KEP-976 story 3: the pod set (of the driver's `pod-group-sets`) a pod of the group runs as. */
export const podGroupRoleLabel = "kueue.x-k8s.io/pod-group-role";

// Workload metadata keys.
export const resourceInUseFinalizer = "kueue.x-k8s.io/resource-in-use";
export const isGroupWorkloadAnnotation = "kueue.x-k8s.io/is-group-workload";
export const jobUidLabel = "kueue.x-k8s.io/job-uid";

/** Most PodSets a v1beta1 Workload holds (`spec.podSets` maxItems). */
export const maxPodSets = 8;
/** The single PodSet of a plain pod. */
export const mainPodSetName = "main";

// Workload condition types.
export const quotaReservedCondition = "QuotaReserved";
export const admittedCondition = "Admitted";
export const finishedCondition = "Finished";
export const evictedCondition = "Evicted";
export const preemptedCondition = "Preempted";
export const requeuedCondition = "Requeued";
/** Pod groups only: True while Kueue does not observe every pod the Workload declares. */
export const waitingForReplacementPodsCondition = "WaitingForReplacementPods";
/** The pod condition Kueue writes before deleting a pod it stops. */
export const terminationTargetCondition = "TerminationTarget";

/** The `priorityClassSource` of a Workload whose priority comes from a WorkloadPriorityClass. */
export const workloadPriorityClassSource = "kueue.x-k8s.io/workloadpriorityclass";
/** The `priorityClassSource` of a Workload whose priority comes from a PriorityClass. */
export const podPriorityClassSource = "scheduling.k8s.io/priorityclass";
