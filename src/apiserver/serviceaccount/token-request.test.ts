import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { builtInKinds, qosClassOf } from "../../api/index.ts";
import { newMemoryStorage } from "../../storage/index.ts";
import { FakeClock } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { discardLogger, seededRandom } from "../../util/index.ts";
import { ApiServer } from "../api-server.ts";
import { newAnonymousAuthenticator } from "../authn.ts";
import type { LiveObject } from "./claims.ts";
import { signingKeyFromPem } from "./jwt.ts";
import { newServiceAccountTokens, type ServiceAccountTokens } from "./tokens.ts";

const issuer = "https://kubernetes.default.svc.cluster.local";
const start = new Date("2026-03-01T10:00:00Z");
const startSeconds = start.getTime() / 1000;

interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  readonly body: any;
  readonly headers: Headers;
}

/** An API server on memory storage with service account tokens on a fake clock. */
async function startServer(options: { maxExpirationSeconds?: number } = {}) {
  const clock = new FakeClock(start);
  const key = signingKeyFromPem(
    generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs1", format: "pem" })
      .toString(),
  );
  const tokens: ServiceAccountTokens = newServiceAccountTokens({
    key,
    issuer,
    clock,
    ...(options.maxExpirationSeconds === undefined
      ? {}
      : { maxExpirationSeconds: options.maxExpirationSeconds }),
  });
  const storage = newMemoryStorage();
  const server = new ApiServer({
    storage,
    clock,
    random: seededRandom(3),
    logger: discardLogger,
    authenticate: newAnonymousAuthenticator(),
    kinds: builtInKinds(),
    qosClassOf: qosClassOf as never,
    serviceAccountTokens: tokens,
  });
  const stop = new AbortController();
  const { done } = await server.start(stop.signal);
  const http = createServer(server.handler());
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text === "" ? undefined : JSON.parse(text),
      headers: response.headers,
    };
  };
  const authenticate = tokens.authenticator(
    (resource, namespace, name) =>
      server.reader.get(resource, namespace, name) as LiveObject | undefined,
  );
  return {
    clock,
    tokens,
    server,
    request,
    authenticate,
    async close() {
      stop.abort();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await done;
      await storage.close();
    },
  };
}

type Env = Awaited<ReturnType<typeof startServer>>;

const tokenPath = (name: string) => `/api/v1/namespaces/team/serviceaccounts/${name}/token`;
const tokenRequest = (
  spec: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
) => ({
  apiVersion: "authentication.k8s.io/v1",
  kind: "TokenRequest",
  metadata,
  spec,
});
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());

describe("POST serviceaccounts/NAME/token", () => {
  let env: Env;
  let accountUid: string;
  let podUid: string;

  before(async () => {
    env = await startServer();
    const created = [
      await env.request("POST", "/api/v1/namespaces", { metadata: { name: "team" } }),
      await env.request("POST", "/api/v1/namespaces/team/serviceaccounts", {
        metadata: { name: "ci" },
      }),
      await env.request("POST", "/api/v1/namespaces/team/serviceaccounts", {
        metadata: { name: "builder" },
      }),
      await env.request("POST", "/api/v1/namespaces/team/pods", {
        metadata: { name: "web" },
        spec: { serviceAccountName: "ci", containers: [{ name: "c", image: "nginx" }] },
      }),
      await env.request("POST", "/api/v1/namespaces/team/pods", {
        metadata: { name: "placed" },
        spec: {
          serviceAccountName: "ci",
          nodeName: "node-0",
          containers: [{ name: "c", image: "nginx" }],
        },
      }),
    ];
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201, 201, 201],
    );
    accountUid = created[1]?.body.metadata.uid;
    podUid = created[3]?.body.metadata.uid;
    await env.server.cache.waitUntilFresh();
  });
  after(async () => {
    await env.close();
  });
  ensureNoLeaksAfterSuite();

  test("an empty spec gets an hour's token for the API server's audience", async () => {
    const reply = await env.request("POST", tokenPath("ci"), tokenRequest());
    assert.equal(reply.status, 201);
    const { token, ...status } = reply.body.status;
    assert.deepEqual(
      { ...reply.body, status },
      {
        kind: "TokenRequest",
        apiVersion: "authentication.k8s.io/v1",
        metadata: {
          name: "ci",
          namespace: "team",
          uid: accountUid,
          creationTimestamp: "2026-03-01T10:00:00Z",
        },
        spec: { audiences: [issuer], expirationSeconds: 3600, boundObjectRef: null },
        status: { expirationTimestamp: "2026-03-01T11:00:00Z" },
      },
    );
    assert.equal(claimsOf(token).exp, startSeconds + 3600);
    assert.deepEqual(env.authenticate(token)?.username, "system:serviceaccount:team:ci");
  });

  test("a TokenRequest-issued token stops working after its expiry (fake clock)", async () => {
    const reply = await env.request(
      "POST",
      tokenPath("builder"),
      tokenRequest({ expirationSeconds: 600 }),
    );
    assert.equal(reply.status, 201);
    const token = reply.body.status.token;
    assert.equal(env.authenticate(token)?.username, "system:serviceaccount:team:builder");
    await env.clock.advance((600 + 61) * 1000);
    assert.equal(env.authenticate(token), undefined);
    await env.clock.advance(-(600 + 61) * 1000);
  });

  const invalid: { name: string; path?: string; body: object; status: number; message: string }[] =
    [
      {
        name: "a missing service account",
        path: tokenPath("nope"),
        body: tokenRequest(),
        status: 404,
        message: 'serviceaccounts "nope" not found',
      },
      {
        name: "less than ten minutes",
        body: tokenRequest({ expirationSeconds: 599 }),
        status: 422,
        message:
          'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
      },
      {
        name: "more than 2^32 seconds",
        body: tokenRequest({ expirationSeconds: 2 ** 32 + 1 }),
        status: 422,
        message:
          'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      },
      {
        name: "another service account's name in the body",
        body: tokenRequest({}, { name: "other" }),
        status: 422,
        message:
          'TokenRequest.authentication.k8s.io "ci" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
      },
      {
        name: "another namespace in the body",
        body: tokenRequest({}, { namespace: "elsewhere" }),
        status: 422,
        message:
          'TokenRequest.authentication.k8s.io "ci" is invalid: metadata.namespace: Invalid value: "elsewhere": must match the service account namespace if specified',
      },
      {
        name: "another service account's uid in the body",
        body: tokenRequest({}, { uid: "not-the-uid" }),
        status: 409,
        message:
          'Operation cannot be fulfilled on TokenRequest.authentication.k8s.io "ci": the UID in the token request (not-the-uid) does not match the UID of the service account (ACCOUNT_UID)',
      },
      {
        name: "a bound pod that does not exist",
        body: tokenRequest({ boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "ghost" } }),
        status: 404,
        message: 'pods "ghost" not found',
      },
      {
        name: "a bound pod running as another service account",
        path: tokenPath("builder"),
        body: tokenRequest({ boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "web" } }),
        status: 400,
        message:
          'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.',
      },
      {
        name: "a bound pod with another uid",
        body: tokenRequest({
          boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "web", uid: "old-uid" },
        }),
        status: 409,
        message:
          'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated',
      },
      {
        name: "a kind tokens cannot be bound to",
        body: tokenRequest({
          boundObjectRef: { kind: "Deployment", apiVersion: "apps/v1", name: "d" },
        }),
        status: 400,
        message: "cannot bind token to object of type apps/v1, Kind=Deployment",
      },
      {
        name: "a bound node that does not exist",
        body: tokenRequest({ boundObjectRef: { kind: "Node", apiVersion: "v1", name: "node-0" } }),
        status: 404,
        message: 'nodes "node-0" not found',
      },
    ];
  for (const c of invalid) {
    test(`refused: ${c.name}`, async () => {
      const reply = await env.request("POST", c.path ?? tokenPath("ci"), c.body);
      assert.equal(reply.status, c.status);
      assert.equal(reply.body.message, c.message.replace("ACCOUNT_UID", accountUid));
    });
  }

  test("a pod-bound token names the pod (and the pod's node, by name when it is missing)", async () => {
    const ref = { kind: "Pod", apiVersion: "v1", name: "web", uid: podUid };
    const reply = await env.request("POST", tokenPath("ci"), tokenRequest({ boundObjectRef: ref }));
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body.spec.boundObjectRef, ref);
    assert.deepEqual(claimsOf(reply.body.status.token)["kubernetes.io"].pod, {
      name: "web",
      uid: podUid,
    });
    const placed = await env.request(
      "POST",
      tokenPath("ci"),
      tokenRequest({ boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "placed" } }),
    );
    assert.deepEqual(claimsOf(placed.body.status.token)["kubernetes.io"].node, { name: "node-0" });
    assert.deepEqual(
      env.authenticate(placed.body.status.token)?.extra?.["authentication.kubernetes.io/node-name"],
      ["node-0"],
    );
  });

  test("a kubelet-style request (3607 s, pod-bound) lives a year and warns after 3607 s", async () => {
    const reply = await env.request(
      "POST",
      tokenPath("ci"),
      tokenRequest({
        expirationSeconds: 3607,
        boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "web" },
      }),
    );
    assert.equal(reply.status, 201);
    assert.equal(reply.body.status.expirationTimestamp, "2026-03-01T11:00:07Z");
    const claims = claimsOf(reply.body.status.token);
    assert.equal(claims.exp, startSeconds + 365 * 24 * 3600);
    assert.equal(claims["kubernetes.io"].warnafter, startSeconds + 3607);
  });

  test("audiences are kept as asked", async () => {
    const reply = await env.request(
      "POST",
      tokenPath("ci"),
      tokenRequest({ audiences: ["vault"] }),
    );
    assert.deepEqual(claimsOf(reply.body.status.token).aud, ["vault"]);
    assert.equal(env.authenticate(reply.body.status.token), undefined, "not for the API server");
  });

  test("unknown fields: Strict refuses them as upstream's decoder", async () => {
    const reply = await env.request(
      "POST",
      `${tokenPath("ci")}?fieldValidation=Strict`,
      tokenRequest({ bogus: true }),
    );
    assert.equal(reply.status, 400);
    assert.equal(
      reply.body.message,
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: strict decoding error: unknown field "spec.bogus"',
    );
  });

  test("only POST: a GET of the subresource is 405", async () => {
    const reply = await env.request("GET", tokenPath("ci"));
    assert.equal(reply.status, 405);
  });

  test("discovery lists serviceaccounts/token as a create-only TokenRequest", async () => {
    const legacy = await env.request("GET", "/api/v1");
    assert.deepEqual(
      legacy.body.resources.find((r: { name: string }) => r.name === "serviceaccounts/token"),
      {
        name: "serviceaccounts/token",
        singularName: "",
        namespaced: true,
        group: "authentication.k8s.io",
        version: "v1",
        kind: "TokenRequest",
        verbs: ["create"],
      },
    );
  });

  test("the issuer's OpenID configuration and JWKS are served with upstream's headers", async () => {
    const config = await env.request("GET", "/.well-known/openid-configuration");
    assert.equal(config.status, 200);
    assert.equal(config.headers.get("cache-control"), "public, max-age=3600");
    assert.equal(config.body.issuer, issuer);
    const jwks = await env.request("GET", "/openid/v1/jwks");
    assert.equal(jwks.headers.get("content-type"), "application/jwk-set+json");
    assert.equal(jwks.body.keys[0].alg, "RS256");
  });
});

test("POST serviceaccounts/NAME/token: longer than the maximum is shortened, with a warning", async () => {
  const env = await startServer({ maxExpirationSeconds: 7200 });
  try {
    await env.request("POST", "/api/v1/namespaces", { metadata: { name: "team" } });
    await env.request("POST", "/api/v1/namespaces/team/serviceaccounts", {
      metadata: { name: "ci" },
    });
    const reply = await env.request(
      "POST",
      tokenPath("ci"),
      tokenRequest({ expirationSeconds: 86400 }),
    );
    assert.equal(reply.status, 201);
    assert.equal(reply.body.spec.expirationSeconds, 7200);
    assert.equal(
      reply.headers.get("warning"),
      '299 - "requested expiration of 86400 seconds shortened to 7200 seconds"',
    );
    assert.equal(claimsOf(reply.body.status.token).exp, startSeconds + 7200);
  } finally {
    await env.close();
  }
});
