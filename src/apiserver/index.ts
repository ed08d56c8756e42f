export { newGangAdmission } from "./admission/index.ts";
export { ApiServer, type ApiServerOptions } from "./api-server.ts";
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
  type Authorizer,
  newAlwaysAllowAuthorizer,
  newRbacAuthorizer,
  type PolicySource,
} from "./authz/index.ts";
