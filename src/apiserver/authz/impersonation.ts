/**
 * `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and `Impersonate-Extra-*` headers,
 * as upstream's `WithImpersonation`: each impersonated attribute needs the `impersonate` verb on
 * users, groups, serviceaccounts, uids or userextras; the request then runs as the new user.
 */
import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "../../api/index.ts";
import type { Attributes } from "./attributes.ts";
import type { Authorizer } from "./authorizer.ts";
import { forbiddenError } from "./forbidden.ts";

/** A user as authentication and impersonation produce it. */
export interface ImpersonatedUser {
  readonly username: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

const serviceAccountPrefix = "system:serviceaccount:";

function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  // Node joins repeated headers with ", " except set-cookie; client-go sends one header per value.
  return (Array.isArray(value) ? value : value.split(", ")).filter((v) => v !== "");
}

/** Whether the request asks to impersonate anyone. */
export function hasImpersonation(headers: IncomingHttpHeaders): boolean {
  for (const name of Object.keys(headers)) {
    if (name.startsWith("impersonate-")) return true;
  }
  return false;
}

/**
 * The user `requestor` acts as, or throws the 403 for the first attribute it may not
 * impersonate (or a 400/500 for malformed headers, as upstream).
 */
export function impersonate(
  headers: IncomingHttpHeaders,
  requestor: ImpersonatedUser,
  authorizer: Authorizer,
): ImpersonatedUser {
  const users = headerValues(headers, "impersonate-user");
  const groupsWanted = headerValues(headers, "impersonate-group");
  const uids = headerValues(headers, "impersonate-uid");
  const extras: [string, string[]][] = [];
  for (const name of Object.keys(headers)) {
    if (!name.startsWith("impersonate-extra-")) continue;
    const key = decodeURIComponent(name.slice("impersonate-extra-".length));
    extras.push([key, headerValues(headers, name)]);
  }
  if (users.length === 0 && (groupsWanted.length > 0 || uids.length > 0 || extras.length > 0)) {
    throw new ApiError(
      500,
      "InternalError",
      "Internal error occurred: requested impersonation without impersonating a user",
    );
  }
  if (users.length > 1) {
    throw new ApiError(
      500,
      "InternalError",
      "Internal error occurred: only one user may be impersonated",
    );
  }
  const check = (resource: string, name: string, namespace = "", subresource = ""): void => {
    const attributes: Attributes = {
      kind: "resource",
      user: requestor,
      verb: "impersonate",
      namespace,
      apiGroup: resource === "userextras" || resource === "uids" ? "authentication.k8s.io" : "",
      apiVersion: resource === "userextras" || resource === "uids" ? "v1" : "v1",
      resource,
      subresource,
      name,
    };
    const decision = authorizer.authorize(attributes);
    if (!decision.allowed) throw forbiddenError(attributes, decision.reason);
  };

  let username = "";
  const groups: string[] = [];
  const user = users[0] ?? "";
  const sa = user.startsWith(serviceAccountPrefix)
    ? user.slice(serviceAccountPrefix.length).split(":")
    : [];
  if (sa.length === 2 && sa[0] !== "" && sa[1] !== "") {
    check("serviceaccounts", sa[1] ?? "", sa[0] ?? "");
    username = user;
    if (groupsWanted.length === 0) {
      groups.push("system:serviceaccounts", `system:serviceaccounts:${sa[0] ?? ""}`);
    }
  } else {
    check("users", user);
    username = user;
  }
  for (const group of groupsWanted) {
    check("groups", group);
    groups.push(group);
  }
  const extra: Record<string, string[]> = {};
  for (const [key, values] of extras) {
    for (const value of values) {
      check("userextras", value, "", key);
      extra[key] = [...(extra[key] ?? []), value];
    }
  }
  let uid: string | undefined;
  for (const value of uids) {
    check("uids", value);
    uid = value;
  }
  if (username !== "system:anonymous") {
    if (!groups.includes("system:authenticated") && !groups.includes("system:unauthenticated")) {
      groups.push("system:authenticated");
    }
  } else if (!groups.includes("system:unauthenticated")) {
    groups.push("system:unauthenticated");
  }
  return {
    username,
    groups,
    ...(uid === undefined ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}
