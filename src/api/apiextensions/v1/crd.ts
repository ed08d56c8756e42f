/** Wire types of `apiextensions.k8s.io/v1` CustomResourceDefinition, mirroring the JSON exactly. */
import type { ObjectMeta } from "../../meta/types.ts";
import type { Schema } from "../../schema/schema.ts";

/**
 * A CRD's `openAPIV3Schema` node: the structural schema fields gantry understands, plus anything
 * else a client may send (`title`, `example`, `x-kubernetes-validations`, …), kept as sent and
 * checked by the structural-schema rules.
 */
export type JSONSchemaProps = Schema & { [field: string]: unknown };

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  /** `{}` enables `/status`. */
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions: string[];
}

export interface CustomResourceConversion {
  strategy: "None" | "Webhook";
  webhook?: WebhookConversion;
}

export type ResourceScope = "Namespaced" | "Cluster";

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: ResourceScope;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export type CustomResourceDefinitionConditionType =
  | "Established"
  | "NamesAccepted"
  | "NonStructuralSchema"
  | "Terminating"
  | "KubernetesAPIApprovalPolicyConformant";

export interface CustomResourceDefinitionCondition {
  type: CustomResourceDefinitionConditionType | string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
  [field: string]: unknown;
}

/** The version whose `storage` flag is set, if exactly one is. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  const storage = (crd.spec?.versions ?? []).filter((v) => v.storage);
  return storage.length === 1 ? storage[0]?.name : undefined;
}

/** Whether the CRD carries the condition with status True. */
export function isCrdConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");
}
