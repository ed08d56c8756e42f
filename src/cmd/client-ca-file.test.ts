import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { makeCa, makeCertificate, makeKey } from "../testing/certificates.ts";
import { requestGantry } from "../testing/index.ts";
import { ensureNoLeaksAfterSuite, ensureNoLeaksInEachTest } from "../testing/leak-check.ts";
import { discardLogger } from "../util/index.ts";
import { type AllInOne, startAllInOne } from "./all-in-one.ts";
import { apiServerSettings } from "./apiserver-flags.ts";

const selfSubjectReview = JSON.stringify({
  apiVersion: "authentication.k8s.io/v1",
  kind: "SelfSubjectReview",
});

describe("--client-ca-file: another CA's client certificates identify users", () => {
  const scratch = mkdtempSync(join(tmpdir(), "gantry-client-ca-"));
  const key = makeKey();
  const corporateCa = makeCa("corporate-ca", key);
  const unlistedCa = makeCa("unlisted-ca", key);
  const bundle = join(scratch, "client-ca.crt");
  writeFileSync(bundle, `${makeCa("another-ca", key).certPem}${corporateCa.certPem}`);
  let plane: AllInOne;
  let caPem = "";

  before(async () => {
    plane = await startAllInOne({
      dataDir: join(scratch, "data"),
      port: 0,
      address: "127.0.0.1",
      storage: "memory",
      logger: discardLogger,
      tls: { sans: [] },
      clientCaFile: bundle,
    });
    caPem = readFileSync(join(scratch, "data", "pki", "ca.crt"), "utf8");
  });
  after(async () => {
    await plane.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  ensureNoLeaksAfterSuite();

  const whoami = (issuer: typeof corporateCa) => {
    const cert = makeCertificate({
      commonName: "carol",
      organizations: ["auditors"],
      key,
      issuer,
    });
    return requestGantry(`${plane.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: "POST",
      body: selfSubjectReview,
      headers: { "Content-Type": "application/json" },
      caPem,
      cert: cert.certPem,
      key: cert.keyPem,
    });
  };

  test("a certificate of a CA in the bundle is its CN and O", async () => {
    const res = await whoami(corporateCa);
    assert.equal(res.status, 201, res.body);
    assert.deepEqual(JSON.parse(res.body).status.userInfo, {
      username: "carol",
      groups: ["auditors", "system:authenticated"],
    });
  });

  test("a certificate of a CA not in the bundle is refused (401)", async () => {
    const res = await whoami(unlistedCa);
    assert.equal(res.status, 401, res.body);
  });
});

describe("--client-ca-file refusals", () => {
  ensureNoLeaksInEachTest();

  test("without --tls it is a usage error", () => {
    assert.throws(() => apiServerSettings({ "client-ca-file": "ca.crt" }), {
      name: "UsageError",
      message:
        "Cannot use --client-ca-file without --tls: client certificates are presented over https",
    });
  });

  const files = [
    {
      name: "a missing file",
      content: undefined,
      message: /^Cannot use --client-ca-file .*: no such file$/,
    },
    {
      name: "a file without certificates",
      content: "not a certificate\n",
      message: /^Cannot use the CA bundle .*: it holds no PEM certificate$/,
    },
  ];
  for (const c of files) {
    test(`${c.name}: start-up fails naming the file`, async () => {
      const scratch = mkdtempSync(join(tmpdir(), "gantry-client-ca-bad-"));
      try {
        const file = join(scratch, "ca.crt");
        if (c.content !== undefined) writeFileSync(file, c.content);
        await assert.rejects(
          startAllInOne({
            dataDir: join(scratch, "data"),
            port: 0,
            address: "127.0.0.1",
            storage: "memory",
            logger: discardLogger,
            tls: { sans: [] },
            clientCaFile: file,
          }),
          { message: c.message },
        );
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  }
});
