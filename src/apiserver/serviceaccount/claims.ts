/**
 * The claims of a bound service account token and their validation, as upstream's
 * `pkg/serviceaccount/claims.go` (`Claims`, `validator.Validate`) and go-jose's
 * `Claims.ValidateWithLeeway`. Pure: time and the live objects come in as parameters.
 */
import { isPlainObject } from "../../util/index.ts";

/** go-jose's `DefaultLeeway`: clocks may disagree by a minute. */
export const leewaySeconds = 60;

/** A reference to an object by name and uid, as the token names it. */
export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

/** The private `kubernetes.io` claim (keys in the order Go's JSON encoder sorts them). */
export interface KubernetesClaim {
  readonly namespace: string;
  readonly node?: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  readonly serviceaccount: ObjectRef;
  /** NumericDate after which a projected token is stale (extended-expiration tokens). */
  readonly warnafter?: number;
}

/** Every claim of a token the API server issues. */
export interface ServiceAccountTokenClaims {
  readonly aud: readonly string[];
  readonly exp: number;
  readonly iat: number;
  readonly iss: string;
  readonly jti: string;
  readonly "kubernetes.io": KubernetesClaim;
  readonly nbf: number;
  readonly sub: string;
}

/** What `Claims` needs to build a token's claims. */
export interface ClaimsInput {
  readonly issuer: string;
  readonly serviceAccount: {
    readonly namespace: string;
    readonly name: string;
    readonly uid: string;
  };
  /** At most one of pod and secret; node alone or beside a pod. */
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** A node with an empty uid is named without one (the pod's node was not found). */
  readonly node?: { readonly name: string; readonly uid: string };
  readonly audiences: readonly string[];
  readonly now: Date;
  readonly expirationSeconds: number;
  /** Seconds after which the token counts as stale; 0 for none. */
  readonly warnAfterSeconds: number;
  readonly jti: string;
}

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The claims of a new token (`Claims` in pkg/serviceaccount). */
export function serviceAccountClaims(input: ClaimsInput): ServiceAccountTokenClaims {
  const now = Math.floor(input.now.getTime() / 1000);
  const { namespace, name, uid } = input.serviceAccount;
  const node =
    input.node === undefined
      ? undefined
      : input.node.uid === ""
        ? { name: input.node.name }
        : { name: input.node.name, uid: input.node.uid };
  const kubernetes: KubernetesClaim = {
    namespace,
    ...(node === undefined ? {} : { node: node as ObjectRef }),
    ...(input.pod === undefined ? {} : { pod: { name: input.pod.name, uid: input.pod.uid } }),
    ...(input.pod === undefined && input.secret !== undefined
      ? { secret: { name: input.secret.name, uid: input.secret.uid } }
      : {}),
    serviceaccount: { name, uid },
    ...(input.warnAfterSeconds === 0 ? {} : { warnafter: now + input.warnAfterSeconds }),
  };
  return {
    aud: [...input.audiences],
    exp: now + input.expirationSeconds,
    iat: now,
    iss: input.issuer,
    jti: input.jti,
    "kubernetes.io": kubernetes,
    nbf: now,
    sub: serviceAccountUsername(namespace, name),
  };
}

/** The metadata of a live object the validator looks at. */
export interface LiveObject {
  readonly metadata: { readonly uid?: string; readonly deletionTimestamp?: string };
}

/** The live objects a token may be bound to, by resource (one map lookup each). */
export type ObjectLookup = (
  resource: "serviceaccounts" | "pods" | "secrets" | "nodes",
  namespace: string,
  name: string,
) => LiveObject | undefined;

/** Who a valid token identifies (`ServiceAccountInfo`). */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName: string;
  readonly podUid: string;
  readonly nodeName: string;
  readonly nodeUid: string;
  /** `JTI=<jti>`, or empty for a token without a `jti`. */
  readonly credentialId: string;
}

/** A token's verdict: who it names, or why it does not authenticate (for logs only). */
export type ClaimsVerdict =
  | { readonly valid: true; readonly info: ServiceAccountInfo; readonly audiences: string[] }
  | { readonly valid: false; readonly reason: string };

export interface ValidateOptions {
  /** The issuers tokens may name (`--service-account-issuer`). */
  readonly issuers: readonly string[];
  /** The API server's audiences (`--api-audiences`); a token must name one. */
  readonly audiences: readonly string[];
  readonly now: Date;
  readonly lookup: ObjectLookup;
}

const invalid = (reason: string): ClaimsVerdict => ({ valid: false, reason });

/**
 * Validates the claims of a token whose signature has been verified: issuer, audience, the
 * registered time claims with a minute's leeway, then the live objects (the service account
 * with the token's uid; a bound secret, pod or node that still exists with its uid and was not
 * deleted more than the leeway ago). Malformed claims are invalid, never an exception.
 */
export function validateServiceAccountClaims(
  payload: Readonly<Record<string, unknown>>,
  options: ValidateOptions,
): ClaimsVerdict {
  const iss = payload["iss"];
  if (typeof iss !== "string" || !options.issuers.includes(iss)) {
    return invalid(`token issuer ${JSON.stringify(iss)} is invalid`);
  }
  const aud = audienceOf(payload["aud"]);
  if (aud === undefined) return invalid("token audience is malformed");
  // Tokens without an audience are legacy tokens: only the API server's audiences apply.
  const tokenAudiences = aud.length === 0 ? [...options.audiences] : aud;
  const audiences = tokenAudiences.filter((a) => options.audiences.includes(a));
  if (audiences.length === 0 && options.audiences.length > 0) {
    return invalid(
      `token audiences ${JSON.stringify(tokenAudiences)} is invalid for the target audiences ${JSON.stringify(options.audiences)}`,
    );
  }
  const exp = payload["exp"];
  const nbf = payload["nbf"];
  const iat = payload["iat"];
  const jti = payload["jti"] ?? "";
  if (!isNumericDate(exp) || !optionalNumericDate(nbf) || !optionalNumericDate(iat)) {
    return invalid("token time claims are malformed");
  }
  if (typeof jti !== "string") return invalid("token id is malformed");
  const claim = kubernetesClaimOf(payload["kubernetes.io"]);
  if (claim === undefined) return invalid("token private claims are malformed");

  const now = options.now.getTime() / 1000;
  if (nbf !== undefined && now + leewaySeconds < nbf) {
    return invalid("service account token is not valid yet");
  }
  if (now - leewaySeconds > exp) return invalid("service account token has expired");
  if (iat !== undefined && now + leewaySeconds < iat) {
    return invalid("service account token is issued in the future");
  }

  const deletedLongAgo = (object: LiveObject): boolean => {
    const at = object.metadata.deletionTimestamp;
    return at !== undefined && Date.parse(at) / 1000 < now - leewaySeconds;
  };
  const { namespace, serviceaccount, pod, secret, node } = claim;
  const account = options.lookup("serviceaccounts", namespace, serviceaccount.name);
  if (account === undefined) {
    return invalid(`serviceaccounts "${serviceaccount.name}" not found`);
  }
  if (deletedLongAgo(account)) {
    return invalid(`service account ${namespace}/${serviceaccount.name} has been deleted`);
  }
  if ((account.metadata.uid ?? "") !== serviceaccount.uid) {
    return invalid(
      `service account UID (${account.metadata.uid ?? ""}) does not match claim (${serviceaccount.uid})`,
    );
  }
  const bound = (
    resource: "secrets" | "pods" | "nodes",
    ref: ObjectRef,
    where: string,
  ): string | undefined => {
    const object = options.lookup(resource, where, ref.name);
    if (object === undefined || deletedLongAgo(object)) {
      return "service account token has been invalidated";
    }
    if ((object.metadata.uid ?? "") !== ref.uid) {
      const kind = resource.slice(0, -1);
      return `${kind} UID (${object.metadata.uid ?? ""}) does not match service account ${kind} ref claim (${ref.uid})`;
    }
    return undefined;
  };
  if (secret !== undefined) {
    const problem = bound("secrets", secret, namespace);
    if (problem !== undefined) return invalid(problem);
  }
  let podName = "";
  let podUid = "";
  if (pod !== undefined) {
    const problem = bound("pods", pod, namespace);
    if (problem !== undefined) return invalid(problem);
    podName = pod.name;
    podUid = pod.uid;
  }
  let nodeName = "";
  let nodeUid = "";
  if (node !== undefined) {
    // A pod-bound token only carries its pod's node; a node-bound token needs the node.
    if (pod === undefined) {
      const problem = bound("nodes", node, "");
      if (problem !== undefined) return invalid(problem);
    }
    nodeName = node.name;
    nodeUid = node.uid;
  }
  return {
    valid: true,
    audiences,
    info: {
      namespace,
      name: serviceaccount.name,
      uid: serviceaccount.uid,
      podName,
      podUid,
      nodeName,
      nodeUid,
      credentialId: jti === "" ? "" : `JTI=${jti}`,
    },
  };
}

/** go-jose's `Audience`: a string or a list of strings. */
function audienceOf(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((a) => typeof a === "string")) return value as string[];
  return undefined;
}

/** go-jose bounds a NumericDate at 2^62 seconds either way. */
function isNumericDate(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 2 ** 62;
}

function optionalNumericDate(value: unknown): value is number | undefined {
  return value === undefined || isNumericDate(value);
}

function refOf(value: unknown): ObjectRef | undefined {
  if (!isPlainObject(value)) return undefined;
  const { name = "", uid = "" } = value as { name?: unknown; uid?: unknown };
  if (typeof name !== "string" || typeof uid !== "string" || name === "") return undefined;
  return { name, uid };
}

/** The `kubernetes.io` claim, or undefined when any part of it is malformed. */
function kubernetesClaimOf(value: unknown): KubernetesClaim | undefined {
  if (!isPlainObject(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const namespace = raw["namespace"];
  const serviceaccount = refOf(raw["serviceaccount"]);
  if (typeof namespace !== "string" || namespace === "" || serviceaccount === undefined) {
    return undefined;
  }
  const optional = (key: string): ObjectRef | undefined | false =>
    raw[key] === undefined ? undefined : (refOf(raw[key]) ?? false);
  const pod = optional("pod");
  const secret = optional("secret");
  const node = optional("node");
  if (pod === false || secret === false || node === false) return undefined;
  return {
    namespace,
    serviceaccount,
    ...(pod === undefined ? {} : { pod }),
    ...(secret === undefined ? {} : { secret }),
    ...(node === undefined ? {} : { node }),
  };
}
