/**
 * The review resources: authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview, SelfSubjectRulesReview and authentication.k8s.io/v1
 * SelfSubjectReview. Create-only and never stored: the answer comes from the authorizer (or the
 * request's own user), as upstream's `pkg/registry/authorization` and `selfsubjectreview` REST.
 */
import {
  type AuthorizationAccessReview,
  type AuthorizationResourceRule,
  badRequest,
  type FieldErrorList,
  invalidObject,
  type PolicyRule,
} from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import type { UserInfo } from "../admission/index.ts";
import type { Attributes } from "../authz/attributes.ts";
import type { Authorizer } from "../authz/authorizer.ts";
import type { ImpersonatedUser } from "../authz/impersonation.ts";
import { decodeObject } from "../handlers/decode.ts";
import type { HandlerDeps, RequestScope } from "../handlers/scope.ts";
import { writeJson } from "../http/responses.ts";

/** `group/resource` of every review this module serves. */
export const reviewResources: ReadonlySet<string> = new Set([
  "authorization.k8s.io/subjectaccessreviews",
  "authorization.k8s.io/localsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectrulesreviews",
  "authentication.k8s.io/selfsubjectreviews",
]);

/** `ResourceAttributesFrom` / `NonResourceAttributesFrom`. */
function attributesFromSpec(review: AuthorizationAccessReview, user: UserInfo): Attributes {
  const resource = review.spec.resourceAttributes;
  if (resource !== undefined) {
    return {
      kind: "resource",
      user,
      verb: resource.verb ?? "",
      namespace: resource.namespace ?? "",
      apiGroup: resource.group ?? "",
      apiVersion: (resource.version ?? "") === "" ? "*" : (resource.version ?? ""),
      resource: resource.resource ?? "",
      subresource: resource.subresource ?? "",
      name: resource.name ?? "",
    };
  }
  const nonResource = review.spec.nonResourceAttributes ?? {};
  return { kind: "nonResource", user, verb: nonResource.verb ?? "", path: nonResource.path ?? "" };
}

function check(scope: RequestScope, errors: FieldErrorList): void {
  if (errors.length === 0) return;
  const definition = scope.store.entry.definition;
  throw invalidObject({ group: definition.group, kind: definition.kind }, "", errors);
}

function accessReview(
  scope: RequestScope,
  authorizer: Authorizer,
  review: AuthorizationAccessReview,
): AuthorizationAccessReview {
  const definition = scope.store.entry.definition;
  const resource = definition.resource;
  check(scope, definition.validate(review));
  let user: UserInfo = scope.user;
  if (resource === "subjectaccessreviews" || resource === "localsubjectaccessreviews") {
    user = { username: review.spec.user ?? "", groups: review.spec.groups ?? [] };
  }
  if (resource === "localsubjectaccessreviews") {
    if (review.spec.nonResourceAttributes !== undefined) {
      check(scope, [
        {
          type: "FieldValueInvalid",
          field: "spec.nonResourceAttributes",
          value: review.spec.nonResourceAttributes,
          detail: "disallowed on this kind of request",
        },
      ]);
    }
    const namespace = scope.info.namespace;
    const attributes = review.spec.resourceAttributes ?? {};
    if ((attributes.namespace ?? "") === "") {
      attributes.namespace = namespace;
    } else if (attributes.namespace !== namespace) {
      throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    }
  }
  const decision = authorizer.authorize(attributesFromSpec(review, user));
  review.status = {
    allowed: decision.allowed,
    ...(decision.reason === "" ? {} : { reason: decision.reason }),
  };
  return review;
}

function resourceRule(rule: PolicyRule): AuthorizationResourceRule {
  return {
    verbs: rule.verbs,
    ...((rule.apiGroups ?? []).length === 0 ? {} : { apiGroups: rule.apiGroups }),
    ...((rule.resources ?? []).length === 0 ? {} : { resources: rule.resources }),
    ...((rule.resourceNames ?? []).length === 0 ? {} : { resourceNames: rule.resourceNames }),
  };
}

/** Answers a POST to a review resource with 201 and the review's status. */
export async function handleReview(
  deps: HandlerDeps,
  scope: RequestScope,
  authorizer: Authorizer,
): Promise<void> {
  const definition = scope.store.entry.definition;
  if (scope.info.verb !== "create" || scope.info.name !== "") {
    throw badRequest(`${definition.resource} support only create`);
  }
  const review = await decodeObject(deps, scope, "CreateOptions");
  review.apiVersion = `${definition.group}/${definition.version}`;
  review.kind = definition.kind;
  const metadata = { ...review.metadata, creationTimestamp: null };
  let answer: Record<string, unknown>;
  switch (definition.resource) {
    case "selfsubjectrulesreviews": {
      const namespace = ((review["spec"] ?? {}) as { namespace?: string }).namespace ?? "";
      if (namespace === "") throw badRequest("no namespace on request");
      const rules = authorizer.rulesFor(scope.user, namespace);
      answer = {
        kind: definition.kind,
        apiVersion: review.apiVersion,
        metadata: { creationTimestamp: null },
        spec: {},
        status: {
          resourceRules: rules.resourceRules.map(resourceRule),
          nonResourceRules: rules.nonResourceRules.map((r) => ({
            verbs: r.verbs,
            nonResourceURLs: r.nonResourceURLs ?? [],
          })),
          incomplete: rules.incomplete,
          ...(rules.evaluationError === "" ? {} : { evaluationError: rules.evaluationError }),
        },
      };
      break;
    }
    case "selfsubjectreviews": {
      const user = scope.user as ImpersonatedUser;
      answer = {
        kind: definition.kind,
        apiVersion: review.apiVersion,
        // Upstream answers with fresh metadata: whatever the request's metadata said is dropped.
        metadata: { creationTimestamp: rfc3339(deps.clock.now()) },
        status: {
          userInfo: {
            username: user.username,
            ...(user.uid === undefined ? {} : { uid: user.uid }),
            groups: user.groups,
            ...(user.extra === undefined ? {} : { extra: user.extra }),
          },
        },
      };
      break;
    }
    default:
      answer = {
        ...accessReview(scope, authorizer, review as AuthorizationAccessReview),
        metadata,
      };
  }
  writeJson(scope.res, 201, answer, { warnings: scope.warnings });
}
