/** Wire types of `networking.k8s.io/v1` NetworkPolicy, mirroring the JSON exactly. */
import type { IntOrString, Protocol } from "../../core/v1/pod-template.ts";
import type { KubeObject, LabelSelector } from "../../meta/types.ts";

export type PolicyType = "Ingress" | "Egress";

export interface IpBlock {
  cidr: string;
  except?: string[];
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: IpBlock;
}

export interface NetworkPolicyPort {
  protocol?: Protocol;
  port?: IntOrString;
  endPort?: number;
}

export interface NetworkPolicyIngressRule {
  ports?: NetworkPolicyPort[];
  from?: NetworkPolicyPeer[];
}

export interface NetworkPolicyEgressRule {
  ports?: NetworkPolicyPort[];
  to?: NetworkPolicyPeer[];
}

export interface NetworkPolicySpec {
  podSelector?: LabelSelector;
  ingress?: NetworkPolicyIngressRule[];
  egress?: NetworkPolicyEgressRule[];
  policyTypes?: PolicyType[];
}

export interface NetworkPolicy extends KubeObject {
  spec?: NetworkPolicySpec;
}
