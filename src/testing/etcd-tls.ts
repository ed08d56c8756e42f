/**
 * Certificates for a test etcd served over TLS with client-certificate authentication: a CA, a
 * serving certificate for the loopback names, and a client certificate, written as PEM files
 * (etcd and `gantry apiserver --etcd-*file` read files).
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import forge from "node-forge";
import { makeCa, makeCertificate, makeKey, type TestCertificate } from "./certificates.ts";

/** The PEM files of a TLS etcd, and their contents. */
export interface EtcdTlsFiles {
  /** The CA that signed both certificates (etcd's `--trusted-ca-file`, gantry's `--etcd-cafile`). */
  readonly caFile: string;
  /** A client certificate etcd accepts (`--etcd-certfile`) and its key (`--etcd-keyfile`). */
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** etcd's serving certificate (`--cert-file`) and key (`--key-file`). */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly ca: TestCertificate;
  readonly client: TestCertificate;
}

/**
 * Writes a fresh CA, a serving certificate for 127.0.0.1, ::1 and localhost (server and client
 * usage: etcd 3.4's gateway dials its own client URL with it), and a client certificate
 * (CN `gantry-apiserver`) into `dir`.
 */
export async function writeEtcdTlsFiles(dir: string): Promise<EtcdTlsFiles> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const ca = makeCa("gantry-test-etcd-ca");
  const server = makeServingCertificate(ca);
  const client = makeCertificate({ commonName: "gantry-apiserver", issuer: ca });
  const files = {
    caFile: join(dir, "ca.crt"),
    clientCertFile: join(dir, "client.crt"),
    clientKeyFile: join(dir, "client.key"),
    serverCertFile: join(dir, "server.crt"),
    serverKeyFile: join(dir, "server.key"),
  };
  await writeFile(files.caFile, ca.certPem);
  await writeFile(files.clientCertFile, client.certPem);
  await writeFile(files.clientKeyFile, client.keyPem, { mode: 0o600 });
  await writeFile(files.serverCertFile, server.certPem);
  await writeFile(files.serverKeyFile, server.keyPem, { mode: 0o600 });
  return { ...files, ca, client };
}

/** A certificate `issuer` signs for the loopback names, usable to serve and to dial. */
function makeServingCertificate(issuer: TestCertificate): TestCertificate {
  const key = makeKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  const serial = randomBytes(12);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  cert.serialNumber = serial.toString("hex");
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + 24 * 60 * 60 * 1000);
  cert.setSubject([{ name: "commonName", value: "etcd" }]);
  cert.setIssuer(forge.pki.certificateFromPem(issuer.certPem).subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", critical: true, digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true, clientAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 2, value: "localhost" },
        { type: 7, ip: "127.0.0.1" },
        { type: 7, ip: "::1" },
      ],
    },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(issuer.keyPem), forge.md.sha256.create());
  return {
    certPem: forge.pki.certificateToPem(cert).replace(/\r\n/g, "\n"),
    keyPem: key.privatePem,
  };
}
