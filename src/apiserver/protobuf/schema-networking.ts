// k8s.io/api/networking/v1: Ingress (what `kubectl create ingress` sends), and IngressClass and
// NetworkPolicy (what client-go 1.32+ typed clients send). Field numbers: networking/v1
// generated.proto (1.33); JSON rules: networking/v1 types.go.

import { inline, keep, list, type MessageTable, ptr, val } from "./schema.ts";

export const networkingMessages: MessageTable = {
  Ingress: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "IngressSpec"),
    val(3, "status", "IngressStatus"),
  ],
  IngressSpec: [
    ptr(4, "ingressClassName", "string"),
    ptr(1, "defaultBackend", "IngressBackend"),
    list(2, "tls", "IngressTLS"),
    list(3, "rules", "IngressRule"),
  ],
  IngressBackend: [
    ptr(4, "service", "IngressServiceBackend"),
    ptr(3, "resource", "TypedLocalObjectReference"),
  ],
  IngressServiceBackend: [val(1, "name", "string", keep), val(2, "port", "ServiceBackendPort")],
  ServiceBackendPort: [val(1, "name", "string"), val(2, "number", "int32")],
  TypedLocalObjectReference: [
    ptr(1, "apiGroup", "string", keep),
    val(2, "kind", "string", keep),
    val(3, "name", "string", keep),
  ],
  IngressRule: [val(1, "host", "string"), inline(2, "IngressRuleValue")],
  IngressRuleValue: [ptr(1, "http", "HTTPIngressRuleValue")],
  HTTPIngressRuleValue: [list(1, "paths", "HTTPIngressPath", keep)],
  HTTPIngressPath: [
    val(1, "path", "string"),
    ptr(3, "pathType", "string", keep),
    val(2, "backend", "IngressBackend", keep),
  ],
  IngressTLS: [list(1, "hosts", "string"), val(2, "secretName", "string")],
  IngressStatus: [val(1, "loadBalancer", "IngressLoadBalancerStatus")],
  IngressLoadBalancerStatus: [list(1, "ingress", "IngressLoadBalancerIngress")],
  IngressLoadBalancerIngress: [
    val(1, "ip", "string"),
    val(2, "hostname", "string"),
    list(4, "ports", "IngressPortStatus"),
  ],
  IngressPortStatus: [
    val(1, "port", "int32", keep),
    val(2, "protocol", "string", keep),
    ptr(3, "error", "string"),
  ],
  IngressClass: [val(1, "metadata", "ObjectMeta"), val(2, "spec", "IngressClassSpec")],
  IngressClassSpec: [
    val(1, "controller", "string"),
    ptr(2, "parameters", "IngressClassParametersReference"),
  ],
  IngressClassParametersReference: [
    ptr(1, "apiGroup", "string"),
    val(2, "kind", "string", keep),
    val(3, "name", "string", keep),
    ptr(4, "scope", "string", keep),
    ptr(5, "namespace", "string"),
  ],
  // Field 3 (status) is tombstoned upstream.
  NetworkPolicy: [val(1, "metadata", "ObjectMeta"), val(2, "spec", "NetworkPolicySpec")],
  NetworkPolicySpec: [
    val(1, "podSelector", "LabelSelector", keep),
    list(2, "ingress", "NetworkPolicyIngressRule"),
    list(3, "egress", "NetworkPolicyEgressRule"),
    list(4, "policyTypes", "string"),
  ],
  NetworkPolicyIngressRule: [
    list(1, "ports", "NetworkPolicyPort"),
    list(2, "from", "NetworkPolicyPeer"),
  ],
  NetworkPolicyEgressRule: [
    list(1, "ports", "NetworkPolicyPort"),
    list(2, "to", "NetworkPolicyPeer"),
  ],
  NetworkPolicyPort: [
    ptr(1, "protocol", "string"),
    ptr(2, "port", "IntOrString"),
    ptr(3, "endPort", "int32"),
  ],
  NetworkPolicyPeer: [
    ptr(1, "podSelector", "LabelSelector"),
    ptr(2, "namespaceSelector", "LabelSelector"),
    ptr(3, "ipBlock", "IPBlock"),
  ],
  IPBlock: [val(1, "cidr", "string", keep), list(2, "except", "string")],
};
