import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { makeCa, makeCertificate } from "../testing/certificates.ts";
import { apiServerSettings } from "./apiserver-flags.ts";
import { etcdSettings } from "./etcd-flags.ts";
import { UsageError } from "./usage-error.ts";

const dir = mkdtempSync(join(tmpdir(), "gantry-etcd-flags-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const ca = makeCa("etcd-ca");
const client = makeCertificate({ commonName: "gantry-apiserver", issuer: ca });
const stranger = makeCertificate({ commonName: "someone-else", issuer: ca });
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const caFile = file("ca.crt", ca.certPem);
const certFile = file("client.crt", client.certPem);
const keyFile = file("client.key", client.keyPem);
const otherKeyFile = file("other.key", stranger.keyPem);
const notPem = file("notes.txt", "hello\n");
const missing = join(dir, "missing.crt");
const https = "https://127.0.0.1:2379";

test("etcdSettings: https endpoints with a CA, a client certificate and its key read every file", () => {
  assert.deepEqual(
    etcdSettings("etcd", {
      "etcd-endpoints": `${https}, https://127.0.0.1:2380`,
      "etcd-prefix": "/one",
      "etcd-cafile": caFile,
      "etcd-certfile": certFile,
      "etcd-keyfile": keyFile,
    }),
    {
      endpoints: [https, "https://127.0.0.1:2380"],
      prefix: "/one",
      tls: { caPem: ca.certPem, certPem: client.certPem, keyPem: client.keyPem },
    },
  );
});

test("etcdSettings: a CA alone is enough (etcd without client-cert-auth)", () => {
  assert.deepEqual(etcdSettings("etcd", { "etcd-endpoints": https, "etcd-cafile": caFile }), {
    endpoints: [https],
    tls: { caPem: ca.certPem },
  });
});

test("etcdSettings: a client certificate without a CA trusts the default roots", () => {
  assert.deepEqual(
    etcdSettings("etcd", {
      "etcd-endpoints": https,
      "etcd-certfile": certFile,
      "etcd-keyfile": keyFile,
    }),
    { endpoints: [https], tls: { certPem: client.certPem, keyPem: client.keyPem } },
  );
});

test("etcdSettings: https endpoints without TLS flags need no files; other stores get none", () => {
  assert.deepEqual(etcdSettings("etcd", { "etcd-endpoints": https }), { endpoints: [https] });
  assert.equal(etcdSettings("sqlite", {}), undefined);
});

test("apiServerSettings: the etcd TLS flags reach the settings of gantry up and gantry apiserver", () => {
  const settings = apiServerSettings({
    storage: "etcd",
    "etcd-endpoints": https,
    "etcd-cafile": caFile,
  });
  assert.deepEqual(settings.etcd, { endpoints: [https], tls: { caPem: ca.certPem } });
});

const refusals = [
  {
    name: "a CA file without --storage etcd",
    storage: "sqlite",
    values: { "etcd-cafile": caFile },
    want: "Cannot use --etcd-cafile without --storage etcd: it secures the connection to etcd",
  },
  {
    name: "a client certificate without --storage etcd",
    storage: "memory",
    values: { "etcd-certfile": certFile, "etcd-keyfile": keyFile },
    want: "Cannot use --etcd-certfile without --storage etcd: it secures the connection to etcd",
  },
  {
    name: "endpoints without --storage etcd",
    storage: "sqlite",
    values: { "etcd-endpoints": https },
    want: "Cannot use --etcd-endpoints or --etcd-prefix without --storage etcd",
  },
  {
    name: "etcd without endpoints",
    storage: "etcd",
    values: { "etcd-cafile": caFile },
    want: "Cannot use --storage etcd without --etcd-endpoints: give the members' client URLs, such as http://127.0.0.1:2379",
  },
  {
    name: "a CA file with an http endpoint",
    storage: "etcd",
    values: { "etcd-endpoints": `${https},http://127.0.0.1:2380`, "etcd-cafile": caFile },
    want: 'Cannot use --etcd-cafile with the etcd endpoint "http://127.0.0.1:2380": TLS needs https:// endpoints',
  },
  {
    name: "a key file with an http endpoint",
    storage: "etcd",
    values: { "etcd-endpoints": "http://127.0.0.1:2379", "etcd-keyfile": keyFile },
    want: 'Cannot use --etcd-keyfile with the etcd endpoint "http://127.0.0.1:2379": TLS needs https:// endpoints',
  },
  {
    name: "a certificate without its key",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-certfile": certFile },
    want: "Cannot use --etcd-certfile without --etcd-keyfile: give its private key",
  },
  {
    name: "a key without its certificate",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-keyfile": keyFile },
    want: "Cannot use --etcd-keyfile without --etcd-certfile: give the certificate it belongs to",
  },
  {
    name: "a CA file that does not exist",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-cafile": missing },
    want: `Cannot read --etcd-cafile "${missing}": ENOENT: no such file or directory, open '${missing}'`,
  },
  {
    name: "a CA file without a certificate",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-cafile": notPem },
    want: `Cannot use --etcd-cafile "${notPem}": it holds no PEM certificate`,
  },
  {
    name: "a certificate file without a certificate",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-certfile": notPem, "etcd-keyfile": keyFile },
    want: `Cannot use --etcd-certfile "${notPem}": it holds no PEM certificate`,
  },
  {
    name: "a key file that does not exist",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-certfile": certFile, "etcd-keyfile": missing },
    want: `Cannot read --etcd-keyfile "${missing}": ENOENT: no such file or directory, open '${missing}'`,
  },
  {
    name: "a key of another certificate",
    storage: "etcd",
    values: { "etcd-endpoints": https, "etcd-certfile": certFile, "etcd-keyfile": otherKeyFile },
    want: `Cannot use --etcd-keyfile "${otherKeyFile}": it is not the key of --etcd-certfile "${certFile}"`,
  },
] as const;

for (const c of refusals) {
  test(`etcdSettings: ${c.name} is a usage error naming the flag`, () => {
    assert.throws(
      () => etcdSettings(c.storage, c.values),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
        assert.equal(error.message, c.want);
        return true;
      },
    );
  });
}

test("etcdSettings: a key file that is no key is a usage error naming it", () => {
  assert.throws(
    () =>
      etcdSettings("etcd", {
        "etcd-endpoints": https,
        "etcd-certfile": certFile,
        "etcd-keyfile": notPem,
      }),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
      assert.match(error.message, new RegExp(`^Cannot use --etcd-keyfile "${notPem}": `));
      return true;
    },
  );
});
