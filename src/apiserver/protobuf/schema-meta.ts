// k8s.io/apimachinery/pkg/apis/meta/v1 messages that API objects embed.
// Field numbers: apimachinery meta/v1 generated.proto. JSON rules: meta/v1 types.go.

import { keep, list, type MessageTable, map, ptr, val } from "./schema.ts";

export const metaMessages: MessageTable = {
  ObjectMeta: [
    val(1, "name", "string"),
    val(2, "generateName", "string"),
    val(3, "namespace", "string"),
    val(4, "selfLink", "string"),
    val(5, "uid", "string"),
    val(6, "resourceVersion", "string"),
    val(7, "generation", "int64"),
    val(8, "creationTimestamp", "Time"),
    ptr(9, "deletionTimestamp", "Time"),
    ptr(10, "deletionGracePeriodSeconds", "int64"),
    map(11, "labels", "string"),
    map(12, "annotations", "string"),
    list(13, "ownerReferences", "OwnerReference"),
    list(14, "finalizers", "string"),
    list(17, "managedFields", "ManagedFieldsEntry"),
  ],
  OwnerReference: [
    val(5, "apiVersion", "string", keep),
    val(1, "kind", "string", keep),
    val(3, "name", "string", keep),
    val(4, "uid", "string", keep),
    ptr(6, "controller", "bool"),
    ptr(7, "blockOwnerDeletion", "bool"),
  ],
  ManagedFieldsEntry: [
    val(1, "manager", "string"),
    val(2, "operation", "string"),
    val(3, "apiVersion", "string"),
    ptr(4, "time", "Time"),
    val(6, "fieldsType", "string"),
    ptr(7, "fieldsV1", "FieldsV1"),
    val(8, "subresource", "string"),
  ],
  LabelSelector: [
    map(1, "matchLabels", "string"),
    list(2, "matchExpressions", "LabelSelectorRequirement"),
  ],
  LabelSelectorRequirement: [
    val(1, "key", "string", keep),
    val(2, "operator", "string", keep),
    list(3, "values", "string"),
  ],
  Condition: [
    val(1, "type", "string", keep),
    val(2, "status", "string", keep),
    val(3, "observedGeneration", "int64"),
    val(4, "lastTransitionTime", "Time", keep),
    val(5, "reason", "string", keep),
    val(6, "message", "string", keep),
  ],
};
