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
 * Anonymous access (plain http on loopback): a bearer token, if sent and known, still
 * identifies the admin; anything else is anonymous.
 */
export function newAnonymousAuthenticator(adminToken?: string): Authenticator {
  return (req) =>
    adminToken !== undefined && bearerMatches(req, adminToken) ? adminUser : anonymousUser;
}

/** TLS mode: every request must carry the admin bearer token, else 401. */
export function newTokenAuthenticator(adminToken: string): Authenticator {
  return (req) => {
    if (bearerMatches(req, adminToken)) return adminUser;
    throw unauthorized();
  };
}

function bearerMatches(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith("Bearer ")) return false;
  const sent = Buffer.from(header.slice("Bearer ".length).trim());
  const want = Buffer.from(token);
  return sent.length === want.length && timingSafeEqual(sent, want);
}
