/** Named schema definitions of `batch/v1` Job, with `kubectl explain` descriptions. */

import {
  kindSchema,
  labelSelectorName,
  listSchema,
  podTemplateSpecName,
} from "../../apps/v1/schema-helpers.ts";
import { atomicList, bool, int32, int64, obj, setList, str, time } from "../../schema/builders.ts";
import { type Definitions, ref } from "../../schema/schema.ts";

/** `io.k8s.api.scheduling.v1alpha3.<name>`: the building blocks `spec.scheduling` embeds. */
function schedulingName(name: string): string {
  return `io.k8s.api.scheduling.v1alpha3.${name}`;
}

/** `io.k8s.api.batch.v1.<name>`. */
export function batchName(name: string): string {
  return `io.k8s.api.batch.v1.${name}`;
}

const gv = { group: "batch", version: "v1" };

export const jobDefinitions: Definitions = {
  [batchName("Job")]: kindSchema(
    { ...gv, kind: "Job" },
    "Job represents the configuration of a single job.",
    {
      spec: ref(batchName("JobSpec"), "Specification of the desired behavior of a job."),
      status: ref(batchName("JobStatus"), "Current status of a job."),
    },
  ),
  [batchName("JobList")]: listSchema({ ...gv, kind: "JobList" }, batchName("Job")),
  [batchName("JobSpec")]: obj(
    {
      parallelism: int32(
        "Specifies the maximum desired number of pods the job should run at any given time. The actual number of pods running in steady state will be less than this number when ((.spec.completions - .status.successful) < .spec.parallelism), i.e. when the work left to do is less than max parallelism.",
      ),
      completions: int32(
        "Specifies the desired number of successfully finished pods the job should be run with. Setting to null means that the success of any pod signals the success of all pods, and allows parallelism to have any positive value. Setting to 1 means that parallelism is limited to 1 and the success of that pod signals the success of the job.",
      ),
      activeDeadlineSeconds: int64(
        "Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it; value must be positive integer.",
      ),
      podFailurePolicy: ref(
        batchName("PodFailurePolicy"),
        "Specifies the policy of handling failed pods. In particular, it allows to specify the set of actions and conditions which need to be satisfied to take the associated action.",
      ),
      successPolicy: ref(
        batchName("SuccessPolicy"),
        "successPolicy specifies the policy when the Job can be declared as succeeded.",
      ),
      backoffLimit: int32(
        "Specifies the number of retries before marking this job failed. Defaults to 6",
      ),
      backoffLimitPerIndex: int32(
        "Specifies the limit for the number of retries within an index before marking this index as failed.",
      ),
      maxFailedIndexes: int32(
        "Specifies the maximal number of failed indexes before marking the Job as failed, when backoffLimitPerIndex is set.",
      ),
      selector: ref(
        labelSelectorName,
        "A label query over pods that should match the pod count. Normally, the system sets this field for you.",
      ),
      manualSelector: bool(
        "manualSelector controls generation of pod labels and pod selectors. Leave `manualSelector` unset unless you are certain what you are doing.",
      ),
      template: ref(
        podTemplateSpecName,
        `Describes the pod that will be created when executing a job. The only allowed template.spec.restartPolicy values are "Never" or "OnFailure".`,
      ),
      ttlSecondsAfterFinished: int32(
        "ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed).",
      ),
      completionMode: str(
        "completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`.",
        { enum: ["Indexed", "NonIndexed"] },
      ),
      suspend: bool(
        "suspend specifies whether the Job controller should create Pods or not. If a Job is created with suspend set to true, no Pods are created by the Job controller. Defaults to false.",
      ),
      podReplacementPolicy: str(
        "podReplacementPolicy specifies when to create replacement Pods. Possible values are: TerminatingOrFailed, Failed.",
        { enum: ["Failed", "TerminatingOrFailed"] },
      ),
      managedBy: str(
        "ManagedBy field indicates the controller that manages a Job. The k8s Job controller reconciles jobs which don't have this field at all or the field value is the reserved string `kubernetes.io/job-controller`.",
      ),
      scheduling: ref(
        batchName("JobSchedulingConfiguration"),
        "Scheduling defines the workload-aware scheduling configuration of this Job: the Job controller creates a Workload and a PodGroup from it before the Job's pods. This field is immutable.",
      ),
    },
    {
      description: "JobSpec describes how the job execution will look like.",
      required: ["template"],
    },
  ),
  [batchName("JobSchedulingConfiguration")]: obj(
    {
      schedulingPolicy: ref(
        schedulingName("WorkloadPodGroupSchedulingPolicy"),
        "SchedulingPolicy defines the scheduling policy for this Job. Exactly one of Basic or Gang must be set. Unset means basic.",
      ),
    },
    {
      description:
        "JobSchedulingConfiguration composes the reusable workload-aware scheduling building blocks.",
    },
  ),
  [schedulingName("WorkloadPodGroupSchedulingPolicy")]: obj(
    {
      basic: ref(
        schedulingName("WorkloadPodGroupBasicSchedulingPolicy"),
        "basic specifies that standard, pod-by-pod Kubernetes scheduling behavior should be used.",
      ),
      gang: ref(
        schedulingName("WorkloadPodGroupGangSchedulingPolicy"),
        "gang specifies all-or-nothing scheduling semantics.",
      ),
    },
    {
      description:
        "WorkloadPodGroupSchedulingPolicy defines the scheduling policy for a group of pods managed by a workload controller. Exactly one policy must be set.",
    },
  ),
  [schedulingName("WorkloadPodGroupBasicSchedulingPolicy")]: obj(
    {},
    {
      description:
        "WorkloadPodGroupBasicSchedulingPolicy indicates that standard Kubernetes scheduling behavior should be used.",
    },
  ),
  [schedulingName("WorkloadPodGroupGangSchedulingPolicy")]: obj(
    {
      minCount: int32(
        "minCount is the minimum number of pods that must be scheduled at the same time for the scheduler to admit the entire group. If it is not specified, the Job's parallelism is used. If set, it must be a positive integer no larger than parallelism.",
      ),
    },
    {
      description:
        "WorkloadPodGroupGangSchedulingPolicy defines the parameters for gang (all-or-nothing) scheduling.",
    },
  ),
  [batchName("PodFailurePolicy")]: obj(
    {
      rules: atomicList(
        ref(batchName("PodFailurePolicyRule")),
        "A list of pod failure policy rules. The rules are evaluated in order.",
      ),
    },
    {
      description: "PodFailurePolicy describes how failed pods influence the backoffLimit.",
      required: ["rules"],
    },
  ),
  [batchName("PodFailurePolicyRule")]: obj(
    {
      action: str(
        "Specifies the action taken on a pod failure when the requirements are satisfied.",
        {
          enum: ["Count", "FailIndex", "FailJob", "Ignore"],
        },
      ),
      onExitCodes: obj(
        {
          containerName: str(
            "Restricts the check for exit codes to the container with the specified name.",
          ),
          operator: str(
            "Represents the relationship between the container exit code(s) and the specified values.",
            {
              enum: ["In", "NotIn"],
            },
          ),
          values: setList(int32(), "Specifies the set of values."),
        },
        {
          description: "Represents the requirement on the container exit codes.",
          required: ["operator", "values"],
        },
      ),
      onPodConditions: atomicList(
        obj(
          {
            type: str("Specifies the required Pod condition type."),
            status: str("Specifies the required Pod condition status. Defaults to True."),
          },
          { required: ["type"] },
        ),
        "Represents the requirement on the pod conditions.",
      ),
    },
    {
      description:
        "PodFailurePolicyRule describes how a pod failure is handled when the requirements are met.",
      required: ["action"],
    },
  ),
  [batchName("SuccessPolicy")]: obj(
    {
      rules: atomicList(
        obj({
          succeededIndexes: str(
            "succeededIndexes specifies the set of indexes which need to be contained in the actual set of the succeeded indexes for the Job.",
          ),
          succeededCount: int32(
            "succeededCount specifies the minimal required size of the actual set of the succeeded indexes for the Job.",
          ),
        }),
        "rules represents the list of alternative rules for the declaring the Jobs as successful before `.status.succeeded >= .spec.completions`.",
      ),
    },
    {
      description:
        "SuccessPolicy describes when a Job can be declared as succeeded based on the success of some indexes.",
      required: ["rules"],
    },
  ),
  [batchName("JobStatus")]: obj(
    {
      // Upstream: atomic for server-side apply, merged by type for strategic merge patch.
      conditions: {
        type: "array",
        items: ref(batchName("JobCondition")),
        description: "The latest available observations of an object's current state.",
        "x-kubernetes-list-type": "atomic",
        "x-kubernetes-patch-strategy": "merge",
        "x-kubernetes-patch-merge-key": "type",
      },
      startTime: time("Represents time when the job controller started processing a job."),
      completionTime: time("Represents time when the job was completed."),
      active: int32("The number of pending and running pods which are not terminating."),
      succeeded: int32("The number of pods which reached phase Succeeded."),
      failed: int32("The number of pods which reached phase Failed."),
      terminating: int32(
        "The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).",
      ),
      completedIndexes: str(
        'completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format.',
      ),
      failedIndexes: str(
        "FailedIndexes holds the failed indexes when spec.backoffLimitPerIndex is set.",
      ),
      uncountedTerminatedPods: obj(
        {
          succeeded: setList(str(), "succeeded holds UIDs of succeeded Pods."),
          failed: setList(str(), "failed holds UIDs of failed Pods."),
        },
        {
          description:
            "uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn't yet accounted for in the status counters.",
        },
      ),
      ready: int32(
        "The number of active pods which have a Ready condition and are not terminating.",
      ),
    },
    { description: "JobStatus represents the current state of a Job." },
  ),
  [batchName("JobCondition")]: obj(
    {
      type: str("Type of job condition, Complete or Failed."),
      status: str("Status of the condition, one of True, False, Unknown."),
      lastProbeTime: time("Last time the condition was checked."),
      lastTransitionTime: time("Last time the condition transit from one status to another."),
      reason: str("(brief) reason for the condition's last transition."),
      message: str("Human readable message indicating details about last transition."),
    },
    { description: "JobCondition describes current state of a job.", required: ["type", "status"] },
  ),
};
