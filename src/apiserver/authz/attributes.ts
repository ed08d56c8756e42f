/**
 * What a request asks to do, as upstream's `authorizer.Attributes`: built from the RequestInfo
 * for API requests and from the path for everything else.
 */
import type { UserInfo } from "../admission/index.ts";
import type { RequestInfo } from "../http/request-info.ts";

export type Attributes = ResourceAttributes | NonResourceAttributes;

export interface ResourceAttributes {
  readonly kind: "resource";
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, or an extra verb. */
  readonly verb: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  /** The first path segment after the name (`proxy` of `nodes/n/proxy/x`), or empty. */
  readonly subresource: string;
  readonly name: string;
}

export interface NonResourceAttributes {
  readonly kind: "nonResource";
  readonly user: UserInfo;
  /** The lowercased HTTP method. */
  readonly verb: string;
  readonly path: string;
}

/**
 * Upstream's `GetAuthorizerAttributes`: the namespace of a namespace's own path is its name,
 * and a list or watch narrowed by `fieldSelector=metadata.name=X` names `X`, as
 * RequestInfoFactory sets them.
 */
export function attributesOf(
  info: RequestInfo,
  user: UserInfo,
  path: string,
  query: URLSearchParams,
): Attributes {
  if (info.kind === "nonResource") {
    return { kind: "nonResource", user, verb: info.verb, path };
  }
  let name = info.name;
  if (name === "" && (info.verb === "list" || info.verb === "watch")) {
    name = nameFromFieldSelector(query.get("fieldSelector"));
  }
  const namespace =
    info.namespace === "" && info.group === "" && info.resource === "namespaces"
      ? info.name
      : info.namespace;
  const slash = info.subresource.indexOf("/");
  return {
    kind: "resource",
    user,
    verb: info.verb,
    namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: slash === -1 ? info.subresource : info.subresource.slice(0, slash),
    name,
  };
}

/** The X of a selector that is exactly `metadata.name=X` (or `==`), else empty. */
function nameFromFieldSelector(selector: string | null): string {
  if (selector === null || selector.includes(",")) return "";
  const match = /^\s*metadata\.name\s*={1,2}\s*(.*?)\s*$/.exec(selector);
  return match?.[1] ?? "";
}
