/**
 * Test certificates: CAs and client certificates with any subject, validity, key usage and
 * issuer, good or deliberately broken, for the x509 authenticator's tests.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

/** An RSA key pair in PEM. */
export interface TestKey {
  readonly privatePem: string;
  readonly publicPem: string;
}

/** A certificate and the private key of its subject, in PEM. */
export interface TestCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

/** A fresh RSA 2048 key (about a tenth of a second: reuse keys where the test allows). */
export function makeKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return { privatePem: privateKey, publicPem: publicKey };
}

export interface TestCertificateOptions {
  /** The subject's CN (omitted when undefined) and O values, in order. */
  readonly commonName?: string;
  readonly organizations?: readonly string[];
  /** The subject's key. @default a new one */
  readonly key?: TestKey;
  /** The CA that signs it. @default self-signed */
  readonly issuer?: TestCertificate;
  /** @default an hour ago */
  readonly notBefore?: Date;
  /** @default in a day */
  readonly notAfter?: Date;
  /** A CA certificate (basicConstraints cA, keyCertSign). @default false */
  readonly ca?: boolean;
  /**
   * The extended key usages: `clientAuth`, `serverAuth`, both, or none (no extension).
   * @default ["clientAuth"] for a leaf, none for a CA
   */
  readonly extKeyUsage?: readonly ("clientAuth" | "serverAuth")[];
}

/** A certificate as `options` say, signed by `options.issuer` (or by its own key). */
export function makeCertificate(options: TestCertificateOptions = {}): TestCertificate {
  const key = options.key ?? makeKey();
  const ca = options.ca === true;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  const serial = randomBytes(12);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  cert.serialNumber = serial.toString("hex");
  const now = Date.now();
  cert.validity.notBefore = options.notBefore ?? new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = options.notAfter ?? new Date(now + 24 * 60 * 60 * 1000);
  const subject = [
    ...(options.commonName === undefined
      ? []
      : [{ name: "commonName", value: options.commonName }]),
    ...(options.organizations ?? []).map((value) => ({ name: "organizationName", value })),
  ];
  cert.setSubject(subject.map((attribute) => ({ ...attribute, valueTagClass: utf8String })));
  const issuerCert =
    options.issuer === undefined ? undefined : forge.pki.certificateFromPem(options.issuer.certPem);
  cert.setIssuer(
    issuerCert === undefined ? cert.subject.attributes : issuerCert.subject.attributes,
  );
  const usages = options.extKeyUsage ?? (ca ? [] : ["clientAuth"]);
  cert.setExtensions([
    { name: "basicConstraints", cA: ca, critical: true },
    ca
      ? {
          name: "keyUsage",
          critical: true,
          digitalSignature: true,
          keyCertSign: true,
          cRLSign: true,
        }
      : { name: "keyUsage", critical: true, digitalSignature: true, keyEncipherment: true },
    ...(usages.length === 0
      ? []
      : [
          {
            name: "extKeyUsage",
            clientAuth: usages.includes("clientAuth"),
            serverAuth: usages.includes("serverAuth"),
          },
        ]),
    { name: "subjectKeyIdentifier" },
  ]);
  const signer = options.issuer?.keyPem ?? key.privatePem;
  cert.sign(forge.pki.privateKeyFromPem(signer), forge.md.sha256.create());
  return {
    certPem: forge.pki.certificateToPem(cert).replace(/\r\n/g, "\n"),
    keyPem: key.privatePem,
  };
}

/** A self-signed CA named `name`. */
export function makeCa(name: string, key?: TestKey): TestCertificate {
  return makeCertificate({ commonName: name, ca: true, ...(key === undefined ? {} : { key }) });
}

/** ASN.1 UTF8String (forge's typings call the tag a class), so any name encodes as it is. */
const utf8String = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
