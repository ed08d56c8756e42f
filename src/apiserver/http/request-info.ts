/**
 * What a request addresses, parsed from its path and method the way kube-apiserver's
 * RequestInfoFactory does.
 */
export type RequestInfo =
  | { readonly kind: "nonResource"; readonly path: string; readonly verb: string }
  | ResourceRequest;

export interface ResourceRequest {
  readonly kind: "resource";
  /** `api` for the core group, `apis` for the rest. */
  readonly prefix: "api" | "apis";
  readonly group: string;
  readonly version: string;
  /** Empty for cluster-scoped requests and for lists across all namespaces. */
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  /** get, list, watch, create, update, patch, delete, deletecollection, or the method lowercased. */
  readonly verb: string;
  /** Whether the path used the deprecated `/watch/` segment. */
  readonly legacyWatch: boolean;
}

const namespaceSubresources = new Set(["status", "finalize"]);

/** Parses a decoded path plus method; `isWatch` is the parsed `watch` query parameter. */
export function parseRequestInfo(method: string, path: string, isWatch: boolean): RequestInfo {
  const parts = path.split("/").filter((p) => p !== "");
  const nonResource: RequestInfo = { kind: "nonResource", path, verb: method.toLowerCase() };
  let rest: string[];
  let prefix: "api" | "apis";
  let group = "";
  let version: string;
  if (parts[0] === "api" && parts.length >= 3) {
    prefix = "api";
    version = parts[1] ?? "";
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    prefix = "apis";
    group = parts[1] ?? "";
    version = parts[2] ?? "";
    rest = parts.slice(3);
  } else {
    return nonResource;
  }

  let legacyWatch = false;
  if (rest[0] === "watch") {
    legacyWatch = true;
    rest = rest.slice(1);
  }

  let namespace = "";
  // `namespaces/{ns}/{resource}…` addresses a namespaced resource; `namespaces[/{name}[/{sub}]]`
  // addresses namespaces themselves.
  // `namespaces/{name}/status` and `namespaces/{name}/finalize` are the namespace's own
  // subresources, as upstream's `namespaceSubresources`.
  if (rest[0] === "namespaces" && rest.length >= 3 && !namespaceSubresources.has(rest[2] ?? "")) {
    namespace = rest[1] ?? "";
    rest = rest.slice(2);
  }
  const resource = rest[0] ?? "";
  const name = rest[1] ?? "";
  const subresource = rest.slice(2).join("/");
  if (resource === "") return nonResource;
  const verb = verbOf(method, name, isWatch || legacyWatch);
  return {
    kind: "resource",
    prefix,
    group,
    version,
    namespace,
    resource,
    name,
    subresource,
    verb,
    legacyWatch,
  };
}

function verbOf(method: string, name: string, isWatch: boolean): string {
  switch (method) {
    case "GET":
    case "HEAD":
      if (isWatch) return "watch";
      return name === "" ? "list" : "get";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return name === "" ? "deletecollection" : "delete";
    default:
      return method.toLowerCase();
  }
}

/** Parses a boolean query value as Go's `strconv.ParseBool` does; `undefined` if absent. */
export function parseGoBool(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  switch (value) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
    case "":
      return false;
    default:
      return undefined;
  }
}
