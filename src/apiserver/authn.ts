import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { unauthorized } from "../api/index.ts";
import type { UserInfo } from "./admission/index.ts";

/** An authenticated user: name and groups, plus the uid and extra some authenticators know. */
export interface User extends UserInfo {
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Decides who sent a request; throws the 401 ApiError when it cannot. */
export type Authenticator = (req: IncomingMessage) => User;

/**
 * One source of bearer tokens (upstream's `authenticator.Token`): the user a token names, or
 * undefined when the token is not one of its own. The union of sources tries each in order.
 */
export type TokenAuthenticator = (token: string) => User | undefined;

/** `system:authenticated`, added to every user a token identifies, as upstream's group adder. */
export const authenticatedGroup = "system:authenticated";

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
export function newAnonymousAuthenticator(
  adminToken?: string,
  tokens: readonly TokenAuthenticator[] = [],
): Authenticator {
  return (req) => {
    if (adminToken !== undefined && bearerMatches(req, adminToken)) return adminUser;
    if (tokens.length === 0 || req.headers.authorization === undefined) return anonymousUser;
    const token = bearerTokenOf(req);
    return (token === undefined ? undefined : unionOf(tokens, token)) ?? anonymousUser;
  };
}

function unionOf(tokens: readonly TokenAuthenticator[], token: string): User | undefined {
  for (const authenticate of tokens) {
    const user = authenticate(token);
    if (user !== undefined) return user;
  }
  return undefined;
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
  tokens: readonly TokenAuthenticator[] = [],
): Authenticator {
  return (req) => {
    const token = bearerTokenOf(req);
    if (token === undefined) {
      if (anonymousPaths.includes(pathOf(req))) return anonymousUser;
      throw unauthorized();
    }
    if (bearerMatches(req, adminToken)) return adminUser;
    const user = unionOf(tokens, token);
    if (user !== undefined) return user;
    throw unauthorized();
  };
}

/** One line of a static token file. */
export interface StaticToken {
  readonly token: string;
  readonly user: User;
}

/**
 * Parses upstream's `--token-auth-file` CSV: `token,user,uid[,"group1,group2"]`, quoting as
 * Go's encoding/csv. Blank lines and lines with an empty token are skipped; a later duplicate
 * token wins. Throws a SyntaxError naming `source` for a line with fewer than 3 columns or a
 * malformed quote.
 */
export function parseTokenFile(text: string, source: string): StaticToken[] {
  const out = new Map<string, StaticToken>();
  for (const record of parseCsv(text, source)) {
    if (record.length < 3) {
      throw new SyntaxError(
        `token file '${source}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    const [token = "", name = "", uid = "", groups] = record;
    if (token === "") continue;
    const user: User = {
      username: name,
      uid,
      groups: [...(groups === undefined ? [] : groups.split(",")), authenticatedGroup],
    };
    out.set(token, { token, user });
  }
  return [...out.values()];
}

/** A token source over a parsed token file (upstream's `tokenfile.TokenAuthenticator`). */
export function newStaticTokenAuthenticator(tokens: readonly StaticToken[]): TokenAuthenticator {
  const byToken = new Map(tokens.map((t) => [t.token, t.user]));
  return (token) => byToken.get(token);
}

/** Records of RFC 4180 CSV as Go's csv.Reader reads them (blank lines skipped). */
function parseCsv(text: string, source: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let inQuotes = false;
  let line = 1;
  const endRecord = (): void => {
    record.push(field);
    if (!(record.length === 1 && record[0] === "" && !quoted)) records.push(record);
    record = [];
    field = "";
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "") {
      inQuotes = true;
      quoted = true;
    } else if (c === '"') {
      throw new SyntaxError(`token file '${source}' line ${line}: bare " in non-quoted field`);
    } else if (c === ",") {
      record.push(field);
      field = "";
      quoted = false;
    } else if (c === "\n") {
      endRecord();
      line++;
    } else if (c !== "\r" || text[i + 1] !== "\n") {
      field += c;
    }
  }
  if (inQuotes)
    throw new SyntaxError(
      `token file '${source}' line ${line}: extraneous or missing " in quoted field`,
    );
  if (field !== "" || record.length > 0) endRecord();
  return records;
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
