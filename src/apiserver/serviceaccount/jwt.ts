/**
 * JSON Web Signatures in compact form (RFC 7515) with the algorithms kube-apiserver signs
 * service account tokens with: RS256 for RSA keys, ES256/ES384/ES512 for ECDSA P-256/384/521
 * keys (`signerFromRSAPrivateKey` / `signerFromECDSAPrivateKey`). Key ids are upstream's
 * `keyIDFromPublicKey`: the unpadded base64url SHA-256 of the public key's PKIX DER.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
import { isPlainObject } from "../../util/index.ts";

export type SigningAlgorithm = "RS256" | "ES256" | "ES384" | "ES512";

/** A public key tokens are verified with, as the issuer publishes it. */
export interface VerificationKey {
  readonly alg: SigningAlgorithm;
  /** `keyIDFromPublicKey`: what the token header's `kid` names. */
  readonly kid: string;
  readonly publicKey: KeyObject;
  /** The JWKS entry (`use`, `kty`, `kid`, `alg`, then the key's own members). */
  readonly jwk: Readonly<Record<string, string>>;
}

/** A private key tokens are signed with, and its public half. */
export interface SigningKey extends VerificationKey {
  readonly privateKey: KeyObject;
}

const hashOf: Readonly<Record<SigningAlgorithm, string>> = {
  RS256: "sha256",
  ES256: "sha256",
  ES384: "sha384",
  ES512: "sha512",
};

const curveAlgorithms: Readonly<Record<string, SigningAlgorithm>> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
};

/** The signing algorithm for a public key; a TypeError for any other kind of key. */
function algorithmOf(publicKey: KeyObject): SigningAlgorithm {
  if (publicKey.asymmetricKeyType === "rsa") return "RS256";
  if (publicKey.asymmetricKeyType === "ec") {
    const curve = (publicKey.export({ format: "jwk" }) as JsonWebKey).crv ?? "";
    const alg = curveAlgorithms[curve];
    if (alg !== undefined) return alg;
    throw new TypeError(
      `Cannot sign with an ECDSA key on curve ${curve}: use P-256, P-384 or P-521`,
    );
  }
  throw new TypeError(
    `Cannot sign with a ${publicKey.asymmetricKeyType ?? "symmetric"} key: use an RSA or ECDSA key`,
  );
}

/** `keyIDFromPublicKey`: unpadded base64url of SHA-256 over the PKIX (SPKI) DER. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ format: "der", type: "spki" });
  return createHash("sha256").update(der).digest("base64url");
}

/** The verification key of a public key (PEM text or a KeyObject). */
export function verificationKeyOf(key: string | KeyObject): VerificationKey {
  const publicKey = typeof key === "string" ? createPublicKey(key) : key;
  const alg = algorithmOf(publicKey);
  const kid = keyIdOf(publicKey);
  const members = publicKey.export({ format: "jwk" }) as Record<string, string>;
  // go-jose's JSONWebKey order: use, kty, kid, alg, then the key material.
  const { kty = "", ...material } = members;
  return { alg, kid, publicKey, jwk: { use: "sig", kty, kid, alg, ...material } };
}

/** The signing key of a private key in PEM (PKCS#1, SEC 1 or PKCS#8). */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  return { ...verificationKeyOf(createPublicKey(privateKey)), privateKey };
}

const base64UrlPattern = /^[A-Za-z0-9_-]*$/;

/** Go's `base64.RawURLEncoding`: unpadded base64url, anything else undefined. */
export function decodeBase64Url(text: string): Buffer | undefined {
  if (!base64UrlPattern.test(text) || text.length % 4 === 1) return undefined;
  return Buffer.from(text, "base64url");
}

function encodeSegment(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Signs `payload` with `key`: `header.payload.signature`, the header carrying `alg` and `kid`. */
export function signCompact(payload: object, key: SigningKey): string {
  const signingInput = `${encodeSegment({ alg: key.alg, kid: key.kid })}.${encodeSegment(payload)}`;
  const signature = sign(hashOf[key.alg], Buffer.from(signingInput), {
    key: key.privateKey,
    dsaEncoding: "ieee-p1363",
  });
  return `${signingInput}.${signature.toString("base64url")}`;
}

/** A compact JWS taken apart, nothing verified yet. */
export interface ParsedJws {
  readonly header: Readonly<Record<string, unknown>>;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly signingInput: string;
  readonly signature: Buffer;
}

/** Longer tokens are not ours: ours are a few hundred bytes to a few kilobytes. */
export const maxTokenLength = 64 * 1024;

/**
 * Takes a compact JWS apart: three unpadded base64url segments, a JSON object header without
 * `crit` and a JSON object payload. Undefined for anything else (JSON serialization included).
 */
export function parseCompact(token: string): ParsedJws | undefined {
  if (token.length > maxTokenLength) return undefined;
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [headerText = "", payloadText = "", signatureText = ""] = parts;
  const header = decodeJsonSegment(headerText);
  const payload = decodeJsonSegment(payloadText);
  const signature = decodeBase64Url(signatureText);
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  if ("crit" in header) return undefined;
  return { header, payload, signingInput: `${headerText}.${payloadText}`, signature };
}

function decodeJsonSegment(text: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64Url(text);
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return isPlainObject(value) ? (value as Record<string, unknown>) : undefined;
  } catch (error: unknown) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Whether the token's signature is `key`'s over its signing input, with the header naming the
 * key's own algorithm: `none`, HMAC and any other algorithm never verify (no algorithm
 * confusion). An ECDSA signature must be the raw `r || s` of its curve's size.
 */
export function verifySignature(jws: ParsedJws, key: VerificationKey): boolean {
  if (jws.header["alg"] !== key.alg) return false;
  try {
    return verify(
      hashOf[key.alg],
      Buffer.from(jws.signingInput),
      { key: key.publicKey, dsaEncoding: "ieee-p1363" },
      jws.signature,
    );
  } catch (error: unknown) {
    // OpenSSL refuses some malformed signatures outright instead of answering false.
    if (error instanceof Error) return false;
    throw error;
  }
}
