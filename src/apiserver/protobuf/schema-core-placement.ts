// k8s.io/api/core/v1: the PodSpec parts that decide where and how a pod is placed (affinity,
// tolerations, spread constraints, scheduling gates, DNS, resource claims). Field numbers:
// core/v1 generated.proto (1.33); JSON rules: core/v1 types.go.

import { keep, list, type MessageTable, ptr, val } from "./schema.ts";

export const placementMessages: MessageTable = {
  Affinity: [
    ptr(1, "nodeAffinity", "NodeAffinity"),
    ptr(2, "podAffinity", "PodAffinity"),
    ptr(3, "podAntiAffinity", "PodAntiAffinity"),
  ],
  NodeAffinity: [
    ptr(1, "requiredDuringSchedulingIgnoredDuringExecution", "NodeSelector"),
    list(2, "preferredDuringSchedulingIgnoredDuringExecution", "PreferredSchedulingTerm"),
  ],
  NodeSelector: [list(1, "nodeSelectorTerms", "NodeSelectorTerm", keep)],
  NodeSelectorTerm: [
    list(1, "matchExpressions", "NodeSelectorRequirement"),
    list(2, "matchFields", "NodeSelectorRequirement"),
  ],
  NodeSelectorRequirement: [
    val(1, "key", "string", keep),
    val(2, "operator", "string", keep),
    list(3, "values", "string"),
  ],
  PreferredSchedulingTerm: [
    val(1, "weight", "int32", keep),
    val(2, "preference", "NodeSelectorTerm", keep),
  ],
  PodAffinity: [
    list(1, "requiredDuringSchedulingIgnoredDuringExecution", "PodAffinityTerm"),
    list(2, "preferredDuringSchedulingIgnoredDuringExecution", "WeightedPodAffinityTerm"),
  ],
  PodAntiAffinity: [
    list(1, "requiredDuringSchedulingIgnoredDuringExecution", "PodAffinityTerm"),
    list(2, "preferredDuringSchedulingIgnoredDuringExecution", "WeightedPodAffinityTerm"),
  ],
  PodAffinityTerm: [
    ptr(1, "labelSelector", "LabelSelector"),
    list(2, "namespaces", "string"),
    val(3, "topologyKey", "string", keep),
    ptr(4, "namespaceSelector", "LabelSelector"),
    list(5, "matchLabelKeys", "string"),
    list(6, "mismatchLabelKeys", "string"),
  ],
  WeightedPodAffinityTerm: [
    val(1, "weight", "int32", keep),
    val(2, "podAffinityTerm", "PodAffinityTerm", keep),
  ],
  Toleration: [
    val(1, "key", "string"),
    val(2, "operator", "string"),
    val(3, "value", "string"),
    val(4, "effect", "string"),
    ptr(5, "tolerationSeconds", "int64"),
  ],
  HostAlias: [val(1, "ip", "string", keep), list(2, "hostnames", "string")],
  PodDNSConfig: [
    list(1, "nameservers", "string"),
    list(2, "searches", "string"),
    list(3, "options", "PodDNSConfigOption"),
  ],
  PodDNSConfigOption: [val(1, "name", "string"), ptr(2, "value", "string")],
  PodReadinessGate: [val(1, "conditionType", "string", keep)],
  TopologySpreadConstraint: [
    val(1, "maxSkew", "int32", keep),
    val(2, "topologyKey", "string", keep),
    val(3, "whenUnsatisfiable", "string", keep),
    ptr(4, "labelSelector", "LabelSelector"),
    ptr(5, "minDomains", "int32"),
    ptr(6, "nodeAffinityPolicy", "string"),
    ptr(7, "nodeTaintsPolicy", "string"),
    list(8, "matchLabelKeys", "string"),
  ],
  PodOS: [val(1, "name", "string", keep)],
  PodSchedulingGate: [val(1, "name", "string", keep)],
  PodResourceClaim: [
    val(1, "name", "string", keep),
    ptr(3, "resourceClaimName", "string"),
    ptr(4, "resourceClaimTemplateName", "string"),
  ],
};
