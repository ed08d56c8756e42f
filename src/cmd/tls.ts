import { createPrivateKey, generateKeyPair, randomBytes, X509Certificate } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import forge from "node-forge";
import { errorMessage } from "../util/index.ts";

/** The files `gantry up --tls` keeps under `DATA_DIR/pki/`. */
export const pkiFiles = {
  caCert: "ca.crt",
  caKey: "ca.key",
  servingCert: "apiserver.crt",
  servingKey: "apiserver.key",
  adminToken: "admin.token",
} as const;

const day = 24 * 60 * 60 * 1000;
/** The CA lives about ten years, as kubeadm's does. */
const caLifetimeMs = 3650 * day;
/** The serving certificate lives a year, as kubeadm's does. */
const servingLifetimeMs = 365 * day;
/** A certificate this close to its end is replaced at start-up. */
export const renewBeforeMs = 30 * day;
/** Tolerates clocks a little behind ours on machines that use the certificates. */
export const backdateMs = 5 * 60 * 1000;

export interface PkiOptions {
  /** The folder holding the files in `pkiFiles` (created with mode 0700 if missing). */
  readonly dir: string;
  /** Host names and IP addresses the serving certificate must name, beyond `defaultSans`. */
  readonly hosts: readonly string[];
  /** The current time: validity starts from it and expiry is judged against it. */
  readonly now: Date;
  /** Receives one human-readable line per step (key generation takes a moment). */
  readonly progress: (line: string) => void;
}

/** What the server and the kubeconfig need, all PEM text but the token. */
export interface Pki {
  readonly caCertPem: string;
  readonly servingCertPem: string;
  readonly servingKeyPem: string;
  readonly adminToken: string;
}

/** Subject alternative names of a serving certificate, each list sorted and de-duplicated. */
export interface SubjectAltNames {
  readonly dns: readonly string[];
  /** IP addresses in canonical form (IPv6 compressed, lower case). */
  readonly ips: readonly string[];
}

/** Names every serving certificate carries, so local clients can use any loopback form. */
export const defaultSans: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or the name localhost). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) {
    const canonical = canonicalIp(bare);
    return canonical === "::1" || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(canonical);
  }
  return false;
}

/** Whether `address` means "every interface" (0.0.0.0 or ::), which no certificate can name. */
export function isUnspecifiedAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  return bare === "0.0.0.0" || (isIP(bare) === 6 && canonicalIp(bare) === "::");
}

/**
 * The host a kubeconfig should name for a server bound to `address`: the address itself, or
 * for a wildcard bind (0.0.0.0, ::) the first of `sans` (a name other machines reach this one
 * by), else 127.0.0.1.
 */
export function advertisedHost(address: string, sans: readonly string[]): string {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (!isUnspecifiedAddress(bare)) return bare;
  const san = sans.find((name) => name.trim() !== "" && !isUnspecifiedAddress(name.trim()));
  return san?.trim().replace(/^\[(.*)\]$/, "$1") ?? "127.0.0.1";
}

/** The names the serving certificate must carry: the defaults plus `hosts`, minus wildcards. */
export function servingSans(hosts: readonly string[]): SubjectAltNames {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const raw of [...defaultSans, ...hosts]) {
    const host = raw.trim().replace(/^\[(.*)\]$/, "$1");
    if (host === "" || isUnspecifiedAddress(host)) continue;
    if (isIP(host) !== 0) ips.add(canonicalIp(host));
    else dns.add(host.toLowerCase());
  }
  return { dns: [...dns].sort(), ips: [...ips].sort() };
}

/** Reads the subject alternative names of a PEM certificate in `servingSans` form. */
export function certificateSans(certPem: string): SubjectAltNames {
  const dns = new Set<string>();
  const ips = new Set<string>();
  for (const entry of (new X509Certificate(certPem).subjectAltName ?? "").split(", ")) {
    if (entry.startsWith("DNS:")) dns.add(entry.slice("DNS:".length).toLowerCase());
    else if (entry.startsWith("IP Address:"))
      ips.add(canonicalIp(entry.slice("IP Address:".length)));
  }
  return { dns: [...dns].sort(), ips: [...ips].sort() };
}

/**
 * Loads the CA, serving certificate and admin token from `options.dir`, generating what is
 * missing or unusable. Reuse keeps old kubeconfigs working across restarts. The CA is replaced
 * when it is missing, does not match its key, or ends within 30 days; the serving certificate
 * is replaced when the CA changed, its names differ from the wanted ones, it does not match its
 * key, or it ends within 30 days. The token is replaced only when its file is missing or empty.
 */
export async function ensurePki(options: PkiOptions): Promise<Pki> {
  const { dir, now, progress } = options;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = (name: string): string => join(dir, name);

  const storedCa = readPair(path(pkiFiles.caCert), path(pkiFiles.caKey));
  const caProblem = storedCa === undefined ? "missing" : caDefect(storedCa, now);
  let ca: KeyPair;
  if (storedCa === undefined || caProblem !== undefined) {
    progress(`Generating a CA (RSA 2048, valid 10 years) in ${dir}${replacing(caProblem)}`);
    ca = await newCa(now);
    writeSecret(path(pkiFiles.caKey), ca.keyPem);
    writePublic(path(pkiFiles.caCert), ca.certPem);
  } else {
    ca = storedCa;
  }

  const wanted = servingSans(options.hosts);
  const storedServing = readPair(path(pkiFiles.servingCert), path(pkiFiles.servingKey));
  const servingProblem =
    storedServing === undefined
      ? "missing"
      : ca !== storedCa
        ? "signed by the previous CA"
        : servingDefect(storedServing, ca, wanted, now);
  let serving: KeyPair;
  if (storedServing === undefined || servingProblem !== undefined) {
    progress(
      `Generating the serving certificate (RSA 2048, valid 1 year) for ${describeSans(wanted)}${replacing(servingProblem)}`,
    );
    serving = await newServingCertificate(ca, wanted, now);
    writeSecret(path(pkiFiles.servingKey), serving.keyPem);
    writePublic(path(pkiFiles.servingCert), serving.certPem);
  } else {
    serving = storedServing;
  }

  const tokenPath = path(pkiFiles.adminToken);
  let adminToken = existsSync(tokenPath) ? readFileSync(tokenPath, "utf8").trim() : "";
  if (adminToken === "") {
    progress(`Generating the admin bearer token in ${tokenPath}`);
    adminToken = randomBytes(32).toString("base64url");
    writeSecret(tokenPath, `${adminToken}\n`);
  }

  return {
    caCertPem: ca.certPem,
    servingCertPem: serving.certPem,
    servingKeyPem: serving.keyPem,
    adminToken,
  };
}

function replacing(problem: string | undefined): string {
  return problem === undefined || problem === "missing"
    ? ""
    : ` (replacing the existing one: it is ${problem})`;
}

/** A certificate and its private key, in PEM. */
export interface KeyPair {
  readonly certPem: string;
  readonly keyPem: string;
}

/** The pair stored in two files, or undefined when either is missing. */
export function readPair(certPath: string, keyPath: string): KeyPair | undefined {
  if (!existsSync(certPath) || !existsSync(keyPath)) return undefined;
  return { certPem: readFileSync(certPath, "utf8"), keyPem: readFileSync(keyPath, "utf8") };
}

/** Why a stored CA cannot be used, or undefined if it can. */
function caDefect(ca: KeyPair, now: Date): string | undefined {
  const parsed = parse(ca);
  if (typeof parsed === "string") return parsed;
  if (!parsed.cert.ca) return "not a CA certificate";
  return lifetimeDefect(parsed.cert, now);
}

/** Why a stored serving certificate cannot be used with `ca`, or undefined if it can. */
function servingDefect(
  serving: KeyPair,
  ca: KeyPair,
  wanted: SubjectAltNames,
  now: Date,
): string | undefined {
  const parsed = parse(serving);
  if (typeof parsed === "string") return parsed;
  const caCert = new X509Certificate(ca.certPem);
  if (!parsed.cert.checkIssued(caCert) || !parsed.cert.verify(caCert.publicKey)) {
    return "not signed by the current CA";
  }
  const have = certificateSans(serving.certPem);
  if (!sameSans(have, wanted)) return `for other names (${describeSans(have)})`;
  return lifetimeDefect(parsed.cert, now);
}

/** The certificate of a pair that matches its key, or why it cannot be used. */
export function parse(pair: KeyPair): { cert: X509Certificate } | string {
  try {
    const cert = new X509Certificate(pair.certPem);
    if (!cert.checkPrivateKey(createPrivateKey(pair.keyPem))) return "not matching its key";
    return { cert };
  } catch (error: unknown) {
    return `unreadable (${errorMessage(error)})`;
  }
}

/** Why a certificate must be replaced at `now` (ending within 30 days, or not yet valid). */
export function lifetimeDefect(cert: X509Certificate, now: Date): string | undefined {
  const notAfter = new Date(cert.validTo).getTime();
  if (notAfter - now.getTime() < renewBeforeMs) return `expiring at ${cert.validTo}`;
  if (new Date(cert.validFrom).getTime() > now.getTime() + backdateMs) {
    return `not valid before ${cert.validFrom}`;
  }
  return undefined;
}

function sameSans(a: SubjectAltNames, b: SubjectAltNames): boolean {
  return a.dns.join(",") === b.dns.join(",") && a.ips.join(",") === b.ips.join(",");
}

function describeSans(sans: SubjectAltNames): string {
  return [...sans.dns, ...sans.ips].join(", ");
}

/** A new RSA 2048 key pair (PKCS#1 private, SPKI public), generated off the main thread. */
export async function newRsaKey(): Promise<{ privatePem: string; publicPem: string }> {
  return new Promise((resolveKey, reject) => {
    generateKeyPair(
      "rsa",
      {
        modulusLength: 2048,
        publicExponent: 0x10001,
        publicKeyEncoding: { type: "spki", format: "pem" },
        privateKeyEncoding: { type: "pkcs1", format: "pem" },
      },
      (error, publicPem, privatePem) => {
        if (error !== null) reject(error);
        else resolveKey({ privatePem, publicPem });
      },
    );
  });
}

/** A positive serial number of 16 random bytes, minimally encoded as DER requires. */
export function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  return bytes.toString("hex");
}

async function newCa(now: Date): Promise<KeyPair> {
  const key = await newRsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - backdateMs);
  cert.validity.notAfter = new Date(now.getTime() + caLifetimeMs);
  const name = [{ name: "commonName", value: "gantry-ca" }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    {
      name: "keyUsage",
      critical: true,
      digitalSignature: true,
      keyEncipherment: true,
      keyCertSign: true,
      cRLSign: true,
    },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(key.privatePem), forge.md.sha256.create());
  return { certPem: pemOf(cert), keyPem: key.privatePem };
}

async function newServingCertificate(
  ca: KeyPair,
  sans: SubjectAltNames,
  now: Date,
): Promise<KeyPair> {
  return signLeafCertificate(ca, {
    subject: [{ name: "commonName", value: "gantry-apiserver" }],
    usage: { serverAuth: true },
    notBefore: new Date(now.getTime() - backdateMs),
    notAfter: new Date(now.getTime() + servingLifetimeMs),
    extensions: [
      { name: "subjectKeyIdentifier" },
      {
        name: "subjectAltName",
        altNames: [
          ...sans.dns.map((value) => ({ type: 2, value })),
          ...sans.ips.map((ip) => ({ type: 7, ip })),
        ],
      },
    ],
  });
}

/** What a leaf certificate signed by the cluster CA says besides its key and issuer. */
export interface LeafCertificate {
  readonly subject: forge.pki.CertificateField[];
  /** The extended key usage: `{ serverAuth: true }` or `{ clientAuth: true }`. */
  readonly usage: { readonly serverAuth?: true; readonly clientAuth?: true };
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Extensions beyond the basic constraints, key usages and authority key id every leaf has. */
  readonly extensions?: readonly object[];
}

/** Signs a certificate over a new RSA 2048 key with the CA in `ca`: never a CA itself. */
export async function signLeafCertificate(ca: KeyPair, leaf: LeafCertificate): Promise<KeyPair> {
  const key = await newRsaKey();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = leaf.notBefore;
  cert.validity.notAfter = leaf.notAfter;
  cert.setSubject(leaf.subject);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", critical: true, digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", ...leaf.usage },
    {
      name: "authorityKeyIdentifier",
      keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes(),
    },
    ...(leaf.extensions ?? []),
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.keyPem), forge.md.sha256.create());
  return { certPem: pemOf(cert), keyPem: key.privatePem };
}

/** forge writes PEM with CRLF line ends; files and kubeconfigs read better with LF. */
export function pemOf(cert: forge.pki.Certificate): string {
  return forge.pki.certificateToPem(cert).replace(/\r\n/g, "\n");
}

/** Writes a key or token readable by the owner alone, replacing the file in one step. */
export function writeSecret(path: string, text: string): void {
  writeAtomically(path, text, 0o600);
}

/** Writes a certificate readable by everyone, replacing the file in one step. */
export function writePublic(path: string, text: string): void {
  writeAtomically(path, text, 0o644);
}

function writeAtomically(path: string, text: string, mode: number): void {
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}

/** The canonical text of an IP address: IPv4 as is, IPv6 compressed and lower case. */
function canonicalIp(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return new URL(`http://[${ip}]/`).hostname.replace(/^\[(.*)\]$/, "$1");
}
