// Authorization inside the API server: request attributes, the RBAC and AlwaysAllow
// authorizers, impersonation and the 403 they answer with. Used by server.ts and api-server.ts.
export { type Attributes, attributesOf } from "./attributes.ts";
export {
  type Authorizer,
  type Decision,
  newAlwaysAllowAuthorizer,
  newRbacAuthorizer,
  privilegedGroup,
  type RulesResult,
} from "./authorizer.ts";
export { forbiddenError, forbiddenMessage } from "./forbidden.ts";
export { hasImpersonation, type ImpersonatedUser, impersonate } from "./impersonation.ts";
export {
  clusterRoleBindingsSegment,
  newCachePolicySource,
  type PolicySource,
  roleBindingsSegment,
  subjectIndex,
  subjectIndexName,
} from "./policy-source.ts";
