/** The `networking.k8s.io/v1` KindDefinitions: Ingress, IngressClass and NetworkPolicy. */
import { externalDefinitions } from "../../apps/v1/core-adapter.ts";
import type { SchemaRoot } from "../../schema/schema.ts";
import { allVerbs, type KindDefinition } from "../../scheme.ts";
import {
  applyIngressClassDefaults,
  applyIngressDefaults,
  applyNetworkPolicyDefaults,
} from "./defaults.ts";
import type { Ingress, IngressClass } from "./ingress.ts";
import { validateIngressClass, validateIngressClassUpdate } from "./ingress-class-validation.ts";
import {
  validateIngressCreate,
  validateIngressStatusUpdate,
  validateIngressUpdate,
} from "./ingress-validation.ts";
import type { NetworkPolicy } from "./network-policy.ts";
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from "./network-policy-validation.ts";
import { networkingName, networkingV1Definitions } from "./schema.ts";

function root(name: string): SchemaRoot {
  const definitions = { ...externalDefinitions(), ...networkingV1Definitions };
  const schema = definitions[networkingName(name)];
  if (schema === undefined) throw new RangeError(`Cannot find schema definition "${name}"`);
  return { schema, definitions };
}

const gv = { group: "networking.k8s.io", version: "v1" } as const;

export const ingressKind: KindDefinition<Ingress> = {
  ...gv,
  kind: "Ingress",
  listKind: "IngressList",
  resource: "ingresses",
  singular: "ingress",
  namespaced: true,
  shortNames: ["ing"],
  categories: [],
  verbs: allVerbs,
  schema: root("Ingress"),
  // Upstream's strategy bumps the generation when the spec changes; status lives in /status.
  tracksGeneration: true,
  subresources: { status: true },
  applyDefaults: applyIngressDefaults,
  validate: validateIngressCreate,
  validateUpdate: validateIngressUpdate,
  validateStatusUpdate: validateIngressStatusUpdate,
};

export const ingressClassKind: KindDefinition<IngressClass> = {
  ...gv,
  kind: "IngressClass",
  listKind: "IngressClassList",
  resource: "ingressclasses",
  singular: "ingressclass",
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: allVerbs,
  schema: root("IngressClass"),
  tracksGeneration: true,
  subresources: { status: false },
  applyDefaults: applyIngressClassDefaults,
  validate: validateIngressClass,
  validateUpdate: validateIngressClassUpdate,
};

export const networkPolicyKind: KindDefinition<NetworkPolicy> = {
  ...gv,
  kind: "NetworkPolicy",
  listKind: "NetworkPolicyList",
  resource: "networkpolicies",
  singular: "networkpolicy",
  namespaced: true,
  shortNames: ["netpol"],
  categories: [],
  verbs: allVerbs,
  schema: root("NetworkPolicy"),
  tracksGeneration: true,
  subresources: { status: false },
  applyDefaults: applyNetworkPolicyDefaults,
  validate: validateNetworkPolicy,
  validateUpdate: validateNetworkPolicyUpdate,
};

/** Every served `networking.k8s.io/v1` kind. */
export const networkingV1Kinds = [ingressKind, ingressClassKind, networkPolicyKind] as const;
