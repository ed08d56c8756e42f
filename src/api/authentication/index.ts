// The public surface of authentication.k8s.io/v1.
export {
  authenticationV1Definitions,
  authenticationV1Kinds,
  type SelfSubjectReview,
  selfSubjectReviewKind,
  type UserInfoStatus,
} from "./kinds.ts";
export {
  type BoundObjectReference,
  defaultTokenExpirationSeconds,
  defaultTokenRequest,
  maxTokenExpirationSeconds,
  minTokenExpirationSeconds,
  type TokenRequest,
  type TokenRequestSpec,
  type TokenRequestStatus,
  tokenRequestKind,
  validateTokenRequest,
} from "./token-request.ts";
