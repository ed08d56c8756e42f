export { newGangAdmission } from "./admission/index.ts";
export { ApiServer, type ApiServerOptions } from "./api-server.ts";
export {
  type Authenticator,
  anonymousUser,
  newAnonymousAuthenticator,
  newTokenAuthenticator,
} from "./authn.ts";
