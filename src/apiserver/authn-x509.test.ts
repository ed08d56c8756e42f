import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { IncomingMessage } from "node:http";
import { createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { ApiError } from "../api/index.ts";
import {
  makeCa,
  makeCertificate,
  makeKey,
  type TestCertificate,
  type TestCertificateOptions,
} from "../testing/certificates.ts";
import { ensureNoLeaksAfterSuite, ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { anonymousUser, type User } from "./authn.ts";
import {
  type ClientCertificateResult,
  newClientCertificateAuthenticator,
  parseCertificateBundle,
  verifyClientCertificate,
  withClientCertificates,
} from "./authn-x509.ts";

ensureNoLeaksInEachTest();

const hour = 60 * 60 * 1000;
const now = new Date();
// Keys are the slow part: a few serve every certificate below.
const caKey = makeKey();
const leafKey = makeKey();
const otherKey = makeKey();
const ca = makeCa("gantry-ca", caKey);
const otherCa = makeCa("other-ca", otherKey);
/** Same name as the cluster CA, another key: a forgery of its name. */
const impostorCa = makeCa("gantry-ca", otherKey);
const intermediate = makeCertificate({
  commonName: "gantry-intermediate",
  ca: true,
  key: otherKey,
  issuer: ca,
});
const roots = [new X509Certificate(ca.certPem)];

const leaf = (options: TestCertificateOptions): TestCertificate =>
  makeCertificate({ key: leafKey, issuer: ca, ...options });
const chainOf = (...certs: TestCertificate[]): X509Certificate[] =>
  certs.map((c) => new X509Certificate(c.certPem));

/** "none", the user, or "invalid: <reason>". */
function summary(result: ClientCertificateResult): string | User {
  if (result.kind === "user") return result.user;
  return result.kind === "none" ? "none" : `invalid: ${result.reason}`;
}

const cases: {
  name: string;
  chain: () => X509Certificate[];
  roots?: () => X509Certificate[];
  want: string | User | RegExp;
}[] = [
  {
    name: "CN is the user, each O a group, then system:authenticated",
    chain: () => chainOf(leaf({ commonName: "alice", organizations: ["team-a", "team-b"] })),
    want: { username: "alice", groups: ["team-a", "team-b", "system:authenticated"] },
  },
  {
    name: "a certificate without O: only system:authenticated",
    chain: () => chainOf(leaf({ commonName: "system:node:n1" })),
    want: { username: "system:node:n1", groups: ["system:authenticated"] },
  },
  {
    name: "an O of system:authenticated is not added twice",
    chain: () => chainOf(leaf({ commonName: "bob", organizations: ["system:authenticated", "x"] })),
    want: { username: "bob", groups: ["system:authenticated", "x"] },
  },
  {
    name: "no extended key usage extension allows any usage, as Go's x509",
    chain: () => chainOf(leaf({ commonName: "carol", extKeyUsage: [] })),
    want: { username: "carol", groups: ["system:authenticated"] },
  },
  {
    name: "clientAuth beside serverAuth",
    chain: () => chainOf(leaf({ commonName: "dave", extKeyUsage: ["serverAuth", "clientAuth"] })),
    want: { username: "dave", groups: ["system:authenticated"] },
  },
  {
    name: "a leaf signed by an intermediate the client sent along",
    chain: () => chainOf(leaf({ commonName: "erin", issuer: intermediate }), intermediate),
    want: { username: "erin", groups: ["system:authenticated"] },
  },
  {
    name: "the second of two trusted CAs",
    chain: () => chainOf(leaf({ commonName: "frank", issuer: otherCa })),
    roots: () => [...roots, new X509Certificate(otherCa.certPem)],
    want: { username: "frank", groups: ["system:authenticated"] },
  },
  {
    name: "an empty CN identifies nobody (other authenticators decide)",
    chain: () => chainOf(leaf({ commonName: "", organizations: ["system:masters"] })),
    want: "none",
  },
  {
    name: "no CN at all identifies nobody",
    chain: () => chainOf(leaf({ organizations: ["system:masters"] })),
    want: "none",
  },
  { name: "no certificate", chain: () => [], want: "none" },
  {
    name: "signed by another CA",
    chain: () => chainOf(leaf({ commonName: "mallory", issuer: otherCa })),
    want: /^invalid: verifying certificate SN=\d+ failed: x509: certificate signed by unknown authority$/,
  },
  {
    name: "signed by a CA that only borrows the cluster CA's name",
    chain: () => chainOf(leaf({ commonName: "mallory", issuer: impostorCa })),
    want: /unknown authority$/,
  },
  {
    name: "self-signed",
    chain: () => chainOf(makeCertificate({ commonName: "mallory", key: leafKey })),
    want: /unknown authority$/,
  },
  {
    name: "expired",
    chain: () =>
      chainOf(
        leaf({
          commonName: "alice",
          notBefore: new Date(now.getTime() - 48 * hour),
          notAfter: new Date(now.getTime() - hour),
        }),
      ),
    want: /x509: certificate has expired or is not yet valid: current time .* is after /,
  },
  {
    name: "not yet valid",
    chain: () => chainOf(leaf({ commonName: "alice", notBefore: new Date(now.getTime() + hour) })),
    want: /x509: certificate has expired or is not yet valid: current time .* is before /,
  },
  {
    name: "serverAuth only (a serving certificate)",
    chain: () => chainOf(leaf({ commonName: "alice", extKeyUsage: ["serverAuth"] })),
    want: /x509: certificate specifies an incompatible key usage$/,
  },
  {
    name: "an intermediate the client did not send",
    chain: () => chainOf(leaf({ commonName: "erin", issuer: intermediate })),
    want: /unknown authority$/,
  },
  {
    name: "an 'intermediate' that is not a CA",
    chain: () => {
      const notCa = leaf({ commonName: "alice" });
      return chainOf(
        makeCertificate({ commonName: "mallory", key: otherKey, issuer: notCa }),
        notCa,
      );
    },
    want: /unknown authority$/,
  },
  {
    name: "an expired trusted CA",
    chain: () => chainOf(leaf({ commonName: "alice" })),
    roots: () => [
      new X509Certificate(
        makeCertificate({
          commonName: "gantry-ca",
          ca: true,
          key: caKey,
          notBefore: new Date(now.getTime() - 48 * hour),
          notAfter: new Date(now.getTime() - hour),
        }).certPem,
      ),
    ],
    want: /is after /,
  },
];

for (const c of cases) {
  test(`verifyClientCertificate: ${c.name}`, () => {
    const got = summary(verifyClientCertificate(c.chain(), c.roots?.() ?? roots, now));
    if (c.want instanceof RegExp) assert.match(String(got), c.want);
    else assert.deepEqual(got, c.want);
  });
}

function fakeRequest(authorization?: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.url = "/healthz";
  if (authorization !== undefined) req.headers.authorization = authorization;
  return req;
}

/** The user name, or the status code of what the authenticator threw. */
function outcome(authenticate: (req: IncomingMessage) => User, req: IncomingMessage) {
  try {
    return authenticate(req).username;
  } catch (error: unknown) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

const alice: User = { username: "alice", groups: ["system:authenticated"] };
const tokenUser: User = { username: "token-user", groups: ["system:authenticated"] };
const unionCases: {
  name: string;
  certificate: ClientCertificateResult;
  rest: "anonymous" | "token-user" | "401";
  want: string | number;
}[] = [
  {
    name: "a verified certificate decides before any token",
    certificate: { kind: "user", user: alice },
    rest: "401",
    want: "alice",
  },
  {
    name: "no certificate: the token decides",
    certificate: { kind: "none" },
    rest: "token-user",
    want: "token-user",
  },
  {
    name: "no certificate and no token: anonymous where allowed",
    certificate: { kind: "none" },
    rest: "anonymous",
    want: "system:anonymous",
  },
  {
    name: "a bad certificate with a valid token: the token's user (union.New goes on)",
    certificate: { kind: "invalid", reason: "x" },
    rest: "token-user",
    want: "token-user",
  },
  {
    name: "a bad certificate without a token is a 401, never anonymous (NewFailOnError)",
    certificate: { kind: "invalid", reason: "x" },
    rest: "anonymous",
    want: 401,
  },
  {
    name: "a bad certificate with a bad token is a 401",
    certificate: { kind: "invalid", reason: "x" },
    rest: "401",
    want: 401,
  },
];
for (const c of unionCases) {
  test(`withClientCertificates: ${c.name}`, () => {
    const authenticate = withClientCertificates(
      () => c.certificate,
      () => {
        if (c.rest === "401") throw new ApiError(401, "Unauthorized", "Unauthorized");
        return c.rest === "anonymous" ? anonymousUser : tokenUser;
      },
    );
    assert.equal(outcome(authenticate, fakeRequest()), c.want);
  });
}

test("newClientCertificateAuthenticator: a request that did not come over TLS has no certificate", () => {
  const certificates = newClientCertificateAuthenticator({ roots, now: () => now });
  assert.deepEqual(certificates(fakeRequest()), { kind: "none" });
});

test("parseCertificateBundle: every certificate of a bundle, in order", () => {
  const bundle = parseCertificateBundle(`${ca.certPem}\n${otherCa.certPem}`, "bundle.crt");
  assert.deepEqual(
    bundle.map((cert) => cert.subject),
    ["CN=gantry-ca", "CN=other-ca"],
  );
});

test("parseCertificateBundle: a file without certificates is a SyntaxError naming it", () => {
  assert.throws(() => parseCertificateBundle("not pem", "ca.txt"), {
    name: "SyntaxError",
    message: "Cannot use the CA bundle ca.txt: it holds no PEM certificate",
  });
  assert.throws(
    () =>
      parseCertificateBundle(
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
        "ca.txt",
      ),
    {
      name: "SyntaxError",
      message: /^Cannot use the CA bundle ca\.txt: certificate 1 is unreadable/,
    },
  );
});

describe("newClientCertificateAuthenticator over a real TLS connection", () => {
  const serving = makeCertificate({
    commonName: "server",
    key: otherKey,
    issuer: ca,
    extKeyUsage: ["serverAuth"],
  });
  const certificates = newClientCertificateAuthenticator({ roots, now: () => new Date() });
  const server = createServer(
    {
      cert: serving.certPem,
      key: serving.keyPem,
      ca: [ca.certPem],
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      res.end(JSON.stringify(summary(certificates(req))));
    },
  );
  let port = 0;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  ensureNoLeaksAfterSuite();

  const ask = (client?: TestCertificate): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/",
          ca: ca.certPem,
          servername: "localhost",
          checkServerIdentity: () => undefined,
          agent: false,
          ...(client === undefined ? {} : { cert: client.certPem, key: client.keyPem }),
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () => resolve(JSON.parse(body)));
        },
      );
      req.on("error", reject);
      req.end();
    });

  test("no client certificate: none", async () => {
    assert.equal(await ask(), "none");
  });

  test("a certificate signed by the CA: its user", async () => {
    assert.deepEqual(await ask(leaf({ commonName: "alice", organizations: ["team-a"] })), {
      username: "alice",
      groups: ["team-a", "system:authenticated"],
    });
  });

  test("a certificate signed by another CA: invalid", async () => {
    assert.match(
      String(await ask(leaf({ commonName: "mallory", issuer: otherCa }))),
      /^invalid: .*unknown authority$/,
    );
  });
});
