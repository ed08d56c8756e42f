import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verifyClientCertificate } from "../apiserver/index.ts";
import { loadKubeconfig } from "../client/index.ts";
import {
  controlPlaneCredentials,
  ensureClientCertificates,
  issueClientCertificate,
  readCa,
  subjectOf,
  writeCredentialKubeconfigs,
} from "./client-certificates.ts";
import { ensurePki, type KeyPair } from "./tls.ts";

const day = 24 * 60 * 60 * 1000;

describe("client certificates of the cluster CA", () => {
  const scratch = mkdtempSync(join(tmpdir(), "gantry-client-certs-"));
  const dir = join(scratch, "pki");
  let ca: KeyPair;
  const now = new Date();

  before(async () => {
    await ensurePki({ dir, hosts: [], now, progress: () => undefined });
    const read = readCa(dir);
    assert.ok(read !== undefined, "ensurePki wrote a CA");
    ca = read;
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test("issueClientCertificate: CN the user, O each group, clientAuth, valid the given days", async () => {
    const pair = await issueClientCertificate(
      ca,
      { user: "system:node:worker-1", groups: ["system:nodes", "team_a@example"] },
      { now, days: 30 },
    );
    assert.deepEqual(subjectOf(pair.certPem), {
      user: "system:node:worker-1",
      groups: ["system:nodes", "team_a@example"],
    });
    const cert = new X509Certificate(pair.certPem);
    assert.deepEqual(cert.keyUsage, ["1.3.6.1.5.5.7.3.2"]);
    assert.equal(cert.ca, false);
    assert.equal(
      Math.round((new Date(cert.validTo).getTime() - now.getTime()) / day),
      30,
      "valid 30 days",
    );
    assert.ok(
      cert.checkPrivateKey(createPrivateKey(pair.keyPem)),
      "the key matches the certificate",
    );
    const verified = verifyClientCertificate([cert], [new X509Certificate(ca.certPem)], now);
    assert.deepEqual(verified, {
      kind: "user",
      user: {
        username: "system:node:worker-1",
        groups: ["system:nodes", "team_a@example", "system:authenticated"],
      },
    });
  });

  test("ensureClientCertificates: issues each missing one, then reuses them", async () => {
    const lines: string[] = [];
    const first = await ensureClientCertificates({
      dir,
      credentials: controlPlaneCredentials,
      now,
      progress: (line) => lines.push(line),
    });
    assert.deepEqual([...first.keys()], ["admin", "scheduler", "controller-manager", "queueing"]);
    assert.equal(lines.length, 4);
    assert.match(
      lines[0] ?? "",
      /^Generating the client certificate of user "kubernetes-admin" in group "system:masters" \(RSA 2048, valid 1 year\) in .*admin\.crt$/,
    );
    assert.deepEqual(
      controlPlaneCredentials.map((c) => subjectOf(first.get(c.name)?.certPem ?? "")),
      [
        { user: "kubernetes-admin", groups: ["system:masters"] },
        { user: "system:kube-scheduler", groups: [] },
        { user: "system:kube-controller-manager", groups: [] },
        { user: "system:gantry-queueing", groups: [] },
      ],
    );
    assert.equal(statSync(join(dir, "admin.key")).mode & 0o777, 0o600);

    const again: string[] = [];
    const second = await ensureClientCertificates({
      dir,
      credentials: controlPlaneCredentials,
      now,
      progress: (line) => again.push(line),
    });
    assert.deepEqual(again, []);
    assert.equal(second.get("admin")?.certPem, first.get("admin")?.certPem);
  });

  const renewals: { name: string; prepare: () => void; at: () => Date; reason: RegExp }[] = [
    {
      name: "one that ends within 30 days",
      prepare: () => undefined,
      at: () => new Date(now.getTime() + 340 * day),
      reason: /it is expiring at /,
    },
    {
      name: "one for another subject",
      prepare: () => {
        writeFileSync(join(dir, "admin.crt"), readFileSync(join(dir, "scheduler.crt")));
        writeFileSync(join(dir, "admin.key"), readFileSync(join(dir, "scheduler.key")));
      },
      at: () => now,
      reason: /it is for user "system:kube-scheduler"\)$/,
    },
    {
      name: "one whose key is another's",
      prepare: () => {
        writeFileSync(join(dir, "admin.key"), readFileSync(join(dir, "scheduler.key")));
      },
      at: () => now,
      reason: /it is not matching its key\)$/,
    },
    {
      name: "one signed by a CA that was replaced",
      prepare: () => {
        unlinkSync(join(dir, "ca.crt"));
      },
      at: () => now,
      reason: /it is not signed by the current CA\)$/,
    },
  ];
  for (const c of renewals) {
    test(`ensureClientCertificates: replaces ${c.name}`, async () => {
      c.prepare();
      // A replaced CA is generated again by ensurePki, as at start-up.
      await ensurePki({ dir, hosts: [], now: c.at(), progress: () => undefined });
      const lines: string[] = [];
      const admin = [controlPlaneCredentials[0]].filter((x) => x !== undefined);
      const pairs = await ensureClientCertificates({
        dir,
        credentials: admin,
        now: c.at(),
        progress: (line) => lines.push(line),
      });
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(lines[0] ?? "", c.reason);
      const cert = new X509Certificate(pairs.get("admin")?.certPem ?? "");
      const currentCa = new X509Certificate(readFileSync(join(dir, "ca.crt")));
      assert.ok(cert.verify(currentCa.publicKey), "signed by the current CA");
      assert.deepEqual(subjectOf(cert.toString()).user, "kubernetes-admin");
    });
  }

  test("writeCredentialKubeconfigs: server, CA and each credential's certificate, mode 0600", async () => {
    const certificates = await ensureClientCertificates({
      dir,
      credentials: controlPlaneCredentials,
      now,
      progress: () => undefined,
    });
    const caPem = readFileSync(join(dir, "ca.crt"), "utf8");
    const paths = writeCredentialKubeconfigs({
      dataDir: scratch,
      server: "https://127.0.0.1:6443",
      caPem,
      credentials: controlPlaneCredentials,
      certificates,
    });
    assert.deepEqual(
      [...paths.values()],
      [
        "kubeconfig",
        "scheduler.kubeconfig",
        "controller-manager.kubeconfig",
        "queueing.kubeconfig",
      ].map((name) => join(scratch, name)),
    );
    const scheduler = join(scratch, "scheduler.kubeconfig");
    assert.equal(statSync(scheduler).mode & 0o777, 0o600);
    const config = loadKubeconfig(readFileSync(scheduler, "utf8"));
    const decode = (data: string | undefined) => Buffer.from(data ?? "", "base64").toString();
    assert.equal(config.server, "https://127.0.0.1:6443");
    assert.equal(decode(config.certificateAuthorityData), caPem);
    assert.equal(decode(config.clientCertificateData), certificates.get("scheduler")?.certPem);
    assert.equal(decode(config.clientKeyData), certificates.get("scheduler")?.keyPem);
    assert.equal(config.token, undefined);
  });
});
