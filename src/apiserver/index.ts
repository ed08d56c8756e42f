export {
  newGangAdmission,
  type ObjectReader,
  type PodSecurityConfiguration,
  parsePodSecurityConfiguration,
} from "./admission/index.ts";
export { ApiServer, type ApiServerOptions } from "./api-server.ts";
export {
  type AuditLog,
  type AuditPolicy,
  newAuditLog,
  openAuditLogFile,
  parseAuditPolicy,
} from "./audit/index.ts";
export {
  type Authenticator,
  anonymousUser,
  newAnonymousAuthenticator,
  newStaticTokenAuthenticator,
  newTokenAuthenticator,
  parseTokenFile,
  type StaticToken,
  type TokenAuthenticator,
  type User,
} from "./authn.ts";
export {
  type ClientCertificateAuthenticator,
  type ClientCertificateResult,
  newClientCertificateAuthenticator,
  parseCertificateBundle,
  verifyClientCertificate,
  withClientCertificates,
} from "./authn-x509.ts";
export {
  type Authorizer,
  newAlwaysAllowAuthorizer,
  newRbacAuthorizer,
  type PolicySource,
} from "./authz/index.ts";
export {
  defaultServiceAccountIssuer,
  newServiceAccountTokens,
  type ObjectLookup,
  type ServiceAccountTokens,
  type SigningKey,
  serviceAccountClaims,
  signCompact,
  signingKeyFromPem,
} from "./serviceaccount/index.ts";
