// The public surface of authorization.k8s.io/v1.
export {
  authorizationV1Definitions,
  authorizationV1Kinds,
  localSubjectAccessReviewKind,
  selfSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  subjectAccessReviewKind,
  validateAccessReview,
} from "./kinds.ts";
export type {
  AccessReview,
  AccessReview as AuthorizationAccessReview,
  NonResourceAttributes,
  NonResourceRule,
  NonResourceRule as AuthorizationNonResourceRule,
  ResourceAttributes,
  ResourceAttributes as AuthorizationResourceAttributes,
  ResourceRule,
  ResourceRule as AuthorizationResourceRule,
  SelfSubjectRulesReview,
  SubjectAccessReviewSpec,
  SubjectAccessReviewStatus,
} from "./types.ts";
