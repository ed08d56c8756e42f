// k8s.io/api authorization/v1 access reviews and authentication/v1 SelfSubjectReview (what
// `kubectl auth can-i` and `kubectl auth whoami` send through the 1.32+ protobuf clients). Field
// numbers: authorization/v1 and authentication/v1 generated.proto (1.33); JSON rules: types.go.

import { keep, list, type MessageTable, ptr, val } from "./schema.ts";

const review = (spec: string) => [
  val(1, "metadata", "ObjectMeta"),
  val(2, "spec", spec, keep),
  val(3, "status", "SubjectAccessReviewStatus"),
];

export const authorizationMessages: MessageTable = {
  SelfSubjectAccessReview: review("SelfSubjectAccessReviewSpec"),
  SubjectAccessReview: review("SubjectAccessReviewSpec"),
  LocalSubjectAccessReview: review("SubjectAccessReviewSpec"),
  SelfSubjectAccessReviewSpec: [
    ptr(1, "resourceAttributes", "ResourceAttributes"),
    ptr(2, "nonResourceAttributes", "NonResourceAttributes"),
  ],
  SubjectAccessReviewSpec: [
    ptr(1, "resourceAttributes", "ResourceAttributes"),
    ptr(2, "nonResourceAttributes", "NonResourceAttributes"),
    val(3, "user", "string"),
    list(4, "groups", "string"),
    val(6, "uid", "string"),
  ],
  ResourceAttributes: [
    val(1, "namespace", "string"),
    val(2, "verb", "string"),
    val(3, "group", "string"),
    val(4, "version", "string"),
    val(5, "resource", "string"),
    val(6, "subresource", "string"),
    val(7, "name", "string"),
  ],
  NonResourceAttributes: [val(1, "path", "string"), val(2, "verb", "string")],
  SubjectAccessReviewStatus: [
    val(1, "allowed", "bool", keep),
    val(2, "reason", "string"),
    val(3, "evaluationError", "string"),
    val(4, "denied", "bool"),
  ],
  SelfSubjectRulesReview: [
    val(1, "metadata", "ObjectMeta"),
    val(2, "spec", "SelfSubjectRulesReviewSpec", keep),
  ],
  SelfSubjectRulesReviewSpec: [val(1, "namespace", "string")],
  SelfSubjectReview: [val(1, "metadata", "ObjectMeta")],
};
