/**
 * `POST /api/v1/namespaces/NS/serviceaccounts/NAME/token`: issues a bound service account token
 * for an `authentication.k8s.io/v1` TokenRequest, as upstream's TokenREST
 * (pkg/registry/core/serviceaccount/storage/token.go): the service account must exist; a bound
 * Pod, Secret or Node must exist (with the given uid, if any); pod-bound tokens carry the pod's
 * node; the lifetime is validated, capped by the maximum and, for kubelet-style requests,
 * extended. Nothing is stored.
 */
import {
  ApiError,
  badRequest,
  conflict,
  defaultTokenRequest,
  FieldPath,
  invalid,
  invalidObject,
  type KubeObject,
  methodNotAllowed,
  parseApiVersion,
  type TokenRequest,
  tokenRequestKind,
  validateTokenRequest,
} from "../../api/index.ts";
import { rfc3339 } from "../../util/index.ts";
import { checkTypeMeta, fieldValidationOf, pruneOrReject } from "../handlers/decode.ts";
import { asObject, type HandlerDeps, type RequestScope } from "../handlers/scope.ts";
import { decodeTyped } from "../handlers/type-check.ts";
import { validateWriteOptions } from "../handlers/write-context.ts";
import { checkObjectMediaType, decodeObjectBody, readBody } from "../http/body.ts";
import { writeJson } from "../http/responses.ts";
import type { ServiceAccountTokens } from "./tokens.ts";
import { warnOnlyBoundTokenExpirationSeconds } from "./tokens.ts";

const tokenRequestGroupKind = { group: "authentication.k8s.io", kind: "TokenRequest" };

/** Answers the TokenRequest with 201 and `status.token`, or the Status upstream answers. */
export async function handleTokenRequest(
  deps: HandlerDeps,
  scope: RequestScope,
  tokens: ServiceAccountTokens,
): Promise<void> {
  if (scope.req.method !== "POST") throw methodNotAllowed();
  const request = await readTokenRequest(deps, scope);
  const { namespace, name } = scope.info;

  const mismatch = (field: "name" | "namespace", value: string, detail: string): ApiError =>
    invalidObject(tokenRequestGroupKind, name, [
      invalid(FieldPath.of("metadata", field), value, detail),
    ]);
  const bodyName = request.metadata.name ?? "";
  if (bodyName !== "" && bodyName !== name) {
    throw mismatch("name", bodyName, "must match the service account name if specified");
  }
  const bodyNamespace = request.metadata.namespace ?? "";
  if (bodyNamespace !== "" && bodyNamespace !== namespace) {
    throw mismatch(
      "namespace",
      bodyNamespace,
      "must match the service account namespace if specified",
    );
  }

  const account = await scope.store.get(namespace, name);
  const accountUid = account.metadata.uid ?? "";
  const bodyUid = request.metadata.uid ?? "";
  // TokenRequestServiceAccountUIDValidation (beta, on since 1.34).
  if (bodyUid !== "" && bodyUid !== accountUid) {
    throw conflict(
      { group: tokenRequestKind.group, resource: tokenRequestKind.kind },
      name,
      `the UID in the token request (${bodyUid}) does not match the UID of the service account (${accountUid})`,
    );
  }
  const spec = request.spec;
  if ((spec.audiences ?? []).length === 0) spec.audiences = [...tokens.audiences];
  const now = deps.clock.now();
  request.metadata = {
    name,
    namespace,
    uid: accountUid,
    creationTimestamp: rfc3339(now),
  };
  delete request.status;
  const errors = validateTokenRequest(request);
  if (errors.length > 0) throw invalidObject(tokenRequestGroupKind, "", errors);

  const bound = await boundObjects(deps, namespace, name, request);
  let expirationSeconds = spec.expirationSeconds ?? 0;
  if (tokens.maxExpirationSeconds > 0 && expirationSeconds > tokens.maxExpirationSeconds) {
    scope.warnings.push(
      `requested expiration of ${expirationSeconds} seconds shortened to ${tokens.maxExpirationSeconds} seconds`,
    );
    expirationSeconds = tokens.maxExpirationSeconds;
    spec.expirationSeconds = expirationSeconds;
  }
  // The safe transition of projected tokens: warn after the asked lifetime, fail much later.
  const audiences = spec.audiences ?? [];
  const extend =
    tokens.extendedExpirationSeconds > 0 &&
    bound.pod !== undefined &&
    expirationSeconds === warnOnlyBoundTokenExpirationSeconds &&
    audiences.every((a) => tokens.audiences.includes(a));
  const jti = deps.random.uuid();
  const { token } = tokens.issue({
    serviceAccount: { namespace, name, uid: accountUid },
    ...bound,
    audiences,
    now,
    expirationSeconds: extend ? tokens.extendedExpirationSeconds : expirationSeconds,
    warnAfterSeconds: extend ? expirationSeconds : 0,
    jti,
  });
  // Which request made a token, for the audit log (the token's users carry the same id).
  if (scope.audit !== undefined) {
    scope.audit.annotations["authentication.kubernetes.io/issued-credential-id"] = `JTI=${jti}`;
  }
  writeJson(
    scope.res,
    201,
    {
      kind: tokenRequestKind.kind,
      apiVersion: `${tokenRequestKind.group}/${tokenRequestKind.version}`,
      metadata: request.metadata,
      spec: {
        audiences,
        expirationSeconds,
        boundObjectRef: spec.boundObjectRef ?? null,
      },
      status: {
        token,
        expirationTimestamp: rfc3339(new Date(now.getTime() + expirationSeconds * 1000)),
      },
    },
    { warnings: scope.warnings },
  );
}

/** The body, decoded as upstream's create handler does, with the v1 defaults filled in. */
async function readTokenRequest(deps: HandlerDeps, scope: RequestScope): Promise<TokenRequest> {
  const contentType = scope.req.headers["content-type"];
  checkObjectMediaType(contentType);
  const body = await readBody(scope.req);
  validateWriteOptions(scope.query, "CreateOptions");
  if (body.length === 0) throw badRequest("the request body is empty: send the object to write");
  const raw = decodeObjectBody(body, contentType, deps.protobuf);
  checkTypeMeta(tokenRequestKind, raw);
  decodeTyped(tokenRequestKind, raw);
  const request = asObject(raw) as TokenRequest;
  pruneOrReject(tokenRequestKind, request, fieldValidationOf(scope.query), scope.warnings);
  scope.audit?.logRequestObject(request);
  defaultTokenRequest(request);
  return request;
}

interface BoundObjects {
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
  readonly node?: { readonly name: string; readonly uid: string };
}

/** The object `spec.boundObjectRef` names, checked; the pod's node for a pod. */
async function boundObjects(
  deps: HandlerDeps,
  namespace: string,
  account: string,
  request: TokenRequest,
): Promise<BoundObjects> {
  const ref = request.spec.boundObjectRef;
  if (ref === undefined || ref === null) return {};
  const { group, version } = parseApiVersion(ref.apiVersion ?? "");
  const kind = ref.kind ?? "";
  const refName = ref.name ?? "";
  const get = (resource: "pods" | "secrets" | "nodes", ns: string, name: string) => {
    const store = deps.registry.lookup("", "v1", resource);
    if (store === undefined) throw new TypeError(`The core resource ${resource} is not served`);
    return store.get(ns, name);
  };
  let bound: BoundObjects;
  let uid: string;
  if (group === "" && kind === "Pod") {
    const pod = await get("pods", namespace, refName);
    const spec = (pod["spec"] ?? {}) as { serviceAccountName?: string; nodeName?: string };
    if (account !== (spec.serviceAccountName ?? "")) {
      throw badRequest(
        `cannot bind token for serviceaccount "${account}" to pod running with different serviceaccount name.`,
      );
    }
    uid = pod.metadata.uid ?? "";
    const nodeName = spec.nodeName ?? "";
    bound = {
      pod: { name: refName, uid },
      ...(nodeName === "" ? {} : { node: await podNode(nodeName, get) }),
    };
  } else if (group === "" && kind === "Node") {
    const node = await get("nodes", "", refName);
    uid = node.metadata.uid ?? "";
    bound = { node: { name: refName, uid } };
  } else if (group === "" && kind === "Secret") {
    const secret = await get("secrets", namespace, refName);
    uid = secret.metadata.uid ?? "";
    bound = { secret: { name: refName, uid } };
  } else {
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const wantUid = ref.uid ?? "";
  if (wantUid !== "" && wantUid !== uid) {
    throw conflict(
      { group, resource: kind },
      refName,
      `the UID in the bound object reference (${wantUid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return bound;
}

/** The pod's node by name and uid; by name alone when it does not exist. */
async function podNode(
  nodeName: string,
  get: (resource: "nodes", namespace: string, name: string) => Promise<KubeObject>,
): Promise<{ name: string; uid: string }> {
  try {
    const node = await get("nodes", "", nodeName);
    return { name: nodeName, uid: node.metadata.uid ?? "" };
  } catch (error: unknown) {
    if (error instanceof ApiError && error.reason === "NotFound")
      return { name: nodeName, uid: "" };
    throw error;
  }
}
