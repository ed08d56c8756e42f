// The public surface of authentication.k8s.io/v1.
export {
  authenticationV1Definitions,
  authenticationV1Kinds,
  type SelfSubjectReview,
  selfSubjectReviewKind,
  type UserInfoStatus,
} from "./kinds.ts";
