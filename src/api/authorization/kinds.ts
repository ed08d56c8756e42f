/**
 * The `authorization.k8s.io/v1` review kinds: create-only, never stored. The API server answers
 * them from its authorizer.
 */
import { externalDefinitions } from "../apps/v1/core-adapter.ts";
import { kindSchema } from "../apps/v1/schema-helpers.ts";
import { type FieldErrorList, invalid } from "../meta/field-errors.ts";
import { fieldPath } from "../meta/field-path.ts";
import type { KubeObject } from "../meta/types.ts";
import { anyValue, atomicList, bool, obj, str } from "../schema/builders.ts";
import type { Definitions, Schema } from "../schema/schema.ts";
import type { KindDefinition } from "../scheme.ts";
import type { AccessReview } from "./types.ts";

const gv = { group: "authorization.k8s.io", version: "v1" };

function name(kind: string): string {
  return `io.k8s.api.authorization.v1.${kind}`;
}

const resourceAttributes = obj({
  namespace: str("Namespace is the namespace of the action being requested."),
  verb: str(
    'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.',
  ),
  group: str('Group is the API Group of the Resource.  "*" means all.'),
  version: str('Version is the API Version of the Resource.  "*" means all.'),
  resource: str('Resource is one of the existing resource types.  "*" means all.'),
  subresource: str('Subresource is one of the existing resource types.  "" means none.'),
  name: str(
    'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.',
  ),
  fieldSelector: anyValue("fieldSelector describes the limitation on access based on field."),
  labelSelector: anyValue("labelSelector describes the limitation on access based on labels."),
});
const nonResourceAttributes = obj({
  path: str("Path is the URL path of the request"),
  verb: str("Verb is the standard HTTP verb"),
});
const reviewStatus = obj({
  allowed: bool("Allowed is required. True if the action would be allowed, false otherwise."),
  denied: bool("Denied is optional. True if the action would be denied, otherwise false."),
  reason: str("Reason is optional.  It indicates why a request was allowed or denied."),
  evaluationError: str(
    "EvaluationError is an indication that some error occurred during the authorization check.",
  ),
});
const strings = atomicList(str());

function reviewSchema(kind: string, spec: Schema): Schema {
  return kindSchema(
    { ...gv, kind },
    `${kind} checks whether or not an action can be performed.`,
    {
      spec,
      status: reviewStatus,
    },
    ["spec"],
  );
}

const subjectSpec = obj({
  resourceAttributes,
  nonResourceAttributes,
  user: str("User is the user you're testing for."),
  groups: strings,
  uid: str("UID information about the requesting user."),
  extra: anyValue("Extra corresponds to the user.Info.GetExtra() method from the authenticator."),
});
const selfSpec = obj({ resourceAttributes, nonResourceAttributes });

export const authorizationV1Definitions: Definitions = {
  [name("SubjectAccessReview")]: reviewSchema("SubjectAccessReview", subjectSpec),
  [name("LocalSubjectAccessReview")]: reviewSchema("LocalSubjectAccessReview", subjectSpec),
  [name("SelfSubjectAccessReview")]: reviewSchema("SelfSubjectAccessReview", selfSpec),
  [name("SelfSubjectRulesReview")]: kindSchema(
    { ...gv, kind: "SelfSubjectRulesReview" },
    "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.",
    {
      spec: obj({ namespace: str("Namespace to evaluate rules for. Required.") }),
      status: anyValue(
        "Status is filled in by the server and indicates the set of actions a user can perform.",
      ),
    },
    ["spec"],
  ),
};

/** `ValidateSubjectAccessReviewSpec` (and the self variant, which has no user). */
export function validateAccessReview(review: AccessReview, withUser: boolean): FieldErrorList {
  const spec = review.spec ?? {};
  const path = fieldPath("spec");
  const errs: FieldErrorList = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errs.push(
      invalid(
        path.child("nonResourceAttributes"),
        spec.nonResourceAttributes,
        "cannot be specified in combination with resourceAttributes",
      ),
    );
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    errs.push(
      invalid(
        path.child("resourceAttributes"),
        null,
        "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      ),
    );
  }
  if (withUser && (spec.user ?? "") === "" && (spec.groups ?? []).length === 0) {
    errs.push(
      invalid(
        path.child("user"),
        spec.user ?? "",
        "at least one of user or group must be specified",
      ),
    );
  }
  return errs;
}

function reviewKind(
  kind: string,
  resource: string,
  namespaced: boolean,
  withUser: boolean,
): KindDefinition {
  return {
    ...gv,
    kind,
    listKind: `${kind}List`,
    resource,
    singular: "",
    namespaced,
    shortNames: [],
    categories: [],
    verbs: ["create"],
    schema: {
      schema: authorizationV1Definitions[name(kind)] ?? {},
      definitions: { ...externalDefinitions(), ...authorizationV1Definitions },
    },
    tracksGeneration: false,
    subresources: { status: false },
    applyDefaults: () => {},
    validate: (review: KubeObject) =>
      kind === "SelfSubjectRulesReview"
        ? []
        : validateAccessReview(review as AccessReview, withUser),
    validateUpdate: () => [],
  };
}

export const localSubjectAccessReviewKind = reviewKind(
  "LocalSubjectAccessReview",
  "localsubjectaccessreviews",
  true,
  true,
);
export const selfSubjectAccessReviewKind = reviewKind(
  "SelfSubjectAccessReview",
  "selfsubjectaccessreviews",
  false,
  false,
);
export const selfSubjectRulesReviewKind = reviewKind(
  "SelfSubjectRulesReview",
  "selfsubjectrulesreviews",
  false,
  false,
);
export const subjectAccessReviewKind = reviewKind(
  "SubjectAccessReview",
  "subjectaccessreviews",
  false,
  true,
);

/** Every served `authorization.k8s.io/v1` kind, in upstream's discovery order. */
export const authorizationV1Kinds = [
  localSubjectAccessReviewKind,
  selfSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  subjectAccessReviewKind,
] as const;
