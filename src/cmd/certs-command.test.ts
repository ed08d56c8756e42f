import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verifyClientCertificate } from "../apiserver/index.ts";
import { loadKubeconfig } from "../client/index.ts";
import { runGantry } from "../testing/index.ts";
import { ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { certsUsage, runCertsCommand } from "./certs-command.ts";
import { renderKubeconfig } from "./kubeconfig.ts";
import { ensurePki } from "./tls.ts";

ensureNoLeaksInEachTest();

/** Runs the command in this process, collecting what it prints. */
async function certs(args: readonly string[]) {
  let out = "";
  let err = "";
  const code = await runCertsCommand(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

const decode = (data: string | undefined): string => Buffer.from(data ?? "", "base64").toString();

describe("gantry certs issue", () => {
  const scratch = mkdtempSync(join(tmpdir(), "gantry-certs-"));
  const dataDir = join(scratch, "cluster");
  const server = "https://127.0.0.1:16443";
  let caPem = "";

  before(async () => {
    const pki = await ensurePki({
      dir: join(dataDir, "pki"),
      hosts: [],
      now: new Date(),
      progress: () => undefined,
    });
    caPem = pki.caCertPem;
    writeFileSync(
      join(dataDir, "kubeconfig"),
      renderKubeconfig({ server, caData: Buffer.from(caPem).toString("base64"), token: "t" }),
    );
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test("--help prints the usage (exit 0)", async () => {
    assert.deepEqual(await certs(["issue", "--help"]), { code: 0, out: certsUsage, err: "" });
  });

  test("prints a kubeconfig for the user: the cluster's server and CA, a certificate the API server accepts", async () => {
    const run = await certs([
      "issue",
      "--user",
      "alice",
      "--group",
      "team-a",
      "--group",
      "readers",
      "--data-dir",
      dataDir,
    ]);
    assert.equal(run.code, 0, run.err);
    assert.match(
      run.err,
      /^Generating an RSA 2048 key and a client certificate for user "alice" in groups "team-a", "readers", valid 365 days \(until \d{4}-.*Z\)\n$/,
    );
    const config = loadKubeconfig(run.out);
    assert.equal(config.server, server);
    assert.equal(decode(config.certificateAuthorityData), caPem);
    assert.equal(config.token, undefined);
    assert.match(run.out, /^current-context: alice@gantry$/m);
    const cert = new X509Certificate(decode(config.clientCertificateData));
    assert.ok(
      cert.checkPrivateKey(createPrivateKey(decode(config.clientKeyData))),
      "the key belongs to the certificate",
    );
    assert.deepEqual(verifyClientCertificate([cert], [new X509Certificate(caPem)], new Date()), {
      kind: "user",
      user: { username: "alice", groups: ["team-a", "readers", "system:authenticated"] },
    });
  });

  test("--out writes the kubeconfig (mode 0600) and prints its path; --days sets the validity", async () => {
    const out = join(scratch, "node.kubeconfig");
    const run = await certs([
      "issue",
      "--user=system:node:worker-1",
      "--group=system:nodes",
      "--days=7",
      `--data-dir=${dataDir}`,
      `--out=${out}`,
    ]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, `kubeconfig: ${out}\n`);
    assert.match(run.err, /valid 7 days/);
    assert.match(
      run.err,
      /Wrote the kubeconfig of user "system:node:worker-1" in group "system:nodes" to /,
    );
    assert.equal(statSync(out).mode & 0o777, 0o600);
    const cert = new X509Certificate(
      decode(loadKubeconfig(readFileSync(out, "utf8")).clientCertificateData),
    );
    const days = (new Date(cert.validTo).getTime() - Date.now()) / (24 * 60 * 60 * 1000);
    assert.ok(days > 6.9 && days <= 7, `valid for ${days} days`);
  });

  const usageErrors: { name: string; args: string[]; message: string }[] = [
    { name: "no subcommand", args: [], message: "Missing a subcommand: issue" },
    {
      name: "an unknown subcommand",
      args: ["renew"],
      message: 'Unknown subcommand "renew": use issue',
    },
    {
      name: "no --user",
      args: ["issue", "--group", "team-a"],
      message: "Missing --user: the certificate names one user (its CN)",
    },
    { name: "an empty --user", args: ["issue", "--user="], message: "Cannot use an empty --user" },
    {
      name: "a group with a newline",
      args: ["issue", "--user", "alice", "--group", "a\nb"],
      message: 'Cannot use --group "a\\nb": it contains control characters',
    },
    {
      name: "--days 0",
      args: ["issue", "--user", "alice", "--days", "0"],
      message: 'Cannot use --days "0": give a whole number of days, 1 or more',
    },
    {
      name: "--days 1.5",
      args: ["issue", "--user", "alice", "--days", "1.5"],
      message: 'Cannot use --days "1.5": give a whole number of days, 1 or more',
    },
    {
      name: "an unknown option",
      args: ["issue", "--user", "alice", "--org", "x"],
      message: "Unknown option '--org'",
    },
  ];
  for (const c of usageErrors) {
    test(`usage error (exit 2): ${c.name}`, async () => {
      const run = await certs(c.args);
      assert.equal(run.code, 2);
      assert.equal(run.out, "");
      assert.equal(run.err.split("\n")[0]?.startsWith(`gantry certs: ${c.message}`), true, run.err);
      assert.match(run.err, /\nRun 'gantry certs --help' for usage\.\n$/);
    });
  }

  test("usage error (exit 2): a validity beyond the CA's end", async () => {
    const run = await certs(["issue", "--user", "alice", "--days", "4000", "--data-dir", dataDir]);
    assert.equal(run.code, 2);
    assert.match(
      run.err,
      /^gantry certs: Cannot issue a certificate valid 4000 days: the cluster CA ends on \d{4}-.*Z, in 36(49|50) days\n/,
    );
  });

  test("no CA yet (exit 1): says to start the cluster with --tls first", async () => {
    const empty = join(scratch, "empty");
    const run = await certs(["issue", "--user", "alice", "--data-dir", empty]);
    assert.equal(run.code, 1);
    assert.equal(
      run.err,
      `gantry certs: Cannot issue a certificate: there is no cluster CA in ${join(empty, "pki")}. Start the cluster with \`gantry up --tls --data-dir ${empty}\` (or \`gantry apiserver --tls\`) first, or point --data-dir at its data dir\n`,
    );
  });

  test("a plain-http cluster (exit 1): client certificates need --tls", async () => {
    const plain = join(scratch, "plain");
    await ensurePki({
      dir: join(plain, "pki"),
      hosts: [],
      now: new Date(),
      progress: () => undefined,
    });
    writeFileSync(
      join(plain, "kubeconfig"),
      renderKubeconfig({ server: "http://127.0.0.1:6443", token: "t" }),
    );
    const run = await certs(["issue", "--user", "alice", "--data-dir", plain]);
    assert.equal(run.code, 1);
    assert.equal(
      run.err,
      "gantry certs: Cannot issue a certificate for http://127.0.0.1:6443: the cluster serves plain http, where clients send no certificates. Restart it with --tls\n",
    );
  });

  test("the real binary: gantry certs issue --help", async () => {
    const run = await runGantry(["certs", "issue", "--help"]);
    assert.deepEqual(run, { code: 0, stdout: certsUsage, stderr: "" });
  });
});
