/**
 * `networking.k8s.io/v1` defaults (pkg/apis/networking/v1/defaults.go, 1.33), plus the empty
 * value structs Go always prints (`spec: {}`, `status: {loadBalancer: {}}`, `podSelector: {}`).
 */
import type { Ingress, IngressClass } from "./ingress.ts";
import type { NetworkPolicy, NetworkPolicyPort } from "./network-policy.ts";

/**
 * Ingress has no defaulting function upstream: `pathType` in particular stays unset, and
 * validation then requires it. Only the value structs are filled.
 */
export function applyIngressDefaults(ingress: Ingress): void {
  ingress.spec ??= {};
  ingress.status ??= {};
  ingress.status.loadBalancer ??= {};
}

/** `SetDefaults_IngressClass`: a parameters reference without a scope is `Cluster`-scoped. */
export function applyIngressClassDefaults(ingressClass: IngressClass): void {
  ingressClass.spec ??= {};
  const parameters = ingressClass.spec.parameters;
  if (parameters !== undefined && parameters !== null) parameters.scope ??= "Cluster";
}

function defaultPorts(ports: readonly NetworkPolicyPort[] | undefined | null): void {
  for (const port of ports ?? []) port.protocol ??= "TCP";
}

/**
 * `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`: every port's protocol is
 * `TCP` when unset; without `policyTypes` a policy is `Ingress`, plus `Egress` when it has
 * egress rules.
 */
export function applyNetworkPolicyDefaults(policy: NetworkPolicy): void {
  policy.spec ??= {};
  const spec = policy.spec;
  spec.podSelector ??= {};
  for (const rule of spec.ingress ?? []) defaultPorts(rule.ports);
  for (const rule of spec.egress ?? []) defaultPorts(rule.ports);
  if ((spec.policyTypes ?? []).length === 0) {
    spec.policyTypes = (spec.egress ?? []).length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
  }
}
