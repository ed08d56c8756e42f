/**
 * `authentication.k8s.io/v1` TokenRequest: the body of `POST serviceaccounts/NAME/token` and its
 * answer. Never stored; the types, schema, defaults and validation of upstream's
 * `pkg/apis/authentication` (v1 defaults, `ValidateTokenRequest`).
 */
import { externalDefinitions } from "../apps/v1/core-adapter.ts";
import { kindSchema } from "../apps/v1/schema-helpers.ts";
import { type FieldErrorList, invalid } from "../meta/field-errors.ts";
import { FieldPath } from "../meta/field-path.ts";
import type { KubeObject } from "../meta/types.ts";
import { atomicList, int64, obj, str, time } from "../schema/builders.ts";
import type { Definitions } from "../schema/schema.ts";
import type { KindDefinition } from "../scheme.ts";

/** The object a token is bound to: it stops working when that object is gone. */
export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequestSpec {
  /** Who the token is meant for; empty means the API server's own audiences. */
  audiences?: string[] | null;
  /** Requested lifetime; 3600 when absent (v1 defaulting). */
  expirationSeconds?: number | null;
  boundObjectRef?: BoundObjectReference | null;
}

export interface TokenRequestStatus {
  token: string;
  expirationTimestamp: string | null;
}

export interface TokenRequest extends KubeObject {
  spec: TokenRequestSpec;
  status?: TokenRequestStatus;
}

/** `SetDefaults_TokenRequestSpec`: an hour unless asked otherwise. */
export const defaultTokenExpirationSeconds = 3600;

/** `MinTokenAgeSec`: no token lives less than ten minutes. */
export const minTokenExpirationSeconds = 10 * 60;

/** The longest lifetime a request may ask for (2^32 seconds). */
export const maxTokenExpirationSeconds = 2 ** 32;

/** Fills the v1 defaults in place: `spec.expirationSeconds` 3600 when absent. */
export function defaultTokenRequest(request: TokenRequest): void {
  if (typeof request.spec !== "object" || request.spec === null) request.spec = {};
  if (request.spec.expirationSeconds === undefined || request.spec.expirationSeconds === null) {
    request.spec.expirationSeconds = defaultTokenExpirationSeconds;
  }
}

/** `ValidateTokenRequest`: the lifetime lies within [10 minutes, 2^32 seconds]. */
export function validateTokenRequest(request: TokenRequest): FieldErrorList {
  const errs: FieldErrorList = [];
  const path = FieldPath.of("spec", "expirationSeconds");
  const seconds = request.spec.expirationSeconds ?? 0;
  if (seconds < minTokenExpirationSeconds) {
    errs.push(invalid(path, seconds, "may not specify a duration less than 10 minutes"));
  }
  if (seconds > maxTokenExpirationSeconds) {
    errs.push(invalid(path, seconds, "may not specify a duration larger than 2^32 seconds"));
  }
  return errs;
}

const gv = { group: "authentication.k8s.io", version: "v1" };
const requestName = "io.k8s.api.authentication.v1.TokenRequest";

export const tokenRequestDefinitions: Definitions = {
  [requestName]: kindSchema(
    { ...gv, kind: "TokenRequest" },
    "TokenRequest requests a token for a given service account.",
    {
      spec: obj(
        {
          audiences: atomicList(
            str(),
            "Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.",
          ),
          expirationSeconds: int64(
            "ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the 'expiration' field in a response.",
          ),
          boundObjectRef: obj(
            {
              kind: str("Kind of the referent. Valid kinds are 'Pod' and 'Secret'."),
              apiVersion: str("API version of the referent."),
              name: str("Name of the referent."),
              uid: str("UID of the referent."),
            },
            {
              description:
                "BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists.",
            },
          ),
        },
        {
          description: "Spec holds information about the request being evaluated",
          required: ["audiences"],
        },
      ),
      status: obj(
        {
          token: str("Token is the opaque bearer token."),
          expirationTimestamp: time(
            "ExpirationTimestamp is the time of expiration of the returned token.",
          ),
        },
        {
          description:
            "Status is filled in by the server and indicates whether the token can be authenticated.",
          required: ["token", "expirationTimestamp"],
        },
      ),
    },
    ["spec"],
  ),
};

/**
 * The TokenRequest kind: the body `serviceaccounts/token` decodes into. Not a resource of its
 * own (no store): `resource` names the subresource it is posted to.
 */
export const tokenRequestKind: KindDefinition = {
  ...gv,
  kind: "TokenRequest",
  listKind: "TokenRequestList",
  resource: "serviceaccounts/token",
  singular: "",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ["create"],
  schema: {
    schema: tokenRequestDefinitions[requestName] ?? {},
    definitions: { ...externalDefinitions(), ...tokenRequestDefinitions },
  },
  tracksGeneration: false,
  subresources: { status: false },
  applyDefaults: (request) => defaultTokenRequest(request as TokenRequest),
  validate: (request) => validateTokenRequest(request as TokenRequest),
  validateUpdate: (request) => validateTokenRequest(request as TokenRequest),
};
