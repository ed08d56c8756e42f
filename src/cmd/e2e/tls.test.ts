import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { loadKubeconfig } from "../../client/index.ts";
import {
  type GantryProcess,
  kubectl,
  requestGantry,
  runGantry,
  startGantry,
} from "../../testing/index.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { ensurePki } from "../tls.ts";

const unauthorizedStatus = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "Unauthorized",
  reason: "Unauthorized",
  code: 401,
};

describe("gantry up --tls", () => {
  let gantry: GantryProcess;
  let otherCa: string;
  const scratch = mkdtempSync(join(tmpdir(), "gantry-tls-e2e-"));

  before(async () => {
    gantry = await startGantry({ tls: true, storage: "memory" });
    const pki = await ensurePki({
      dir: join(scratch, "other-pki"),
      hosts: [],
      now: new Date(),
      progress: () => undefined,
    });
    otherCa = pki.caCertPem;
  });
  after(async () => {
    await gantry[Symbol.asyncDispose]();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  /** A copy of the generated kubeconfig with one line replaced. */
  const kubeconfigWith = (name: string, pattern: RegExp, replacement: string): string => {
    const path = join(scratch, name);
    writeFileSync(path, readFileSync(gantry.kubeconfig, "utf8").replace(pattern, replacement));
    return path;
  };

  test("kubeconfig: https server, the CA's data and the admin's client certificate, no insecure flag", () => {
    const text = readFileSync(gantry.kubeconfig, "utf8");
    assert.match(gantry.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.doesNotMatch(text, /insecure-skip-tls-verify/);
    assert.doesNotMatch(text, /token:/);
    const ca = readFileSync(join(gantry.dataDir, "pki", "ca.crt"), "utf8");
    assert.equal(gantry.caPem, ca);
    const config = loadKubeconfig(text);
    const cert = Buffer.from(config.clientCertificateData ?? "", "base64").toString();
    assert.equal(cert, readFileSync(join(gantry.dataDir, "pki", "admin.crt"), "utf8"));
    assert.deepEqual(
      new X509Certificate(cert).toLegacyObject().subject,
      Object.assign(Object.create(null), { O: "system:masters", CN: "kubernetes-admin" }),
    );
    assert.equal(
      gantry.token,
      readFileSync(join(gantry.dataDir, "pki", "admin.token"), "utf8").trim(),
    );
  });

  test("kubectl 1.33 auth whoami: the certificate's kubernetes-admin in system:masters", async () => {
    const result = await kubectl(gantry, "1.33", ["auth", "whoami"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Username\s+kubernetes-admin\n/);
    assert.match(result.stdout, /Groups\s+\[system:masters system:authenticated\]/);
  });

  // kubectl 1.27's whoami asks authentication.k8s.io/v1beta1, which gantry does not serve.
  test("kubectl 1.27 with the certificate kubeconfig may do anything (system:masters)", async () => {
    const result = await kubectl(gantry, "1.27", ["auth", "can-i", "*", "*"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "yes");
  });

  test("requestGantry: the admin bearer token still works (the in-process components use it)", async () => {
    const res = await requestGantry(`${gantry.url}/api/v1/namespaces/default`, {
      ...(gantry.caPem === undefined ? {} : { caPem: gantry.caPem }),
      token: gantry.token,
    });
    assert.equal(res.status, 200, res.body);
  });

  test("kubectl 1.33 lists namespaces with the generated kubeconfig", async () => {
    const result = await kubectl(gantry, "1.33", ["get", "ns", "-o", "name"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^namespace\/default$/m);
  });

  const refused = [
    { name: "an API path without a token", path: "/api/v1/namespaces", token: undefined },
    { name: "/version without a token", path: "/version", token: undefined },
    { name: "discovery with a wrong token", path: "/apis", token: "wrong" },
    { name: "/healthz with a wrong token", path: "/healthz", token: "wrong" },
  ] as const;
  for (const c of refused) {
    test(`requestGantry: ${c.name} gets the 401 Status`, async () => {
      const res = await requestGantry(`${gantry.url}${c.path}`, {
        ...(gantry.caPem === undefined ? {} : { caPem: gantry.caPem }),
        ...(c.token === undefined ? {} : { token: c.token }),
      });
      assert.deepEqual(
        { status: res.status, type: res.headers["content-type"], body: JSON.parse(res.body) },
        { status: 401, type: "application/json", body: unauthorizedStatus },
      );
    });
  }

  for (const path of ["/readyz", "/livez", "/healthz"]) {
    test(`requestGantry: ${path} answers ok without a token (anonymous health checks)`, async () => {
      const res = await requestGantry(`${gantry.url}${path}`, {
        ...(gantry.caPem === undefined ? {} : { caPem: gantry.caPem }),
      });
      assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: "ok" });
    });
  }

  test("kubectl 1.33 with a wrong token prints the upstream login error", async () => {
    const kubeconfig = kubeconfigWith(
      "wrong-token",
      /client-certificate-data: .*\n\s*client-key-data: .*/,
      "token: not-the-token",
    );
    const result = await kubectl({ kubeconfig, dataDir: scratch }, "1.33", ["get", "ns"]);
    assert.notEqual(result.code, 0);
    // Discovery fails first; client-go words a 401 there as against kube-apiserver.
    assert.match(
      result.stderr,
      /^error: You must be logged in to the server \(the server has asked for the client to provide credentials\)$/m,
    );
  });

  test("requestGantry: another CA fails the TLS handshake", async () => {
    await assert.rejects(
      requestGantry(`${gantry.url}/readyz`, { caPem: otherCa, token: gantry.token }),
      (error: unknown) => {
        assert.ok(error instanceof Error, "error instanceof Error");
        assert.match(String((error as { code?: unknown }).code), /UNABLE_TO_VERIFY|SELF_SIGNED/);
        return true;
      },
    );
  });

  test("kubectl 1.33 with another CA fails certificate verification", async () => {
    const kubeconfig = kubeconfigWith(
      "other-ca",
      /certificate-authority-data: .*/,
      `certificate-authority-data: ${Buffer.from(otherCa).toString("base64")}`,
    );
    const result = await kubectl({ kubeconfig, dataDir: scratch }, "1.33", ["get", "ns"]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /x509: certificate signed by unknown authority/);
  });

  test("restart: the same CA and token are reused, so an old kubeconfig keeps working", async () => {
    const port = Number(new URL(gantry.url).port);
    const oldKubeconfig = kubeconfigWith("before-restart", /$^/, "");
    await gantry.stop();
    gantry = await startGantry({ tls: true, storage: "memory", dataDir: gantry.dataDir, port });
    assert.equal(readFileSync(gantry.kubeconfig, "utf8"), readFileSync(oldKubeconfig, "utf8"));
    const result = await kubectl({ kubeconfig: oldKubeconfig, dataDir: scratch }, "1.33", [
      "get",
      "ns",
      "default",
      "-o",
      "name",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "namespace/default");
  });
});

describe("gantry up refusals", () => {
  const refusals = [
    {
      name: "a non-loopback --address without --tls",
      args: ["--address", "0.0.0.0"],
      message:
        /^gantry: Cannot serve plain http on 0\.0\.0\.0: plain http is allowed only on a loopback address .*Add --tls /m,
    },
    {
      name: "--tls-san without --tls",
      args: ["--tls-san", "gantry.example.com"],
      message: /^gantry: Cannot use --tls-san without --tls/m,
    },
    {
      name: "a negative --max-requests-inflight",
      args: ["--max-requests-inflight=-1"],
      message:
        /^gantry: Cannot use --max-requests-inflight "-1": give a whole number, 0 for no limit/m,
    },
    {
      name: "an unknown option",
      args: ["--bogus"],
      message: /^gantry: Unknown option '--bogus'/m,
    },
  ] as const;
  for (const c of refusals) {
    test(`gantry up: ${c.name} exits 2 with a message and no stack trace`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "gantry-refusal-"));
      try {
        const run = await runGantry(["up", "--data-dir", dataDir, "--port", "0", ...c.args]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, c.message);
        assert.doesNotMatch(run.stderr, /^\s+at /m);
        assert.equal(run.stdout, "");
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
