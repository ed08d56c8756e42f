import assert from "node:assert/strict";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ensureServiceAccountKey } from "./service-account-key.ts";

function scratch(): { dir: string; [Symbol.dispose](): void } {
  const dir = mkdtempSync(join(tmpdir(), "gantry-sa-key-"));
  return { dir, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

test("ensureServiceAccountKey: first start makes sa.key (PKCS#1, 0600) and sa.pub; later starts reuse them", async () => {
  using tmp = scratch();
  const pki = join(tmp.dir, "pki");
  const lines: string[] = [];
  const first = await ensureServiceAccountKey({ dir: pki, progress: (line) => lines.push(line) });
  assert.equal(first.alg, "RS256");
  assert.equal(lines.length, 1);
  const keyPem = readFileSync(join(pki, "sa.key"), "utf8");
  assert.match(keyPem, /^-----BEGIN RSA PRIVATE KEY-----/);
  assert.equal(statSync(join(pki, "sa.key")).mode & 0o777, 0o600);
  const pubPem = readFileSync(join(pki, "sa.pub"), "utf8");
  assert.match(pubPem, /^-----BEGIN PUBLIC KEY-----/);
  assert.equal(createPublicKey(pubPem).export({ format: "jwk" }).n, first.jwk["n"]);

  const again = await ensureServiceAccountKey({ dir: pki, progress: (line) => lines.push(line) });
  assert.equal(again.kid, first.kid, "the same key");
  assert.equal(lines.length, 1, "nothing generated the second time");
});

test("ensureServiceAccountKey: a missing or stale sa.pub is rewritten from sa.key", async () => {
  using tmp = scratch();
  const key = await ensureServiceAccountKey({ dir: tmp.dir, progress: () => undefined });
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
  writeFileSync(join(tmp.dir, "sa.pub"), other.export({ format: "pem", type: "spki" }));
  await ensureServiceAccountKey({ dir: tmp.dir, progress: () => undefined });
  const pub = createPublicKey(readFileSync(join(tmp.dir, "sa.pub"), "utf8"));
  assert.equal(pub.export({ format: "jwk" }).n, key.jwk["n"]);
});

test("ensureServiceAccountKey: a signing key file (ECDSA P-256) is used as is; a bad one is named", async () => {
  using tmp = scratch();
  const file = join(tmp.dir, "signing.pem");
  writeFileSync(
    file,
    generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
      format: "pem",
      type: "pkcs8",
    }),
  );
  const key = await ensureServiceAccountKey({
    dir: join(tmp.dir, "pki"),
    signingKeyFile: file,
    progress: () => undefined,
  });
  assert.equal(key.alg, "ES256");
  writeFileSync(file, "not a key");
  await assert.rejects(
    ensureServiceAccountKey({ dir: tmp.dir, signingKeyFile: file, progress: () => undefined }),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message.startsWith(`Cannot use ${file} as the service account signing key: `),
  );
  writeFileSync(
    file,
    generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }),
  );
  await assert.rejects(
    ensureServiceAccountKey({ dir: tmp.dir, signingKeyFile: file, progress: () => undefined }),
    {
      name: "TypeError",
      message: `Cannot use ${file} as the service account signing key: Cannot sign with a ed25519 key: use an RSA or ECDSA key`,
    },
  );
});
