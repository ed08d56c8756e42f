import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { unauthorized } from "../api/index.ts";
import type { UserInfo } from "./admission/index.ts";

/** Decides who sent a request; throws the 401 ApiError when it cannot. */
export type Authenticator = (req: IncomingMessage) => UserInfo;

export const anonymousUser: UserInfo = {
  username: "system:anonymous",
  groups: ["system:unauthenticated"],
};

const adminUser: UserInfo = {
  username: "admin",
  groups: ["system:masters", "system:authenticated"],
};

/**
 * The paths a request without credentials may reach when a token is required: the health
 * checks, as kube-apiserver allows with an AuthenticationConfiguration whose `anonymous`
 * section lists `conditions` for `/livez`, `/readyz` and `/healthz` (KEP-4633).
 */
export const healthCheckPaths: readonly string[] = ["/healthz", "/livez", "/readyz"];

/**
 * Anonymous access (plain http on loopback): a bearer token, if sent and known, still
 * identifies the admin; anything else is anonymous.
 */
export function newAnonymousAuthenticator(adminToken?: string): Authenticator {
  return (req) =>
    adminToken !== undefined && bearerMatches(req, adminToken) ? adminUser : anonymousUser;
}

/**
 * TLS mode: the admin bearer token identifies the admin. A request that sends a bearer token
 * that is not the admin's is refused (401) on every path, as kube-apiserver's authenticator
 * union fails on a rejected token before it reaches anonymous. A request that sends no bearer
 * token is anonymous on `anonymousPaths` (exact path match, as upstream's conditions) and
 * refused (401) everywhere else.
 */
export function newTokenAuthenticator(
  adminToken: string,
  anonymousPaths: readonly string[] = healthCheckPaths,
): Authenticator {
  return (req) => {
    if (bearerTokenOf(req) === undefined) {
      if (anonymousPaths.includes(pathOf(req))) return anonymousUser;
      throw unauthorized();
    }
    if (bearerMatches(req, adminToken)) return adminUser;
    throw unauthorized();
  };
}

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when the request sends
 * none, read as upstream's bearertoken authenticator does: the scheme is case-insensitive and
 * the token is the second space-separated word.
 */
function bearerTokenOf(req: IncomingMessage): string | undefined {
  const parts = (req.headers.authorization ?? "").trim().split(" ");
  if (parts.length < 2 || parts[0]?.toLowerCase() !== "bearer") return undefined;
  const token = parts[1] ?? "";
  return token === "" ? undefined : token;
}

function bearerMatches(req: IncomingMessage, token: string): boolean {
  // Most requests on plain http send no credentials: nothing to compare.
  if (req.headers.authorization === undefined) return false;
  const sent = Buffer.from(bearerTokenOf(req) ?? "");
  const want = Buffer.from(token);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
