/** Named schema definitions of `policy/v1`: PodDisruptionBudget and Eviction. */

import {
  conditionName,
  kindSchema,
  labelSelectorName,
  listSchema,
} from "../../apps/v1/schema-helpers.ts";
import {
  atomicList,
  bool,
  int32,
  int64,
  intOrString,
  mapList,
  mapOf,
  obj,
  str,
  time,
} from "../../schema/builders.ts";
import { type Definitions, ref, type Schema } from "../../schema/schema.ts";

/** `meta/v1` DeleteOptions, inline: the shared meta definitions do not publish it. */
function deleteOptionsSchema(): Schema {
  return obj(
    {
      apiVersion: str(
        "APIVersion defines the versioned schema of this representation of an object.",
      ),
      kind: str("Kind is a string value representing the REST resource this object represents."),
      gracePeriodSeconds: int64(
        "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.",
      ),
      preconditions: obj(
        {
          uid: str("Specifies the target UID."),
          resourceVersion: str("Specifies the target ResourceVersion"),
        },
        { description: "Must be fulfilled before a deletion is carried out." },
      ),
      orphanDependents: bool(
        "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.",
      ),
      propagationPolicy: str(
        "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
      ),
      dryRun: atomicList(
        str(),
        "When present, indicates that modifications should not be persisted.",
      ),
    },
    { description: "DeleteOptions may be provided" },
  );
}

/** `io.k8s.api.policy.v1.<name>`. */
export function policyName(name: string): string {
  return `io.k8s.api.policy.v1.${name}`;
}

const gv = { group: "policy", version: "v1" };

export const policyV1Definitions: Definitions = {
  [policyName("PodDisruptionBudget")]: kindSchema(
    { ...gv, kind: "PodDisruptionBudget" },
    "PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods",
    {
      spec: ref(
        policyName("PodDisruptionBudgetSpec"),
        "Specification of the desired behavior of the PodDisruptionBudget.",
      ),
      status: ref(
        policyName("PodDisruptionBudgetStatus"),
        "Most recently observed status of the PodDisruptionBudget.",
      ),
    },
  ),
  [policyName("PodDisruptionBudgetList")]: listSchema(
    { ...gv, kind: "PodDisruptionBudgetList" },
    policyName("PodDisruptionBudget"),
  ),
  [policyName("PodDisruptionBudgetSpec")]: obj(
    {
      minAvailable: intOrString(
        `An eviction is allowed if at least "minAvailable" pods selected by "selector" will still be available after the eviction, i.e. even in the absence of the evicted pod. So for example you can prevent all voluntary evictions by specifying "100%".`,
      ),
      selector: {
        ...ref(
          labelSelectorName,
          "Label query over pods whose evictions are managed by the disruption budget. A null selector will match no pods, while an empty ({}) selector will select all pods within the namespace.",
        ),
        "x-kubernetes-patch-strategy": "replace",
      },
      maxUnavailable: intOrString(
        `An eviction is allowed if at most "maxUnavailable" pods selected by "selector" are unavailable after the eviction, i.e. even in absence of the evicted pod. For example, one can prevent all voluntary evictions by specifying 0. This is a mutually exclusive setting with "minAvailable".`,
      ),
      unhealthyPodEvictionPolicy: str(
        `UnhealthyPodEvictionPolicy defines the criteria for when unhealthy pods should be considered for eviction. Valid policies are IfHealthyBudget and AlwaysAllow. If no policy is specified, the default behavior will be used, which corresponds to the IfHealthyBudget policy.`,
        { enum: ["AlwaysAllow", "IfHealthyBudget"] },
      ),
      usePodGroups: bool(
        "gantry: when true, availability is counted in pod-group replicas rather than individual pods. Equivalent to budgetScope: PodGroup; if both are set they must agree.",
      ),
      budgetScope: str(
        "gantry: the unit the budget counts. Pod (the default) counts individual pods; PodGroup counts pod-group replicas, each healthy when at least its gang minCount pods are healthy.",
        { enum: ["Pod", "PodGroup"] },
      ),
    },
    { description: "PodDisruptionBudgetSpec is a description of a PodDisruptionBudget." },
  ),
  [policyName("PodDisruptionBudgetStatus")]: obj(
    {
      observedGeneration: int64(
        "Most recent generation observed when updating this PDB status. DisruptionsAllowed and other status information is valid only if observedGeneration equals to PDB's object generation.",
      ),
      disruptedPods: mapOf(
        time(),
        "DisruptedPods contains information about pods whose eviction was processed by the API server eviction subresource handler but has not yet been observed by the PodDisruptionBudget controller.",
      ),
      disruptionsAllowed: int32("Number of pod disruptions that are currently allowed."),
      currentHealthy: int32("current number of healthy pods"),
      desiredHealthy: int32("minimum desired number of healthy pods"),
      expectedPods: int32("total number of pods counted by this disruption budget"),
      conditions: mapList(ref(conditionName), "type", {
        description:
          "Conditions contain conditions for PDB. The disruption controller sets the DisruptionAllowed condition.",
      }),
    },
    {
      description:
        "PodDisruptionBudgetStatus represents information about the status of a PodDisruptionBudget. Status may trail the actual state of a system.",
      required: ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"],
    },
  ),
  [policyName("Eviction")]: kindSchema(
    { ...gv, kind: "Eviction" },
    "Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod. A request to cause such an eviction is created by POSTing to .../pods/<pod name>/evictions.",
    {
      deleteOptions: deleteOptionsSchema(),
    },
  ),
};

/** The policy/v1beta1 Eviction: the same body under the older version. */
export const policyV1beta1EvictionDefinitions: Definitions = {
  "io.k8s.api.policy.v1beta1.Eviction": kindSchema(
    { group: "policy", version: "v1beta1", kind: "Eviction" },
    "Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod.",
    {
      deleteOptions: deleteOptionsSchema(),
    },
  ),
};
