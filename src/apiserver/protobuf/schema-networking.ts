// k8s.io/api/networking/v1: Ingress (what `kubectl create ingress` sends). Field numbers:
// networking/v1 generated.proto (1.33); JSON rules: networking/v1 types.go.

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
};
