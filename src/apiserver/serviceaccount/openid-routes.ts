/**
 * The service account issuer's OpenID Connect discovery endpoints (upstream's
 * pkg/routes/openidmetadata.go): the provider configuration and the JSON Web Key Set, cacheable
 * for an hour. Who may read them is RBAC's business (`system:service-account-issuer-discovery`).
 */
import type { ServerResponse } from "node:http";
import type { IssuerDiscovery } from "./tokens.ts";

/** `OpenIDConfigPath`. */
export const openIdConfigPath = "/.well-known/openid-configuration";
/** `JWKSPath`. */
export const jwksPath = "/openid/v1/jwks";

const cacheControl = "public, max-age=3600";

/**
 * Answers `path` when it is one of the two discovery paths and the issuer has discovery
 * documents; returns false (nothing written) otherwise.
 */
export function serveIssuerDiscovery(
  res: ServerResponse,
  path: string,
  discovery: IssuerDiscovery | undefined,
  externalAddress: string,
): boolean {
  if (discovery === undefined) return false;
  let body: string;
  let contentType: string;
  if (path === openIdConfigPath) {
    body = discovery.configuration(externalAddress);
    contentType = "application/json";
  } else if (path === jwksPath) {
    body = discovery.keys;
    contentType = "application/jwk-set+json";
  } else {
    return false;
  }
  res.statusCode = 200;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
  return true;
}
