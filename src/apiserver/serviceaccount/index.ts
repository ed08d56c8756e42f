// The public surface of apiserver/serviceaccount: bound service account tokens (issue,
// authenticate, TokenRequest, issuer discovery). Named exports only.
export {
  type KubernetesClaim,
  leewaySeconds,
  type ObjectLookup,
  type ServiceAccountTokenClaims,
  serviceAccountClaims,
  serviceAccountUsername,
} from "./claims.ts";
export {
  decodeBase64Url,
  keyIdOf,
  parseCompact,
  type SigningAlgorithm,
  type SigningKey,
  signCompact,
  signingKeyFromPem,
  type VerificationKey,
  verificationKeyOf,
  verifySignature,
} from "./jwt.ts";
export { jwksPath, openIdConfigPath, serveIssuerDiscovery } from "./openid-routes.ts";
export { handleTokenRequest } from "./token-request.ts";
export {
  defaultServiceAccountIssuer,
  expirationExtensionSeconds,
  type IssueInput,
  type IssuerDiscovery,
  newServiceAccountTokens,
  type ServiceAccountTokens,
  type ServiceAccountTokensOptions,
  userOf,
  warnOnlyBoundTokenExpirationSeconds,
} from "./tokens.ts";
