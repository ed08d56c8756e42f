/**
 * Seeded generators of bad credentials for the randomized authentication test: bearer tokens
 * that are random, truncated, bit-flipped or near misses of the admin's, tokens with
 * whitespace and control characters, and client certificates that must not identify anyone
 * (another CA, expired, not yet valid, no clientAuth usage, a key that does not match, an
 * empty CN). Every generator is a pure function of its Random, so a seed reproduces a run.
 */
import type { Random } from "../util/index.ts";
import { makeCa, makeCertificate, type TestCertificate, type TestKey } from "./certificates.ts";

/** One bad credential: Authorization header lines and/or a client certificate. */
export interface BadCredential {
  /** What kind of bad it is, for the report. */
  readonly kind: string;
  /** The Authorization header lines sent, in order (none: no header). */
  readonly authorization: readonly string[];
  /** A client certificate presented in the handshake. */
  readonly certificate?: TestCertificate;
  /**
   * The certificate is presented and fails verification: upstream refuses the request (401)
   * even on the anonymous health paths, instead of treating it as anonymous.
   */
  readonly failsVerification?: boolean;
  /** The key is not the certificate's: a TLS client cannot even present it. */
  readonly mismatchedKey?: boolean;
  /** Holds bytes an HTTP parser rejects (400 Bad Request) before authentication. */
  readonly parserMayReject?: boolean;
}

/** What the bad certificates are made from: the cluster's CA and keys to reuse. */
export interface CertificateMaterials {
  /** The cluster CA (certificate and key), which signs the near-miss certificates. */
  readonly clusterCa: TestCertificate;
  /** The API server's own serving certificate and key (serverAuth only). */
  readonly serving: TestCertificate;
  /** A few keys to sign with and certify (key generation is the slow part). */
  readonly keys: readonly [TestKey, TestKey, TestKey];
}

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
const hour = 60 * 60 * 1000;

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[random.int(items.length)];
  if (item === undefined) throw new RangeError("Cannot pick from an empty list");
  return item;
}

function text(random: Random, alphabet: string, min: number, max: number): string {
  const length = min + random.int(max - min + 1);
  return Array.from({ length }, () => alphabet[random.int(alphabet.length)] ?? "").join("");
}

/**
 * The token a bearer header value carries after HTTP trims its surrounding whitespace, read as
 * upstream's bearertoken authenticator: the second space-separated word of `Bearer <token>`.
 */
export function effectiveToken(header: string): string | undefined {
  const parts = header.replace(/^[ \t]+|[ \t]+$/g, "").split(" ");
  return parts.length >= 2 && parts[0]?.toLowerCase() === "bearer" ? parts[1] : undefined;
}

/** Changes one character of `token` to another of the same alphabet. */
function flipOne(random: Random, token: string, alphabet: string): string {
  const at = random.int(token.length);
  const old = token[at] ?? "";
  let next = old;
  while (next === old) next = alphabet[random.int(alphabet.length)] ?? old;
  return token.slice(0, at) + next + token.slice(at + 1);
}

/** Flips one bit of one character, keeping it a single byte. */
function flipBit(random: Random, token: string): string {
  const at = random.int(token.length);
  const code = (token.charCodeAt(at) ^ (1 << random.int(7))) & 0xff;
  return token.slice(0, at) + String.fromCharCode(code) + token.slice(at + 1);
}

/** The case of one letter swapped, or undefined when `token` has no letters. */
function swapCase(random: Random, token: string): string | undefined {
  const letters = [...token].flatMap((c, i) => (/[a-z]/i.test(c) ? [i] : []));
  if (letters.length === 0) return undefined;
  const at = pick(random, letters);
  const c = token[at] ?? "";
  const swapped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return token.slice(0, at) + swapped + token.slice(at + 1);
}

/** Whether `value` holds a control character other than tab (which HTTP parsers refuse). */
function hasControlCharacter(value: string): boolean {
  return [...value].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && code !== 0x09) || code === 0x7f;
  });
}

const controlCharacters = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u007f",
];

/**
 * One bad bearer credential. The admin's token stays out: a case that would still carry it
 * (after whitespace trimming and word splitting) is generated again.
 */
export function badBearerToken(random: Random, adminToken: string): BadCredential {
  for (;;) {
    const candidate = bearerCandidate(random, adminToken);
    const lines = candidate.authorization;
    const carriesAdmin = lines[0] !== undefined && effectiveToken(lines[0]) === adminToken;
    if (!carriesAdmin) return candidate;
  }
}

function bearerCandidate(random: Random, admin: string): BadCredential {
  const bearer = (token: string, kind: string, extra: Partial<BadCredential> = {}) => ({
    kind,
    authorization: [`Bearer ${token}`],
    ...extra,
  });
  switch (random.int(14)) {
    case 0:
      return bearer(text(random, base64url, 1, 64), "random base64url token");
    case 1:
      return bearer(text(random, printable, 1, 80), "random printable token");
    case 2:
      return bearer(admin.slice(0, random.int(admin.length)), "truncated admin token");
    case 3:
      return bearer(admin + text(random, base64url, 1, 4), "admin token with a suffix");
    case 4:
      return bearer(text(random, base64url, 1, 4) + admin, "admin token with a prefix");
    case 5:
      return bearer(flipOne(random, admin, base64url), "admin token with one character changed");
    case 6: {
      const flipped = flipBit(random, admin);
      const parserMayReject = hasControlCharacter(flipped);
      return bearer(flipped, "bit-flipped admin token", parserMayReject ? { parserMayReject } : {});
    }
    case 7:
      return bearer(
        swapCase(random, admin) ?? `${admin}x`,
        "admin token with a letter's case swapped",
      );
    case 8: {
      // Whitespace inside or around the token: a tab, a second space, a non-breaking space.
      const at = random.int(admin.length + 1);
      const space = pick(random, ["\t", " \t", "\u00a0", "\t\t"]);
      return bearer(admin.slice(0, at) + space + admin.slice(at), "admin token with whitespace");
    }
    case 9: {
      const at = random.int(admin.length + 1);
      const control = pick(random, controlCharacters);
      return bearer(
        admin.slice(0, at) + control + admin.slice(at),
        "admin token with a control character",
        {
          parserMayReject: true,
        },
      );
    }
    case 10:
      return {
        kind: "the admin token under another scheme",
        authorization: [
          `${pick(random, ["Basic", "Token", "Bearer:", "Bearerx", "Bearer\t"])}${pick(random, [" ", ""])}${admin}`,
        ],
      };
    case 11:
      return {
        kind: "a bad token first, the admin's second",
        authorization: [`Bearer ${text(random, base64url, 8, 40)}`, `Bearer ${admin}`],
      };
    case 12:
      return bearer(
        pick(random, ["", " ", "null", "undefined", "Bearer", "admin", "system:masters"]),
        "empty or placeholder token",
      );
    default: {
      const tokens = malformedServiceAccountTokens(random);
      return bearer(pick(random, tokens), "malformed ServiceAccount-style JWT");
    }
  }
}

/**
 * JWT-shaped garbage (three base64url segments, alg none, truncations). The ServiceAccount
 * token authenticator's own randomized test covers signed-but-wrong tokens; extend this with
 * such cases to run them through this test's end-to-end oracle too.
 */
export function malformedServiceAccountTokens(random: Random): string[] {
  const segment = (min: number, max: number) => text(random, base64url, min, max);
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = {
    iss: "https://kubernetes.default.svc.cluster.local",
    sub: "system:serviceaccount:kube-system:default",
    aud: ["https://kubernetes.default.svc.cluster.local"],
    exp: 4102444800,
  };
  return [
    `${segment(10, 40)}.${segment(10, 200)}.${segment(10, 100)}`,
    `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`,
    `${b64({ alg: "RS256", kid: segment(4, 20) })}.${b64(claims)}.${segment(40, 342)}`,
    `${b64({ alg: "HS256" })}.${b64(claims)}.${segment(43, 43)}`,
    `eyJ${segment(0, 30)}`,
    `${b64({ alg: "RS256" })}..`,
  ];
}

/** One client certificate that must not identify anyone. */
export function badCertificate(random: Random, materials: CertificateMaterials): BadCredential {
  const { clusterCa, keys } = materials;
  const key = pick(random, keys);
  const cn = pick(random, [
    "kubernetes-admin",
    "system:kube-scheduler",
    "alice",
    text(random, base64url, 1, 20),
  ]);
  const groups = random.int(2) === 0 ? ["system:masters"] : [];
  const now = Date.now();
  const invalid = (kind: string, certificate: TestCertificate): BadCredential => ({
    kind,
    authorization: [],
    certificate,
    failsVerification: true,
  });
  switch (random.int(8)) {
    case 0:
      return invalid(
        "a certificate from another CA",
        makeCertificate({
          commonName: cn,
          organizations: groups,
          key,
          issuer: makeCa("gantry-ca", key),
        }),
      );
    case 1:
      return invalid(
        "an expired certificate of the cluster CA",
        makeCertificate({
          commonName: cn,
          organizations: groups,
          key,
          issuer: clusterCa,
          notBefore: new Date(now - (2 + random.int(1000)) * hour),
          notAfter: new Date(now - (1 + random.int(1)) * 60_000 - random.int(100) * hour),
        }),
      );
    case 2:
      return invalid(
        "a not-yet-valid certificate of the cluster CA",
        makeCertificate({
          commonName: cn,
          organizations: groups,
          key,
          issuer: clusterCa,
          notBefore: new Date(now + 60_000 + random.int(1000) * hour),
          notAfter: new Date(now + 2000 * hour),
        }),
      );
    case 3:
      return random.int(2) === 0
        ? invalid(
            "a serverAuth-only certificate of the cluster CA",
            makeCertificate({
              commonName: cn,
              organizations: groups,
              key,
              issuer: clusterCa,
              extKeyUsage: ["serverAuth"],
            }),
          )
        : invalid("the API server's serving certificate", materials.serving);
    case 4:
      return invalid(
        "a self-signed certificate",
        makeCertificate({ commonName: cn, organizations: groups, key }),
      );
    case 5: {
      // Presented with the key of another certificate: TLS clients refuse to send it.
      const certificate = makeCertificate({
        commonName: cn,
        organizations: groups,
        key,
        issuer: clusterCa,
      });
      const other = keys.find((k) => k !== key) ?? key;
      return {
        kind: "a certificate with a key that does not match",
        authorization: [],
        certificate: { certPem: certificate.certPem, keyPem: other.privatePem },
        mismatchedKey: true,
      };
    }
    case 6:
      return {
        kind: "a certificate of the cluster CA with an empty CN",
        authorization: [],
        certificate: makeCertificate({
          ...(random.int(2) === 0 ? { commonName: "" } : {}),
          organizations: ["system:masters"],
          key,
          issuer: clusterCa,
        }),
      };
    default:
      return invalid(
        "an intermediate-signed certificate without its intermediate",
        makeCertificate({
          commonName: cn,
          organizations: groups,
          key,
          issuer: makeCertificate({ commonName: "intermediate", ca: true, key, issuer: clusterCa }),
        }),
      );
  }
}
