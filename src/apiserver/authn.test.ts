import assert from "node:assert/strict";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { test } from "node:test";
import { ApiError } from "../api/index.ts";
import { newAnonymousAuthenticator, newTokenAuthenticator } from "./authn.ts";

const token = "s3cr3t-token";

function request(url: string, authorization?: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  if (authorization !== undefined) req.headers.authorization = authorization;
  return req;
}

/** "admin", "anonymous", or the 401 Status body the authenticator threw. */
function outcome(
  authenticate: (req: IncomingMessage) => { username: string },
  req: IncomingMessage,
) {
  try {
    const user = authenticate(req);
    return user.username === "system:anonymous" ? "anonymous" : user.username;
  } catch (error: unknown) {
    if (error instanceof ApiError) return error.toStatus();
    throw error;
  }
}

const unauthorizedStatus = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "Unauthorized",
  reason: "Unauthorized",
  code: 401,
};

const tokenCases = [
  {
    name: "the admin token identifies the admin on an API path",
    url: "/api/v1/namespaces",
    authorization: `Bearer ${token}`,
    want: "admin",
  },
  {
    name: "the scheme is case-insensitive, as upstream's bearertoken authenticator",
    url: "/version",
    authorization: `bearer ${token}`,
    want: "admin",
  },
  {
    name: "no credentials on an API path is the 401 Status",
    url: "/api/v1/namespaces?limit=1",
    authorization: undefined,
    want: unauthorizedStatus,
  },
  {
    name: "no credentials on /version is the 401 Status",
    url: "/version",
    authorization: undefined,
    want: unauthorizedStatus,
  },
  {
    name: "no credentials on /readyz is anonymous (a health check path)",
    url: "/readyz",
    authorization: undefined,
    want: "anonymous",
  },
  {
    name: "no credentials on /livez?verbose is anonymous (the query is not part of the path)",
    url: "/livez?verbose",
    authorization: undefined,
    want: "anonymous",
  },
  {
    name: "no credentials on /healthz/ping is the 401 Status (paths match exactly)",
    url: "/healthz/ping",
    authorization: undefined,
    want: unauthorizedStatus,
  },
  {
    name: "a wrong token on a health check path is the 401 Status",
    url: "/healthz",
    authorization: "Bearer not-the-token",
    want: unauthorizedStatus,
  },
  {
    name: "a token that extends the admin token is the 401 Status",
    url: "/api",
    authorization: `Bearer ${token}x`,
    want: unauthorizedStatus,
  },
  {
    name: "a Basic header is no bearer token: anonymous on /readyz",
    url: "/readyz",
    authorization: "Basic YWRtaW46YWRtaW4=",
    want: "anonymous",
  },
  {
    name: "a Basic header is no bearer token: 401 on an API path",
    url: "/apis",
    authorization: "Basic YWRtaW46YWRtaW4=",
    want: unauthorizedStatus,
  },
  {
    name: "an empty bearer token counts as no token",
    url: "/api",
    authorization: "Bearer ",
    want: unauthorizedStatus,
  },
] as const;

for (const c of tokenCases) {
  test(`newTokenAuthenticator: ${c.name}`, () => {
    const authenticate = newTokenAuthenticator(token);
    assert.deepEqual(outcome(authenticate, request(c.url, c.authorization)), c.want);
  });
}

test("newTokenAuthenticator: anonymousPaths replaces the health check paths", () => {
  const authenticate = newTokenAuthenticator(token, []);
  assert.deepEqual(outcome(authenticate, request("/readyz")), unauthorizedStatus);
});

const anonymousCases = [
  { name: "no credentials is anonymous", authorization: undefined, want: "anonymous" },
  { name: "the admin token identifies the admin", authorization: `Bearer ${token}`, want: "admin" },
  { name: "an unknown token is anonymous", authorization: "Bearer other", want: "anonymous" },
] as const;

for (const c of anonymousCases) {
  test(`newAnonymousAuthenticator: ${c.name}`, () => {
    const authenticate = newAnonymousAuthenticator(token);
    assert.equal(outcome(authenticate, request("/api/v1/pods", c.authorization)), c.want);
  });
}
