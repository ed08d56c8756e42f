/** `authentication.k8s.io/v1` SelfSubjectReview: create-only, answered from the request's user. */
import { externalDefinitions } from "../apps/v1/core-adapter.ts";
import { kindSchema } from "../apps/v1/schema-helpers.ts";
import type { ObjectMeta } from "../meta/types.ts";
import { anyValue, atomicList, obj, str } from "../schema/builders.ts";
import type { Definitions } from "../schema/schema.ts";
import type { KindDefinition } from "../scheme.ts";

export interface UserInfoStatus {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface SelfSubjectReview {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  status?: { userInfo: UserInfoStatus };
  [field: string]: unknown;
}

const gv = { group: "authentication.k8s.io", version: "v1" };
const reviewName = "io.k8s.api.authentication.v1.SelfSubjectReview";

export const authenticationV1Definitions: Definitions = {
  [reviewName]: kindSchema(
    { ...gv, kind: "SelfSubjectReview" },
    "SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request.",
    {
      status: obj({
        userInfo: obj({
          username: str("The name that uniquely identifies this user among all active users."),
          uid: str("A unique value that identifies this user across time."),
          groups: atomicList(str(), "The names of groups this user is a part of."),
          extra: anyValue("Any additional information provided by the authenticator."),
        }),
      }),
    },
  ),
};

export const selfSubjectReviewKind: KindDefinition = {
  ...gv,
  kind: "SelfSubjectReview",
  listKind: "SelfSubjectReviewList",
  resource: "selfsubjectreviews",
  singular: "",
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: ["create"],
  schema: {
    schema: authenticationV1Definitions[reviewName] ?? {},
    definitions: { ...externalDefinitions(), ...authenticationV1Definitions },
  },
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: () => {},
  validate: () => [],
  validateUpdate: () => [],
};

/** Every served `authentication.k8s.io/v1` kind (TokenReview and TokenRequest come later). */
export const authenticationV1Kinds = [selfSubjectReviewKind] as const;
