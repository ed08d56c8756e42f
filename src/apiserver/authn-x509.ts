/**
 * Client-certificate authentication, as kube-apiserver's `--client-ca-file` authenticator
 * (apiserver/pkg/authentication/request/x509): a certificate the client presented in the TLS
 * handshake identifies the user when it chains to a trusted CA, every certificate of the chain
 * is within its validity, and the chain allows client authentication. The subject's CN is the
 * user name and each O a group (`CommonNameUserConversion`), plus `system:authenticated`.
 */
import { X509Certificate } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { TLSSocket } from "node:tls";
import { unauthorized } from "../api/index.ts";
import { errorMessage } from "../util/index.ts";
import { type Authenticator, anonymousUser, authenticatedGroup, type User } from "./authn.ts";

/** What a request's client certificate says. */
export type ClientCertificateResult =
  /** No certificate, or a verified one without a CN: other authenticators decide. */
  | { readonly kind: "none" }
  | { readonly kind: "user"; readonly user: User }
  /** A certificate that does not verify; `reason` is for logs, never for the client. */
  | { readonly kind: "invalid"; readonly reason: string };

/** Reads and verifies the client certificate of a request. */
export type ClientCertificateAuthenticator = (req: IncomingMessage) => ClientCertificateResult;

export interface ClientCertificateOptions {
  /** The CAs a client certificate must chain to: `--client-ca-file` and the cluster CA. */
  readonly roots: readonly X509Certificate[];
  /** The current time, against which every certificate's validity is judged. */
  readonly now: () => Date;
}

/** OIDs of the extended key usages that allow client authentication. */
const clientAuthUsage = "1.3.6.1.5.5.7.3.2";
const anyUsage = "2.5.29.37.0";
/** Intermediates beyond this many are not followed (Go's chain building stops too). */
const maxIntermediates = 8;

/**
 * Verifies `chain` (the leaf first, then what the client sent along) as Go's
 * `x509.Certificate.Verify` with `KeyUsages: [ClientAuth]` does for the x509 authenticator:
 * a path of signatures from the leaf through CA intermediates to one of `roots`, each
 * certificate on it valid at `now`, and none whose extended key usages exclude client
 * authentication (a certificate without the extension allows any usage, as in Go). A verified
 * chain whose leaf has no CN identifies nobody: "none", as upstream's conversion answers.
 */
export function verifyClientCertificate(
  chain: readonly X509Certificate[],
  roots: readonly X509Certificate[],
  now: Date,
): ClientCertificateResult {
  const [leaf, ...sent] = chain;
  if (leaf === undefined) return { kind: "none" };
  const problem =
    timeProblem(leaf, now) ?? usageProblem(leaf) ?? pathProblem(leaf, sent, roots, now);
  if (problem !== undefined) {
    return {
      kind: "invalid",
      reason: `verifying certificate ${identify(leaf)} failed: ${problem}`,
    };
  }
  const subject = leaf.toLegacyObject().subject as Record<string, string | string[] | undefined>;
  const commonName = lastOf(subject["CN"]);
  if (commonName === undefined || commonName === "") return { kind: "none" };
  const organizations = listOf(subject["O"]);
  return {
    kind: "user",
    user: {
      username: commonName,
      groups: organizations.includes(authenticatedGroup)
        ? organizations
        : [...organizations, authenticatedGroup],
    },
  };
}

/**
 * The x509 authenticator over the TLS connection a request came on. The signature path of a
 * connection's certificate is checked once and remembered with the connection (a keep-alive
 * connection carries many requests); validity times are checked on every request.
 */
export function newClientCertificateAuthenticator(
  options: ClientCertificateOptions,
): ClientCertificateAuthenticator {
  const verified = new WeakMap<TLSSocket, { user: User; chain: readonly X509Certificate[] }>();
  return (req) => {
    const socket = req.socket;
    if (!(socket instanceof TLSSocket) || options.roots.length === 0) return { kind: "none" };
    const now = options.now();
    const known = verified.get(socket);
    if (known !== undefined) {
      const expired = known.chain
        .map((cert) => timeProblem(cert, now))
        .find((p) => p !== undefined);
      if (expired === undefined) return { kind: "user", user: known.user };
    }
    const chain = presentedChain(socket);
    const result = verifyClientCertificate(chain, options.roots, now);
    if (result.kind === "user") verified.set(socket, { user: result.user, chain });
    return result;
  };
}

/**
 * Puts the x509 authenticator in front of `rest` (the bearer tokens and anonymous access), as
 * kube-apiserver's union: a verified certificate decides; without one `rest` decides; a
 * certificate that does not verify is an error the union remembers while it tries the bearer
 * token, so a valid token still identifies its user, but the request is refused (401) instead
 * of being anonymous (upstream puts anonymous behind the union with `NewFailOnError`).
 */
export function withClientCertificates(
  certificates: ClientCertificateAuthenticator,
  rest: Authenticator,
): Authenticator {
  return (req) => {
    const presented = certificates(req);
    if (presented.kind === "user") return presented.user;
    if (presented.kind === "none") return rest(req);
    const user = rest(req);
    if (user.username === anonymousUser.username) throw unauthorized();
    return user;
  };
}

/**
 * The CA certificates of a PEM bundle (`--client-ca-file`). Throws a SyntaxError naming `source`
 * when it holds no certificate or one that cannot be read.
 */
export function parseCertificateBundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) {
    throw new SyntaxError(`Cannot use the CA bundle ${source}: it holds no PEM certificate`);
  }
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (error: unknown) {
      throw new SyntaxError(
        `Cannot use the CA bundle ${source}: certificate ${i + 1} is unreadable (${errorMessage(error)})`,
      );
    }
  });
}

/** The leaf and every further certificate the client sent, as node reports them. */
function presentedChain(socket: TLSSocket): X509Certificate[] {
  const leaf = socket.getPeerX509Certificate();
  if (leaf === undefined) return [];
  const chain = [leaf];
  const seen = new Set([leaf.fingerprint256]);
  let next = socket.getPeerCertificate(true)?.issuerCertificate;
  while (next?.raw !== undefined && chain.length <= maxIntermediates) {
    const cert = new X509Certificate(next.raw);
    if (seen.has(cert.fingerprint256)) break;
    seen.add(cert.fingerprint256);
    chain.push(cert);
    next = next.issuerCertificate;
  }
  return chain;
}

/** Why `cert` is not valid at `now`, in Go's words, or undefined. */
function timeProblem(cert: X509Certificate, now: Date): string | undefined {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (now.getTime() < from.getTime()) {
    return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is before ${from.toISOString()}`;
  }
  if (now.getTime() > to.getTime()) {
    return `x509: certificate has expired or is not yet valid: current time ${now.toISOString()} is after ${to.toISOString()}`;
  }
  return undefined;
}

/** Why `cert`'s extended key usages exclude client authentication, or undefined. */
function usageProblem(cert: X509Certificate): string | undefined {
  const usages = cert.keyUsage;
  if (usages === undefined || usages.length === 0) return undefined;
  if (usages.includes(clientAuthUsage) || usages.includes(anyUsage)) return undefined;
  return "x509: certificate specifies an incompatible key usage";
}

/** Why no path of signatures leads from `cert` to a root, or undefined once one does. */
function pathProblem(
  cert: X509Certificate,
  intermediates: readonly X509Certificate[],
  roots: readonly X509Certificate[],
  now: Date,
): string | undefined {
  let last = "x509: certificate signed by unknown authority";
  for (const root of roots) {
    if (!signs(root, cert)) continue;
    const problem = timeProblem(root, now) ?? usageProblem(root);
    if (problem === undefined) return undefined;
    last = problem;
  }
  for (const [i, parent] of intermediates.entries()) {
    if (!signs(parent, cert)) continue;
    const rest = intermediates.filter((_, j) => j !== i);
    const problem =
      timeProblem(parent, now) ?? usageProblem(parent) ?? pathProblem(parent, rest, roots, now);
    if (problem === undefined) return undefined;
    last = problem;
  }
  return last;
}

/** Whether `issuer` is a CA whose name and key signed `cert`. */
function signs(issuer: X509Certificate, cert: X509Certificate): boolean {
  if (!issuer.ca) return false;
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    // A key type the runtime cannot verify with signs nothing we can trust.
    return false;
  }
}

/** Upstream's `certificateIdentifier` (its serial number part), for logs. */
function identify(cert: X509Certificate): string {
  const serial = /^[0-9a-f]+$/i.test(cert.serialNumber) ? BigInt(`0x${cert.serialNumber}`) : "?";
  return `SN=${serial.toString()}`;
}

function lastOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.at(-1) : value;
}

function listOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value];
}
