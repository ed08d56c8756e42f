/** Wire types of `networking.k8s.io/v1` Ingress and IngressClass, mirroring the JSON exactly. */
import type { KubeObject } from "../../meta/types.ts";

/** `Exact`, `Prefix` or `ImplementationSpecific`; upstream sets no default. */
export type PathType = "Exact" | "Prefix" | "ImplementationSpecific";

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface ServiceBackendPort {
  name?: string;
  number?: number;
}

export interface IngressServiceBackend {
  name: string;
  port?: ServiceBackendPort;
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: TypedLocalObjectReference;
}

export interface HttpIngressPath {
  path?: string;
  pathType?: PathType;
  backend: IngressBackend;
}

export interface HttpIngressRuleValue {
  paths: HttpIngressPath[];
}

export interface IngressRule {
  host?: string;
  http?: HttpIngressRuleValue;
}

export interface IngressTls {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTls[];
  rules?: IngressRule[];
}

export interface IngressPortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: IngressPortStatus[];
}

export interface IngressStatus {
  loadBalancer?: { ingress?: IngressLoadBalancerIngress[] };
}

export interface Ingress extends KubeObject {
  spec?: IngressSpec;
  status?: IngressStatus;
}

/** `Namespace` or `Cluster` (the default). */
export type IngressClassParametersScope = "Namespace" | "Cluster";

export interface IngressClassParametersReference {
  apiGroup?: string;
  kind: string;
  name: string;
  scope?: string;
  namespace?: string;
}

export interface IngressClassSpec {
  controller?: string;
  parameters?: IngressClassParametersReference;
}

export interface IngressClass extends KubeObject {
  spec?: IngressClassSpec;
}

/** The deprecated annotation naming an Ingress's class (`networkingv1beta1.AnnotationIngressClass`). */
export const ingressClassAnnotation = "kubernetes.io/ingress.class";

/** `networkingv1.AnnotationIsDefaultIngressClass`: `"true"` marks the cluster's default class. */
export const isDefaultIngressClassAnnotation = "ingressclass.kubernetes.io/is-default-class";
