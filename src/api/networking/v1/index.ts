// The public surface of networking.k8s.io/v1.
export {
  applyIngressClassDefaults,
  applyIngressDefaults,
  applyNetworkPolicyDefaults,
} from "./defaults.ts";
export {
  type HttpIngressPath,
  type HttpIngressRuleValue,
  type Ingress,
  type IngressBackend,
  type IngressClass,
  type IngressClassParametersReference,
  type IngressClassSpec,
  type IngressRule,
  type IngressSpec,
  type IngressStatus,
  type IngressTls,
  ingressClassAnnotation,
  isDefaultIngressClassAnnotation,
  type PathType,
} from "./ingress.ts";
export { validateIngressClass, validateIngressClassUpdate } from "./ingress-class-validation.ts";
export {
  validateIngressCreate,
  validateIngressStatusUpdate,
  validateIngressUpdate,
} from "./ingress-validation.ts";
export { ingressClassKind, ingressKind, networkingV1Kinds, networkPolicyKind } from "./kinds.ts";
export type {
  IpBlock,
  NetworkPolicy,
  NetworkPolicyEgressRule,
  NetworkPolicyIngressRule,
  NetworkPolicyPeer,
  NetworkPolicyPort,
  NetworkPolicySpec,
  PolicyType,
} from "./network-policy.ts";
export { validateNetworkPolicy, validateNetworkPolicyUpdate } from "./network-policy-validation.ts";
export { networkingName, networkingV1Definitions } from "./schema.ts";
