/**
 * Randomized bad credentials against a real `gantry apiserver --tls` (RBAC): hundreds of
 * generated bearer tokens and client certificates (src/testing/bad-credentials.ts), each sent
 * to a protected or a health path. None may get anything but the 401 Status, except that a
 * request the credentials do not identify may reach the anonymous health checks (200 "ok") and
 * a header an HTTP parser rejects may get its 400. A certificate that fails verification is
 * refused even on the health paths, as upstream's union fails on the x509 error.
 *
 * The run is seeded: GANTRY_FUZZ_SEED picks another seed (printed on failure),
 * GANTRY_FUZZ_CREDENTIALS another count.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { connect } from "node:tls";
import {
  type BadCredential,
  badBearerToken,
  badCertificate,
  type CertificateMaterials,
} from "../../testing/bad-credentials.ts";
import { makeKey, type TestCertificate } from "../../testing/certificates.ts";
import { type GantryProcess, startGantry } from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { seededRandom } from "../../util/index.ts";

const seed = Number(process.env["GANTRY_FUZZ_SEED"] ?? "20251128");
const credentialCount = Number(process.env["GANTRY_FUZZ_CREDENTIALS"] ?? "500");
const healthPaths = ["/healthz", "/livez", "/readyz"];
const protectedRequests: readonly { method: string; path: string; body?: string }[] = [
  { method: "GET", path: "/api/v1/namespaces" },
  { method: "GET", path: "/api/v1/namespaces/kube-system/secrets" },
  { method: "GET", path: "/api/v1/nodes?watch=true" },
  { method: "GET", path: "/apis" },
  { method: "GET", path: "/version" },
  { method: "GET", path: "/metrics" },
  { method: "GET", path: "/openapi/v3" },
  { method: "DELETE", path: "/api/v1/namespaces/default" },
  {
    method: "POST",
    path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
    body: JSON.stringify({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "pwned" },
      roleRef: {
        apiGroup: "rbac.authorization.k8s.io",
        kind: "ClusterRole",
        name: "cluster-admin",
      },
      subjects: [
        { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "system:anonymous" },
      ],
    }),
  },
];
const unauthorizedBody =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

/** A response, or that the TLS client would not even send the request. */
type Outcome =
  | { readonly kind: "response"; readonly status: number; readonly body: string }
  | { readonly kind: "client-refused"; readonly message: string };

describe("randomized malformed credentials against gantry --tls with RBAC", () => {
  // The real `gantry apiserver --tls`: every authenticator of the union as it is wired.
  let api: GantryProcess;
  let dataDir = "";
  let adminToken = "";
  let caPem = "";
  let port = 0;

  before(async () => {
    api = await startGantry({ command: "apiserver", tls: true, storage: "memory" });
    dataDir = api.dataDir;
    port = Number(new URL(api.url).port);
    adminToken = api.token;
    caPem = api.caPem ?? "";
  });
  after(async () => {
    await api[Symbol.asyncDispose]();
  });
  ensureNoLeaksAfterSuite();

  /**
   * One request over a fresh TLS connection, written byte for byte (so any header value goes
   * out as generated), answered with Connection: close.
   */
  const send = (
    request: { method: string; path: string; body?: string },
    credential: BadCredential,
  ): Promise<Outcome> =>
    new Promise((resolve) => {
      const lines = [
        `${request.method} ${request.path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Accept: application/json",
        "Connection: close",
        ...credential.authorization.map((value) => `Authorization: ${value}`),
        ...(request.body === undefined
          ? []
          : [
              "Content-Type: application/json",
              `Content-Length: ${Buffer.byteLength(request.body)}`,
            ]),
      ];
      let socket: ReturnType<typeof connect>;
      try {
        socket = connect({
          host: "127.0.0.1",
          port,
          ca: caPem,
          ...(credential.certificate === undefined
            ? {}
            : { cert: credential.certificate.certPem, key: credential.certificate.keyPem }),
        });
      } catch (error: unknown) {
        resolve({ kind: "client-refused", message: String(error) });
        return;
      }
      const chunks: Buffer[] = [];
      socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10s")));
      socket.on("secureConnect", () => {
        socket.write(Buffer.from(`${lines.join("\r\n")}\r\n\r\n${request.body ?? ""}`, "latin1"));
      });
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", (error) =>
        resolve({ kind: "client-refused", message: `connection failed: ${error.message}` }),
      );
      socket.on("close", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? "0");
        const body = text.slice(text.indexOf("\r\n\r\n") + 4);
        resolve({ kind: "response", status, body });
      });
    });

  /** Why `outcome` lets `credential` through, or undefined when it is refused as it must be. */
  const judge = (credential: BadCredential, path: string, outcome: Outcome): string | undefined => {
    if (outcome.kind === "client-refused") {
      return credential.mismatchedKey === true ? undefined : `no answer: ${outcome.message}`;
    }
    if (credential.mismatchedKey === true) return `sent a mismatched key, got ${outcome.status}`;
    if (outcome.status === 401) {
      return outcome.body.endsWith(unauthorizedBody) ? undefined : `401 body ${outcome.body}`;
    }
    if (outcome.status === 400 && credential.parserMayReject === true) return undefined;
    const health = healthPaths.includes(path);
    if (health && credential.failsVerification !== true && outcome.status === 200) {
      return outcome.body === "ok" ? undefined : `health body ${JSON.stringify(outcome.body)}`;
    }
    return `status ${outcome.status}: ${outcome.body.slice(0, 300)}`;
  };

  test("hundreds of bad tokens and certificates never authenticate", {
    timeout: 240_000,
  }, async (t) => {
    const random = seededRandom(seed);
    // A few keys serve every certificate: generating keys is the slow part.
    const keys = [makeKey(), makeKey(), makeKey()] as const;
    const pki = (name: string): TestCertificate => ({
      certPem: readFileSync(join(dataDir, "pki", `${name}.crt`), "utf8"),
      keyPem: readFileSync(join(dataDir, "pki", `${name}.key`), "utf8"),
    });
    const materials: CertificateMaterials = {
      clusterCa: pki("ca"),
      serving: pki("apiserver"),
      keys,
    };

    const cases: { credential: BadCredential; request: { method: string; path: string } }[] = [];
    for (let i = 0; i < credentialCount; i++) {
      const kind = random.int(10);
      const credential =
        kind < 6
          ? badBearerToken(random, adminToken)
          : kind < 9
            ? badCertificate(random, materials)
            : withToken(badCertificate(random, materials), badBearerToken(random, adminToken));
      const request =
        random.int(3) === 0
          ? { method: "GET", path: healthPaths[random.int(healthPaths.length)] ?? "/healthz" }
          : (protectedRequests[random.int(protectedRequests.length)] ?? {
              method: "GET",
              path: "/apis",
            });
      cases.push({ credential, request });
    }

    const tally = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const c = cases[next++];
        if (c === undefined) return;
        const outcome = await send(c.request, c.credential);
        const label = `${c.credential.kind} -> ${outcome.kind === "response" ? outcome.status : "client refused"}`;
        tally.set(label, (tally.get(label) ?? 0) + 1);
        const problem = judge(c.credential, c.request.path, outcome);
        if (problem !== undefined) {
          failures.push(
            `${c.credential.kind} ${JSON.stringify(c.credential.authorization)} on ${c.request.method} ${c.request.path}: ${problem}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    for (const [label, count] of [...tally].sort()) t.diagnostic(`${count} x ${label}`);
    assert.deepEqual(
      failures.slice(0, 10),
      [],
      `seed ${seed} (GANTRY_FUZZ_SEED=${seed} reproduces it): ${failures.length} of ${cases.length} bad credentials were let through`,
    );

    // Nothing the bad credentials sent was written.
    const admin = await send(
      { method: "GET", path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/pwned" },
      {
        kind: "admin",
        authorization: [`Bearer ${adminToken}`],
      },
    );
    assert.equal(admin.kind === "response" ? admin.status : 0, 404, "no binding was created");
  });
});

/** A bad certificate that also carries a bad bearer token. */
function withToken(certificate: BadCredential, token: BadCredential): BadCredential {
  return {
    ...certificate,
    kind: `${certificate.kind}, with a bad bearer token`,
    authorization: token.authorization,
    ...(token.parserMayReject === true ? { parserMayReject: true } : {}),
  };
}
