// k8s.io/api/policy/v1 (PodDisruptionBudget), scheduling.k8s.io/v1 (PriorityClass) and
// authentication.k8s.io/v1 (TokenRequest). Field numbers: each group's generated.proto (1.33);
// JSON rules: each group's types.go.

import { keep, list, type MessageTable, map, ptr, val } from "./schema.ts";

export const policyMessages: MessageTable = {
  PodDisruptionBudget: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "PodDisruptionBudgetSpec"),
    val(3, "status", "PodDisruptionBudgetStatus"),
  ],
  PodDisruptionBudgetSpec: [
    ptr(1, "minAvailable", "IntOrString"),
    ptr(2, "selector", "LabelSelector"),
    ptr(3, "maxUnavailable", "IntOrString"),
    ptr(4, "unhealthyPodEvictionPolicy", "string"),
  ],
  PodDisruptionBudgetStatus: [
    val(1, "observedGeneration", "int64"),
    map(2, "disruptedPods", "Time"),
    val(3, "disruptionsAllowed", "int32", keep),
    val(4, "currentHealthy", "int32", keep),
    val(5, "desiredHealthy", "int32", keep),
    val(6, "expectedPods", "int32", keep),
    list(7, "conditions", "Condition"),
  ],
  PriorityClass: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "value", "int32", keep),
    val(3, "globalDefault", "bool"),
    val(4, "description", "string"),
    ptr(5, "preemptionPolicy", "string"),
  ],
  TokenRequest: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "TokenRequestSpec", keep),
    val(3, "status", "TokenRequestStatus"),
  ],
  TokenRequestSpec: [
    list(1, "audiences", "string", keep),
    ptr(4, "expirationSeconds", "int64", keep),
    ptr(3, "boundObjectRef", "BoundObjectReference", keep),
  ],
  TokenRequestStatus: [
    val(1, "token", "string", keep),
    val(2, "expirationTimestamp", "Time", keep),
  ],
  BoundObjectReference: [
    val(1, "kind", "string"),
    val(2, "apiVersion", "string"),
    val(3, "name", "string"),
    val(4, "uid", "string"),
  ],
};
