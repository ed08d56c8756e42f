import assert from "node:assert/strict";
import { createHmac, generateKeyPairSync } from "node:crypto";
import { describe, test } from "node:test";
import { FakeClock } from "../../testing/index.ts";
import type { LiveObject, ObjectLookup, ServiceAccountTokenClaims } from "./claims.ts";
import { serviceAccountClaims } from "./claims.ts";
import { keyIdOf, signCompact, signingKeyFromPem } from "./jwt.ts";
import { newServiceAccountTokens, type ServiceAccountTokens } from "./tokens.ts";

const issuer = "https://kubernetes.default.svc.cluster.local";
const pem = (type: "rsa" | "ec"): string =>
  type === "rsa"
    ? generateKeyPairSync("rsa", { modulusLength: 2048 })
        .privateKey.export({ type: "pkcs1", format: "pem" })
        .toString()
    : generateKeyPairSync("ec", { namedCurve: "P-256" })
        .privateKey.export({ type: "sec1", format: "pem" })
        .toString();
const keyPem = pem("rsa");
const key = signingKeyFromPem(keyPem);
const otherKey = signingKeyFromPem(pem("rsa"));
const ecKey = signingKeyFromPem(pem("ec"));

/** Live objects by `resource/namespace/name`. */
class Objects {
  readonly #objects = new Map<string, LiveObject>();
  put(resource: string, namespace: string, name: string, object: LiveObject): void {
    this.#objects.set(`${resource}/${namespace}/${name}`, object);
  }
  remove(resource: string, namespace: string, name: string): void {
    this.#objects.delete(`${resource}/${namespace}/${name}`);
  }
  readonly lookup: ObjectLookup = (resource, namespace, name) =>
    this.#objects.get(`${resource}/${namespace}/${name}`);
}

function setUp(options: { signWith?: typeof key } = {}) {
  const clock = new FakeClock(new Date("2026-03-01T10:00:00Z"));
  const tokens = newServiceAccountTokens({ key: options.signWith ?? key, issuer, clock });
  const objects = new Objects();
  objects.put("serviceaccounts", "team", "ci", { metadata: { uid: "sa-1" } });
  objects.put("pods", "team", "web", { metadata: { uid: "pod-1" } });
  objects.put("secrets", "team", "creds", { metadata: { uid: "secret-1" } });
  objects.put("nodes", "", "node-0", { metadata: { uid: "node-1" } });
  const authenticate = tokens.authenticator(objects.lookup);
  const issue = (extra: Partial<Parameters<ServiceAccountTokens["issue"]>[0]> = {}) =>
    tokens.issue({
      serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
      audiences: [issuer],
      now: clock.now(),
      expirationSeconds: 3600,
      warnAfterSeconds: 0,
      jti: "jti-1",
      ...extra,
    });
  return { clock, tokens, objects, authenticate, issue };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("ServiceAccountTokens", () => {
  test("issue: claims as upstream's Claims, signed RS256 with the key's kid", () => {
    const { issue } = setUp();
    const { token, claims } = issue();
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    assert.deepEqual(header, { alg: "RS256", kid: keyIdOf(key.publicKey) });
    const iat = Date.parse("2026-03-01T10:00:00Z") / 1000;
    const want: ServiceAccountTokenClaims = {
      aud: [issuer],
      exp: iat + 3600,
      iat,
      iss: issuer,
      jti: "jti-1",
      "kubernetes.io": { namespace: "team", serviceaccount: { name: "ci", uid: "sa-1" } },
      nbf: iat,
      sub: "system:serviceaccount:team:ci",
    };
    assert.deepEqual(payload, want);
    assert.deepEqual(claims, want);
    assert.deepEqual(
      Object.keys(payload),
      [...Object.keys(want)].sort(),
      "keys sorted as Go's map",
    );
  });

  test("authenticator: a good token is the service account's user", () => {
    const { issue, authenticate } = setUp();
    assert.deepEqual(authenticate(issue().token), {
      username: "system:serviceaccount:team:ci",
      uid: "sa-1",
      groups: ["system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"],
      extra: { "authentication.kubernetes.io/credential-id": ["JTI=jti-1"] },
    });
  });

  test("authenticator: a pod-bound token carries the pod and its node in extra", () => {
    const { issue, authenticate } = setUp();
    const { token } = issue({
      pod: { name: "web", uid: "pod-1" },
      node: { name: "node-0", uid: "node-1" },
    });
    assert.deepEqual(authenticate(token)?.extra, {
      "authentication.kubernetes.io/credential-id": ["JTI=jti-1"],
      "authentication.kubernetes.io/node-name": ["node-0"],
      "authentication.kubernetes.io/node-uid": ["node-1"],
      "authentication.kubernetes.io/pod-name": ["web"],
      "authentication.kubernetes.io/pod-uid": ["pod-1"],
    });
  });

  test("authenticator: expired one leeway minute after exp, valid just before", async () => {
    const { issue, authenticate, clock } = setUp();
    const { token } = issue({ expirationSeconds: 600 });
    await clock.advance((600 + 59) * 1000);
    assert.ok(authenticate(token) !== undefined, "valid within the minute of leeway");
    await clock.advance(2000);
    assert.equal(authenticate(token), undefined);
  });

  test("authenticator: not valid before nbf (beyond the leeway) nor issued in the future", () => {
    const { authenticate, clock } = setUp();
    const now = clock.now().getTime() / 1000;
    const claims = (nbf: number, iat: number) => ({
      ...serviceAccountClaims({
        issuer,
        serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
        audiences: [issuer],
        now: clock.now(),
        expirationSeconds: 3600,
        warnAfterSeconds: 0,
        jti: "j",
      }),
      nbf,
      iat,
    });
    assert.equal(authenticate(signCompact(claims(now + 120, now), key)), undefined, "nbf");
    assert.equal(authenticate(signCompact(claims(now, now + 120), key)), undefined, "iat");
    assert.ok(authenticate(signCompact(claims(now + 30, now + 30), key)) !== undefined, "leeway");
  });

  test("authenticator: a token for another audience is refused", () => {
    const { issue, authenticate } = setUp();
    assert.equal(authenticate(issue({ audiences: ["vault"] }).token), undefined);
    assert.ok(
      authenticate(issue({ audiences: ["vault", issuer] }).token) !== undefined,
      "one of the API server's audiences is enough",
    );
  });

  test("authenticator: a token signed with another key is refused, with its kid or ours", () => {
    const { authenticate } = setUp();
    const { token } = setUp({ signWith: otherKey }).issue();
    assert.equal(authenticate(token), undefined);
    const [, payload, signature] = token.split(".");
    const forgedKid = `${b64({ alg: "RS256", kid: key.kid })}.${payload}.${signature}`;
    assert.equal(authenticate(forgedKid), undefined);
  });

  test("authenticator: a tampered payload or signature is refused", () => {
    const { issue, authenticate } = setUp();
    const [header, payload = "", signature = ""] = issue().token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    claims["kubernetes.io"].namespace = "kube-system";
    claims.sub = "system:serviceaccount:kube-system:ci";
    assert.equal(authenticate(`${header}.${b64(claims)}.${signature}`), undefined, "payload");
    const flipped = Buffer.from(signature, "base64url");
    flipped[10] = (flipped[10] ?? 0) ^ 0x01;
    assert.equal(
      authenticate(`${header}.${payload}.${flipped.toString("base64url")}`),
      undefined,
      "signature",
    );
    assert.equal(authenticate(`${header}.${payload}.`), undefined, "no signature");
  });

  test("authenticator: alg none and HS256 keyed with the public key are refused", () => {
    const { issue, authenticate } = setUp();
    const payload = issue().token.split(".")[1] ?? "";
    assert.equal(authenticate(`${b64({ alg: "none" })}.${payload}.`), undefined, "none");
    assert.equal(authenticate(`${b64({ alg: "none", kid: key.kid })}.${payload}.`), undefined);
    const publicPem = key.publicKey.export({ format: "pem", type: "spki" }).toString();
    const input = `${b64({ alg: "HS256", kid: key.kid })}.${payload}`;
    const mac = createHmac("sha256", publicPem).update(input).digest("base64url");
    assert.equal(authenticate(`${input}.${mac}`), undefined, "HS256 alg confusion");
  });

  test("authenticator: refused once the service account is deleted, and after it is recreated", () => {
    const { issue, authenticate, objects } = setUp();
    const { token } = issue();
    objects.remove("serviceaccounts", "team", "ci");
    assert.equal(authenticate(token), undefined, "deleted");
    objects.put("serviceaccounts", "team", "ci", { metadata: { uid: "sa-2" } });
    assert.equal(authenticate(token), undefined, "recreated with a new uid");
  });

  test("authenticator: a pod-bound token stops working when the pod is gone or long terminating", () => {
    const { issue, authenticate, objects, clock } = setUp();
    const { token } = issue({ pod: { name: "web", uid: "pod-1" } });
    const terminating = (secondsAgo: number): LiveObject => ({
      metadata: {
        uid: "pod-1",
        deletionTimestamp: new Date(clock.now().getTime() - secondsAgo * 1000).toISOString(),
      },
    });
    objects.put("pods", "team", "web", terminating(-30));
    assert.ok(authenticate(token) !== undefined, "terminating within its grace period");
    objects.put("pods", "team", "web", terminating(61));
    assert.equal(authenticate(token), undefined, "deleted more than the leeway ago");
    objects.remove("pods", "team", "web");
    assert.equal(authenticate(token), undefined, "gone");
    objects.put("pods", "team", "web", { metadata: { uid: "pod-2" } });
    assert.equal(authenticate(token), undefined, "recreated");
  });

  test("authenticator: secret- and node-bound tokens need their object", () => {
    const { issue, authenticate, objects } = setUp();
    const secretBound = issue({ secret: { name: "creds", uid: "secret-1" } }).token;
    const nodeBound = issue({ node: { name: "node-0", uid: "node-1" } }).token;
    assert.ok(authenticate(secretBound) !== undefined, "secret present");
    assert.deepEqual(authenticate(nodeBound)?.extra?.["authentication.kubernetes.io/node-uid"], [
      "node-1",
    ]);
    objects.remove("secrets", "team", "creds");
    objects.remove("nodes", "", "node-0");
    assert.equal(authenticate(secretBound), undefined, "secret deleted");
    assert.equal(authenticate(nodeBound), undefined, "node deleted");
  });

  test("authenticator: another issuer's JWT is not this source's", () => {
    const { authenticate, clock } = setUp();
    const other = newServiceAccountTokens({ key, issuer: "https://other.example", clock });
    const { token } = other.issue({
      serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
      audiences: [issuer],
      now: clock.now(),
      expirationSeconds: 3600,
      warnAfterSeconds: 0,
      jti: "j",
    });
    assert.equal(authenticate(token), undefined);
  });

  test("ES256 keys sign and verify with raw r||s signatures", () => {
    const { objects, clock } = setUp();
    const tokens = newServiceAccountTokens({ key: ecKey, issuer, clock });
    const { token } = tokens.issue({
      serviceAccount: { namespace: "team", name: "ci", uid: "sa-1" },
      audiences: [issuer],
      now: clock.now(),
      expirationSeconds: 3600,
      warnAfterSeconds: 0,
      jti: "j",
    });
    assert.equal(
      JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString()).alg,
      "ES256",
    );
    assert.equal(Buffer.from(token.split(".")[2] ?? "", "base64url").length, 64);
    assert.equal(
      tokens.authenticator(objects.lookup)(token)?.username,
      "system:serviceaccount:team:ci",
    );
  });

  test("discovery: OIDC configuration and JWKS as upstream renders them", () => {
    const { tokens } = setUp();
    assert.deepEqual(JSON.parse(tokens.discovery?.configuration("10.0.0.1:6443") ?? "{}"), {
      issuer,
      jwks_uri: "https://10.0.0.1:6443/openid/v1/jwks",
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
    });
    const jwks = JSON.parse(tokens.discovery?.keys ?? "{}");
    assert.equal(jwks.keys.length, 1);
    assert.deepEqual(Object.keys(jwks.keys[0]), ["use", "kty", "kid", "alg", "n", "e"]);
    assert.equal(jwks.keys[0].kid, keyIdOf(key.publicKey));
    assert.equal(jwks.keys[0].e, "AQAB");
    const plain = newServiceAccountTokens({ key, issuer: "http://issuer", clock: new FakeClock() });
    assert.equal(plain.discovery, undefined, "an http issuer has no discovery documents");
  });
});
