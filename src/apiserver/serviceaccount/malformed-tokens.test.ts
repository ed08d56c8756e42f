import assert from "node:assert/strict";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { test } from "node:test";
import { FakeClock } from "../../testing/index.ts";
import { type Random, seededRandom } from "../../util/index.ts";
import type { LiveObject, ObjectLookup } from "./claims.ts";
import { signCompact, signingKeyFromPem } from "./jwt.ts";
import { newServiceAccountTokens } from "./tokens.ts";

const issuer = "https://kubernetes.default.svc.cluster.local";
const key = signingKeyFromPem(
  generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs1", format: "pem" })
    .toString(),
);
const strangerKey = signingKeyFromPem(
  generateKeyPairSync("ec", { namedCurve: "P-256" })
    .privateKey.export({ type: "sec1", format: "pem" })
    .toString(),
);
const clock = new FakeClock(new Date("2026-03-01T10:00:00Z"));
const tokens = newServiceAccountTokens({ key, issuer, clock });
const objects = new Map<string, LiveObject>([
  ["serviceaccounts/team/ci", { metadata: { uid: "sa-1" } }],
  ["pods/team/web", { metadata: { uid: "pod-1" } }],
]);
const lookup: ObjectLookup = (resource, namespace, name) =>
  objects.get(`${resource}/${namespace}/${name}`);
const authenticate = tokens.authenticator(lookup);
const { token: good, claims } = tokens.issue({
  serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
  pod: { name: "web", uid: "pod-1" },
  audiences: [issuer],
  now: clock.now(),
  expirationSeconds: 3600,
  warnAfterSeconds: 0,
  jti: "jti-1",
});
const [goodHeader = "", goodPayload = "", goodSignature = ""] = good.split(".");

const b64 = (value: unknown): string =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
const publicForms = [
  key.publicKey.export({ format: "pem", type: "spki" }).toString(),
  key.publicKey.export({ format: "pem", type: "pkcs1" }).toString(),
  key.publicKey.export({ format: "der", type: "spki" }).toString("binary"),
  JSON.stringify(key.jwk),
];
const base64UrlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const junkAlphabet = `${base64UrlAlphabet}+/=. \t{}"\u00e9\u0000`;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[random.int(items.length)] as T;
}

function randomText(random: Random, alphabet: string, max: number): string {
  let out = "";
  const length = random.int(max);
  for (let i = 0; i < length; i++) out += alphabet[random.int(alphabet.length)];
  return out;
}

/** Claims that are wrong in one way; signed with the right key they must still be refused. */
function brokenClaims(random: Random): Record<string, unknown> {
  const base = structuredClone(claims) as unknown as Record<string, unknown>;
  const k8s = base["kubernetes.io"] as Record<string, unknown>;
  const breakages: (() => void)[] = [
    () => delete base["exp"],
    () => (base["exp"] = String(base["exp"])),
    () => (base["exp"] = 2 ** 63),
    () => (base["exp"] = Number(base["iat"]) - 3600),
    () => (base["nbf"] = Number(base["iat"]) + 3600),
    () => (base["iat"] = "yesterday"),
    () => (base["aud"] = 42),
    () => (base["aud"] = [issuer, 7]),
    () => (base["aud"] = ["someone-else"]),
    () => (base["iss"] = `${issuer}/`),
    () => delete base["iss"],
    () => (base["jti"] = { id: 1 }),
    () => delete base["kubernetes.io"],
    () => (base["kubernetes.io"] = "team"),
    () => (k8s["namespace"] = 7),
    () => (k8s["namespace"] = "other"),
    () => (k8s["serviceaccount"] = "ci"),
    () => (k8s["serviceaccount"] = { name: "ci" }),
    () => (k8s["serviceaccount"] = { name: "ci", uid: "sa-2" }),
    () => (k8s["serviceaccount"] = { name: "", uid: "sa-1" }),
    () => (k8s["pod"] = { uid: "pod-1" }),
    () => (k8s["pod"] = { name: "web", uid: "pod-2" }),
    () => (k8s["pod"] = null),
    () => (k8s["secret"] = { name: "missing", uid: "s" }),
    () => (k8s["node"] = { name: 5, uid: "n" }),
  ];
  pick(random, breakages)();
  return base;
}

/** One malformed token: each kind of damage a client or an attacker could send. */
function malformed(random: Random): string {
  switch (random.int(10)) {
    case 0: {
      const segments = 1 + random.int(5);
      return Array.from({ length: segments }, () => randomText(random, base64UrlAlphabet, 80)).join(
        ".",
      );
    }
    case 1: {
      const header = pick(random, [
        { alg: "none" },
        { alg: "none", kid: key.kid },
        { alg: "HS256", kid: key.kid },
        { alg: "RS512", kid: key.kid },
        { alg: "PS256", kid: key.kid },
        { alg: "ES256", kid: key.kid },
        { alg: "RS256", kid: key.kid, crit: ["exp"] },
        { alg: "RS256", kid: "unknown" },
        { typ: "JWT" },
        ["RS256"],
        "RS256",
        42,
        null,
      ]);
      return `${b64(header)}.${goodPayload}.${pick(random, [goodSignature, ""])}`;
    }
    case 2: {
      const alg = pick(random, ["HS256", "HS384", "HS512"]);
      const input = `${b64({ alg, kid: key.kid })}.${goodPayload}`;
      const mac = createHmac(`sha${alg.slice(2)}`, pick(random, publicForms))
        .update(input)
        .digest("base64url");
      return `${input}.${mac}`;
    }
    case 3:
      return good.slice(0, random.int(good.length));
    case 4: {
      const huge = { ...claims, padding: "x".repeat(50_000 + random.int(100_000)) };
      return `${goodHeader}.${b64(huge)}.${goodSignature}`;
    }
    case 5:
      return signCompact(brokenClaims(random), key);
    case 6: {
      const signature = Buffer.from(goodSignature, "base64url");
      const at = random.int(signature.length);
      signature[at] = (signature[at] ?? 0) ^ (1 + random.int(255));
      return `${goodHeader}.${goodPayload}.${signature.toString("base64url")}`;
    }
    case 7:
      return signCompact(claims, strangerKey);
    case 8: {
      // Damage in the text itself: junk characters inserted, padding, standard base64.
      const chars = good.split("");
      const at = random.int(chars.length);
      chars.splice(at, random.int(3), randomText(random, junkAlphabet, 4) || "=");
      return chars.join("");
    }
    default:
      return `${b64(randomText(random, junkAlphabet, 200))}.${b64(brokenClaims(random))}.${goodSignature}`;
  }
}

test("authenticator: seeded random malformed tokens never authenticate", () => {
  assert.equal(
    authenticate(good)?.username,
    "system:serviceaccount:team:ci",
    "the untouched token authenticates, so refusals below are the damage's doing",
  );
  const random = seededRandom(20260301);
  for (let i = 0; i < 2000; i++) {
    const token = malformed(random);
    if (token === good) continue;
    assert.equal(authenticate(token), undefined, `case ${i} authenticated: ${token.slice(0, 120)}`);
  }
});
