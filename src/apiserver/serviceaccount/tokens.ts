/**
 * The service account token issuer: signs bound tokens for TokenRequest, authenticates them as
 * one source of the bearer-token union, and renders the issuer's OpenID discovery documents
 * (upstream's `jwtTokenGenerator`, `JWTTokenAuthenticator` and `openidmetadata.go`).
 */
import type { Clock, Logger } from "../../util/index.ts";
import { authenticatedGroup, type TokenAuthenticator, type User } from "../authn.ts";
import {
  type ClaimsInput,
  type ObjectLookup,
  type ServiceAccountInfo,
  type ServiceAccountTokenClaims,
  serviceAccountClaims,
  serviceAccountUsername,
  validateServiceAccountClaims,
} from "./claims.ts";
import {
  parseCompact,
  type SigningKey,
  signCompact,
  type VerificationKey,
  verifySignature,
} from "./jwt.ts";

/** `WarnOnlyBoundTokenExpirationSeconds`: what kubelets ask projected tokens to live. */
export const warnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;

/** `ExpirationExtensionSeconds`: how long such a token really lives (a year). */
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;

/** kubeadm's issuer, gantry's default `--service-account-issuer`. */
export const defaultServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local";

export interface ServiceAccountTokensOptions {
  /** Signs new tokens (`--service-account-signing-key-file`); also verifies them. */
  readonly key: SigningKey;
  /** More keys tokens may be verified with (`--service-account-key-file`). @default none */
  readonly verificationKeys?: readonly VerificationKey[];
  /** `--service-account-issuer`: the `iss` of new tokens, the only one accepted. */
  readonly issuer: string;
  /** `--api-audiences`: who tokens are for by default. @default [issuer] */
  readonly audiences?: readonly string[];
  /**
   * `--service-account-max-token-expiration` in seconds: longer requests are shortened to it.
   * 0: no limit. @default 0
   */
  readonly maxExpirationSeconds?: number;
  /**
   * `--service-account-extend-token-expiration`: a pod-bound token asked for 3607 seconds for
   * the API server's audiences lives a year (even beyond the maximum) and warns after 3607 s.
   * @default true
   */
  readonly extendExpiration?: boolean;
  readonly clock: Clock;
  /** Says at verbosity 4 why a token of this issuer was refused. @default silent */
  readonly logger?: Logger;
}

/** What a new token is for (the issuer, time and id are the issuer's). */
export type IssueInput = Omit<ClaimsInput, "issuer">;

/** The issuer's OpenID Connect discovery documents, pre-rendered JSON. */
export interface IssuerDiscovery {
  /** `/.well-known/openid-configuration`; `jwks_uri` is https on `externalAddress` (host:port). */
  configuration(externalAddress: string): string;
  /** `/openid/v1/jwks`. */
  readonly keys: string;
}

export interface ServiceAccountTokens {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly maxExpirationSeconds: number;
  /** The lifetime a kubelet-style pod-bound request really gets, or 0 when not extended. */
  readonly extendedExpirationSeconds: number;
  /** Signs a token for `input`. */
  issue(input: IssueInput): { readonly token: string; readonly claims: ServiceAccountTokenClaims };
  /**
   * The bearer-token source for these tokens, checking the live objects through `lookup`.
   * Anything that is not a valid token of this issuer is `undefined`, never an exception.
   */
  authenticator(lookup: ObjectLookup): TokenAuthenticator;
  /** Undefined when the issuer is not an https URL without query or fragment, as upstream. */
  readonly discovery: IssuerDiscovery | undefined;
}

export function newServiceAccountTokens(
  options: ServiceAccountTokensOptions,
): ServiceAccountTokens {
  const { key, issuer, clock } = options;
  const audiences = options.audiences ?? [issuer];
  const maxExpirationSeconds = options.maxExpirationSeconds ?? 0;
  const keys = uniqueKeys([key, ...(options.verificationKeys ?? [])]);
  const byKid = new Map<string, VerificationKey[]>();
  for (const k of keys) byKid.set(k.kid, [...(byKid.get(k.kid) ?? []), k]);
  const refusals = options.logger?.v(4);
  return {
    issuer,
    audiences,
    maxExpirationSeconds,
    // A year even beyond a shorter maximum, as upstream warns at start-up.
    extendedExpirationSeconds: options.extendExpiration === false ? 0 : expirationExtensionSeconds,
    issue(input) {
      const claims = serviceAccountClaims({ ...input, issuer });
      return { token: signCompact(claims, key), claims };
    },
    authenticator(lookup) {
      return (token) => {
        const jws = parseCompact(token);
        // Not a JWT of this issuer: some other source's token.
        if (jws === undefined || jws.payload["iss"] !== issuer) return undefined;
        const kid = jws.header["kid"];
        const candidates = typeof kid === "string" && kid !== "" ? (byKid.get(kid) ?? []) : keys;
        if (!candidates.some((k) => verifySignature(jws, k))) {
          refusals?.info("Service account token refused", { reason: "invalid signature" });
          return undefined;
        }
        const verdict = validateServiceAccountClaims(jws.payload, {
          issuers: [issuer],
          audiences,
          now: clock.now(),
          lookup,
        });
        if (!verdict.valid) {
          refusals?.info("Service account token refused", { reason: verdict.reason });
          return undefined;
        }
        return userOf(verdict.info);
      };
    },
    discovery: discoveryOf(issuer, keys),
  };
}

/** `ServiceAccountInfo.UserInfo()` plus the `system:authenticated` group the union adds. */
export function userOf(info: ServiceAccountInfo): User {
  const extra: Record<string, string[]> = {};
  if (info.credentialId !== "")
    extra["authentication.kubernetes.io/credential-id"] = [info.credentialId];
  if (info.nodeName !== "") {
    extra["authentication.kubernetes.io/node-name"] = [info.nodeName];
    if (info.nodeUid !== "") extra["authentication.kubernetes.io/node-uid"] = [info.nodeUid];
  }
  if (info.podName !== "" && info.podUid !== "") {
    extra["authentication.kubernetes.io/pod-name"] = [info.podName];
    extra["authentication.kubernetes.io/pod-uid"] = [info.podUid];
  }
  return {
    username: serviceAccountUsername(info.namespace, info.name),
    uid: info.uid,
    groups: [
      "system:serviceaccounts",
      `system:serviceaccounts:${info.namespace}`,
      authenticatedGroup,
    ],
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

function uniqueKeys(keys: readonly VerificationKey[]): VerificationKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = `${k.alg}/${k.kid}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The OpenID discovery documents, when the issuer is a URL OIDC allows. */
function discoveryOf(
  issuer: string,
  keys: readonly VerificationKey[],
): IssuerDiscovery | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch (error: unknown) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
  if (url.protocol !== "https:" || url.search !== "" || url.hash !== "") return undefined;
  const algorithms = [...new Set(keys.map((k) => k.alg))].sort();
  return {
    configuration: (externalAddress) =>
      JSON.stringify({
        issuer,
        jwks_uri: `https://${externalAddress}/openid/v1/jwks`,
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: algorithms,
      }),
    keys: JSON.stringify({ keys: keys.map((k) => k.jwk) }),
  };
}
