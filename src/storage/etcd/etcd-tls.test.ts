import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { makeCa, makeCertificate } from "../../testing/certificates.ts";
import { type EtcdCluster, startEtcd } from "../../testing/etcd.ts";
import { ensureNoLeaksAfterSuite } from "../../testing/leak-check.ts";
import { storageConformance } from "../conformance.ts";
import { expectStorageError } from "../conformance-helpers.ts";
import type { StorageError } from "../storage.ts";
import { type EtcdTlsCredentials, openEtcdStorage } from "./etcd-storage.ts";

describe("etcd storage over TLS with client-certificate authentication", () => {
  let cluster: EtcdCluster | undefined;
  let stores = 0;
  before(async () => {
    cluster = await startEtcd({ members: 1, tls: true });
  });
  after(async () => {
    await cluster?.close();
  });
  ensureNoLeaksAfterSuite();

  const started = (): EtcdCluster & { tls: NonNullable<EtcdCluster["tls"]> } => {
    if (cluster?.tls === undefined) throw new Error("etcd did not start with TLS");
    return cluster as EtcdCluster & { tls: NonNullable<EtcdCluster["tls"]> };
  };
  const credentials = (): EtcdTlsCredentials => {
    const { tls } = started();
    return { caPem: tls.ca.certPem, certPem: tls.client.certPem, keyPem: tls.client.keyPem };
  };

  // Every test gets its own prefix on the suite's etcd, so stores are independent.
  storageConformance("etcd (1 member, TLS, client-cert-auth)", async () => {
    stores++;
    return openEtcdStorage({
      endpoints: started().endpoints,
      tls: credentials(),
      prefix: `/conformance-tls-${process.pid}-${stores}`,
      requestTimeoutMs: 5000,
    });
  });

  test("openEtcdStorage: https endpoints are what the test etcd serves", () => {
    assert.match(started().endpoints[0] ?? "", /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  const refusals = [
    {
      name: "a CA that did not sign the members' certificates",
      tls: (): EtcdTlsCredentials => ({ ...credentials(), caPem: makeCa("another-ca").certPem }),
      reason: /unable to verify|self[- ]signed|certificate/i,
    },
    {
      name: "no client certificate",
      tls: (): EtcdTlsCredentials => ({ caPem: credentials().caPem ?? "" }),
      reason: /certificate|alert|handshake/i,
    },
    {
      name: "a client certificate from another CA",
      tls: (): EtcdTlsCredentials => {
        const other = makeCa("stranger-ca");
        const client = makeCertificate({ commonName: "gantry-apiserver", issuer: other });
        return { caPem: credentials().caPem ?? "", certPem: client.certPem, keyPem: client.keyPem };
      },
      reason: /certificate|alert|handshake/i,
    },
  ] as const;

  for (const c of refusals) {
    test(`openEtcdStorage: ${c.name} fails within the dial timeout with a TLS error`, {
      timeout: 30_000,
    }, async () => {
      await assert.rejects(
        openEtcdStorage({ endpoints: started().endpoints, tls: c.tls(), dialTimeoutMs: 2000 }),
        (error: unknown) => {
          expectStorageError("Unavailable")(error);
          const message = (error as StorageError).message;
          assert.match(message, /no etcd member completed a TLS handshake within 2000 ms/);
          assert.match(message, c.reason);
          assert.match(message, /trusted CA signed the members' serving certificates/);
          return true;
        },
      );
    });
  }

  test("openEtcdStorage: https without credentials verifies against Node's roots, which lack the test CA", {
    timeout: 30_000,
  }, async () => {
    await assert.rejects(
      openEtcdStorage({ endpoints: started().endpoints, dialTimeoutMs: 1000 }),
      (error: unknown) => {
        expectStorageError("Unavailable")(error);
        assert.match((error as StorageError).message, /TLS handshake/);
        return true;
      },
    );
  });
});

const badOptions = [
  {
    name: "TLS credentials with an http endpoint",
    endpoints: ["https://127.0.0.1:1", "http://127.0.0.1:2"],
    tls: { caPem: makeCa("ca").certPem },
    want: 'Cannot use TLS credentials with etcd endpoint "http://127.0.0.1:2": give https:// endpoints',
  },
  {
    name: "a client certificate without its key",
    endpoints: ["https://127.0.0.1:1"],
    tls: { certPem: "x" },
    want: "Cannot use an etcd client certificate without its key, or a key without its certificate",
  },
  {
    name: "a key that is not the certificate's",
    endpoints: ["https://127.0.0.1:1"],
    tls: {
      certPem: makeCertificate({ commonName: "a" }).certPem,
      keyPem: makeCertificate({ commonName: "b" }).keyPem,
    },
    want: /^Cannot use the etcd TLS credentials: .*key values mismatch/,
  },
  {
    name: "a CA file that holds no certificate",
    endpoints: ["https://127.0.0.1:1"],
    tls: { caPem: "not a certificate" },
    want: "Cannot use the etcd TLS credentials: the CA bundle holds no PEM certificate",
  },
] as const;

for (const c of badOptions) {
  test(`openEtcdStorage: ${c.name} is a RangeError before any connection`, async () => {
    await assert.rejects(
      openEtcdStorage({ endpoints: c.endpoints, tls: c.tls, dialTimeoutMs: 1000 }),
      (error: unknown) => {
        assert.ok(error instanceof RangeError, `expected a RangeError, got ${String(error)}`);
        if (typeof c.want === "string") assert.equal(error.message, c.want);
        else assert.match(error.message, c.want);
        return true;
      },
    );
  });
}
