/** Wire types of `meta/v1`, mirroring the JSON exactly. */

export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: "Apply" | "Update";
  apiVersion?: string;
  time?: string;
  fieldsType?: "FieldsV1";
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
  selfLink?: string;
}

/** Any API object: TypeMeta plus ObjectMeta plus whatever its kind adds. */
export interface KubeObject extends TypeMeta {
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** `metav1.Condition`, the standard condition shape of newer APIs. */
export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface DeleteOptions extends TypeMeta {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: "Orphan" | "Background" | "Foreground";
  dryRun?: string[];
}

/** Reads `metadata.namespace`/`metadata.name` as `"ns/name"` or `"name"`. */
export function objectKeyOf(obj: { metadata: ObjectMeta }): string {
  const ns = obj.metadata.namespace ?? "";
  const name = obj.metadata.name ?? "";
  return ns === "" ? name : `${ns}/${name}`;
}
