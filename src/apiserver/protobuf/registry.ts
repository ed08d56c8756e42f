// Which kinds decode, and the merged message tables they need.

import type { MessageName, MessageSpec, MessageTable } from "./schema.ts";
import { appsMessages } from "./schema-apps.ts";
import { authorizationMessages } from "./schema-authorization.ts";
import { autoscalingMessages } from "./schema-autoscaling.ts";
import { batchMessages } from "./schema-batch.ts";
import { coreMessages } from "./schema-core.ts";
import { placementMessages } from "./schema-core-placement.ts";
import { podMessages } from "./schema-core-pod.ts";
import { metaMessages } from "./schema-meta.ts";
import { networkingMessages } from "./schema-networking.ts";
import { policyMessages } from "./schema-policy.ts";
import { rbacMessages } from "./schema-rbac.ts";

/** A top-level kind the decoder understands, and the message its `raw` bytes hold. */
export interface ProtobufKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly message: MessageName;
}

/** Every kind `decodeProtobufObject` accepts; any other kind is answered with 415. */
export const protobufKinds: readonly ProtobufKind[] = [
  { apiVersion: "v1", kind: "ConfigMap", message: "ConfigMap" },
  { apiVersion: "v1", kind: "Namespace", message: "Namespace" },
  { apiVersion: "v1", kind: "Pod", message: "Pod" },
  { apiVersion: "v1", kind: "ResourceQuota", message: "ResourceQuota" },
  { apiVersion: "v1", kind: "Secret", message: "Secret" },
  { apiVersion: "v1", kind: "Service", message: "Service" },
  { apiVersion: "v1", kind: "ServiceAccount", message: "ServiceAccount" },
  { apiVersion: "apps/v1", kind: "Deployment", message: "Deployment" },
  {
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    message: "HorizontalPodAutoscaler",
  },
  {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    message: "HorizontalPodAutoscalerV2",
  },
  { apiVersion: "batch/v1", kind: "CronJob", message: "CronJob" },
  { apiVersion: "batch/v1", kind: "Job", message: "Job" },
  { apiVersion: "networking.k8s.io/v1", kind: "Ingress", message: "Ingress" },
  { apiVersion: "networking.k8s.io/v1", kind: "IngressClass", message: "IngressClass" },
  { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", message: "NetworkPolicy" },
  { apiVersion: "policy/v1", kind: "PodDisruptionBudget", message: "PodDisruptionBudget" },
  { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", message: "ClusterRole" },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    message: "ClusterRoleBinding",
  },
  { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", message: "Role" },
  { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding", message: "RoleBinding" },
  { apiVersion: "scheduling.k8s.io/v1", kind: "PriorityClass", message: "PriorityClass" },
  { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", message: "TokenRequest" },
  {
    apiVersion: "authentication.k8s.io/v1",
    kind: "SelfSubjectReview",
    message: "SelfSubjectReview",
  },
  {
    apiVersion: "authorization.k8s.io/v1",
    kind: "SelfSubjectAccessReview",
    message: "SelfSubjectAccessReview",
  },
  {
    apiVersion: "authorization.k8s.io/v1",
    kind: "SelfSubjectRulesReview",
    message: "SelfSubjectRulesReview",
  },
  {
    apiVersion: "authorization.k8s.io/v1",
    kind: "SubjectAccessReview",
    message: "SubjectAccessReview",
  },
  {
    apiVersion: "authorization.k8s.io/v1",
    kind: "LocalSubjectAccessReview",
    message: "LocalSubjectAccessReview",
  },
];

/** Merges message tables; a name defined twice is a programming error. */
export function mergeTables(
  tables: readonly MessageTable[],
): ReadonlyMap<MessageName, MessageSpec> {
  const merged = new Map<MessageName, MessageSpec>();
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table)) {
      if (merged.has(name)) throw new TypeError(`Message "${name}" is defined twice`);
      merged.set(name, spec);
    }
  }
  return merged;
}

/** Every message the supported kinds use, by name. */
export const messageRegistry: ReadonlyMap<MessageName, MessageSpec> = mergeTables([
  metaMessages,
  podMessages,
  placementMessages,
  coreMessages,
  appsMessages,
  batchMessages,
  policyMessages,
  autoscalingMessages,
  rbacMessages,
  networkingMessages,
  authorizationMessages,
]);

/** The message for `apiVersion`/`kind`, or undefined when that kind is not supported. */
export function messageForKind(apiVersion: string, kind: string): MessageName | undefined {
  return protobufKinds.find((k) => k.apiVersion === apiVersion && k.kind === kind)?.message;
}
