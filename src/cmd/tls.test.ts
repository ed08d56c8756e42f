import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import {
  advertisedHost,
  certificateSans,
  ensurePki,
  isLoopbackAddress,
  isUnspecifiedAddress,
  type Pki,
  pkiFiles,
  servingSans,
} from "./tls.ts";

const day = 24 * 60 * 60 * 1000;
const start = new Date("2026-01-01T00:00:00Z");
const later = (days: number): Date => new Date(start.getTime() + days * day);

const loopbackCases = [
  { address: "127.0.0.1", want: true },
  { address: "127.3.4.5", want: true },
  { address: "::1", want: true },
  { address: "[::1]", want: true },
  { address: "0:0:0:0:0:0:0:1", want: true },
  { address: "::ffff:127.0.0.1", want: true },
  { address: "localhost", want: true },
  { address: "LocalHost", want: true },
  { address: "0.0.0.0", want: false },
  { address: "::", want: false },
  { address: "10.0.0.1", want: false },
  { address: "128.0.0.1", want: false },
  { address: "example.com", want: false },
  { address: "localhost.example.com", want: false },
] as const;

for (const c of loopbackCases) {
  test(`isLoopbackAddress: ${c.address} is ${c.want ? "" : "not "}loopback`, () => {
    assert.equal(isLoopbackAddress(c.address), c.want);
  });
}

const unspecifiedCases = [
  { address: "0.0.0.0", want: true },
  { address: "::", want: true },
  { address: "[0:0::0]", want: true },
  { address: "127.0.0.1", want: false },
  { address: "::1", want: false },
] as const;

for (const c of unspecifiedCases) {
  test(`isUnspecifiedAddress: ${c.address} is ${c.want ? "" : "not "}a wildcard`, () => {
    assert.equal(isUnspecifiedAddress(c.address), c.want);
  });
}

const advertisedCases = [
  { name: "a loopback bind names itself", address: "127.0.0.1", sans: [], want: "127.0.0.1" },
  { name: "a bracketed IPv6 bind loses its brackets", address: "[::1]", sans: [], want: "::1" },
  {
    name: "a specific bind wins over --tls-san",
    address: "10.0.0.5",
    sans: ["gantry.example.com"],
    want: "10.0.0.5",
  },
  {
    name: "a wildcard bind names the first --tls-san",
    address: "0.0.0.0",
    sans: ["gantry.example.com", "10.0.0.5"],
    want: "gantry.example.com",
  },
  {
    name: "a wildcard bind without --tls-san names 127.0.0.1",
    address: "::",
    sans: [],
    want: "127.0.0.1",
  },
] as const;

for (const c of advertisedCases) {
  test(`advertisedHost: ${c.name}`, () => {
    assert.equal(advertisedHost(c.address, c.sans), c.want);
  });
}

const sansCases = [
  {
    name: "loopback names alone when no host is given",
    hosts: [],
    want: { dns: ["localhost"], ips: ["127.0.0.1", "::1"] },
  },
  {
    name: "adds the bind address and extra names, sorted and without duplicates",
    hosts: ["10.0.0.5", "Gantry.Example.com", "10.0.0.5", "localhost", "[::1]"],
    want: { dns: ["gantry.example.com", "localhost"], ips: ["10.0.0.5", "127.0.0.1", "::1"] },
  },
  {
    name: "leaves out wildcard bind addresses, which no client dials",
    hosts: ["0.0.0.0", "::"],
    want: { dns: ["localhost"], ips: ["127.0.0.1", "::1"] },
  },
  {
    name: "writes IPv6 addresses in compressed form",
    hosts: ["FD00:0:0:0:0:0:0:0A"],
    want: { dns: ["localhost"], ips: ["127.0.0.1", "::1", "fd00::a"] },
  },
] as const;

for (const c of sansCases) {
  test(`servingSans: ${c.name}`, () => {
    assert.deepEqual(servingSans(c.hosts), c.want);
  });
}

/** A PKI generated once at `start` for the hosts below; each case works on a copy. */
const templateHosts = ["10.0.0.5", "gantry.example.com"];
let template: string;
let templatePki: Pki;
let templateLines: string[];
const scratch: string[] = [];

before(async () => {
  template = mkdtempSync(join(tmpdir(), "gantry-pki-"));
  templateLines = [];
  templatePki = await ensurePki({
    dir: join(template, "pki"),
    hosts: templateHosts,
    now: start,
    progress: (line) => templateLines.push(line),
  });
});

after(() => {
  for (const dir of [template, ...scratch]) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the template PKI folder, removed after the tests. */
function copyOfTemplate(): string {
  const dir = mkdtempSync(join(tmpdir(), "gantry-pki-"));
  scratch.push(dir);
  cpSync(join(template, "pki"), join(dir, "pki"), { recursive: true });
  return join(dir, "pki");
}

async function run(dir: string, hosts: readonly string[], now: Date) {
  const lines: string[] = [];
  const pki = await ensurePki({ dir, hosts, now, progress: (line) => lines.push(line) });
  return { pki, lines };
}

test("ensurePki: a first run writes the CA, serving certificate, key and token, keys private", () => {
  const dir = join(template, "pki");
  const modes = Object.fromEntries(
    Object.values(pkiFiles).map((name) => [name, statSync(join(dir, name)).mode & 0o777]),
  );
  assert.deepEqual(modes, {
    [pkiFiles.caCert]: 0o644,
    [pkiFiles.caKey]: 0o600,
    [pkiFiles.servingCert]: 0o644,
    [pkiFiles.servingKey]: 0o600,
    [pkiFiles.adminToken]: 0o600,
  });
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(templateLines.length, 3, templateLines.join("\n"));
  assert.equal(readFileSync(join(dir, pkiFiles.adminToken), "utf8").trim(), templatePki.adminToken);
  assert.match(templatePki.adminToken, /^[A-Za-z0-9_-]{43}$/);
});

test("ensurePki: the CA is a 10-year CA named gantry-ca that signs the serving certificate", () => {
  const ca = new X509Certificate(templatePki.caCertPem);
  const serving = new X509Certificate(templatePki.servingCertPem);
  assert.equal(ca.subject, "CN=gantry-ca");
  assert.equal(ca.ca, true);
  assert.equal(serving.ca, false);
  assert.equal(serving.issuer, "CN=gantry-ca");
  assert.ok(
    serving.checkIssued(ca) && serving.verify(ca.publicKey),
    "serving.checkIssued(ca) && serving.verify(ca.publicKey)",
  );
  const years = (cert: X509Certificate): number =>
    Math.round((Date.parse(cert.validTo) - start.getTime()) / (365 * day));
  assert.deepEqual({ ca: years(ca), serving: years(serving) }, { ca: 10, serving: 1 });
  assert.equal(serving.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
});

test("ensurePki: the serving certificate names loopback, the bind address and --tls-san", () => {
  assert.deepEqual(certificateSans(templatePki.servingCertPem), servingSans(templateHosts));
  const serving = new X509Certificate(templatePki.servingCertPem);
  assert.equal(serving.checkIP("10.0.0.5"), "10.0.0.5");
  assert.equal(serving.checkHost("gantry.example.com"), "gantry.example.com");
  assert.equal(serving.checkIP("::1"), "::1");
});

test("ensurePki: a restart with the same names reuses every file and prints nothing", async () => {
  const dir = copyOfTemplate();
  const { pki, lines } = await run(dir, templateHosts, later(200));
  assert.deepEqual(pki, templatePki);
  assert.deepEqual(lines, []);
});

test("ensurePki: other names re-issue the serving certificate under the same CA and token", async () => {
  const dir = copyOfTemplate();
  const { pki, lines } = await run(dir, ["10.0.0.6"], later(1));
  assert.equal(pki.caCertPem, templatePki.caCertPem);
  assert.equal(pki.adminToken, templatePki.adminToken);
  assert.notEqual(pki.servingCertPem, templatePki.servingCertPem);
  assert.deepEqual(certificateSans(pki.servingCertPem), servingSans(["10.0.0.6"]));
  assert.equal(lines.length, 1);
  assert.match(lines[0] ?? "", /serving certificate .*for other names/);
  assert.equal(readFileSync(join(dir, pkiFiles.servingCert), "utf8"), pki.servingCertPem);
});

test("ensurePki: a serving certificate ending within 30 days is re-issued", async () => {
  const dir = copyOfTemplate();
  const { pki, lines } = await run(dir, templateHosts, later(340));
  assert.equal(pki.caCertPem, templatePki.caCertPem);
  assert.notEqual(pki.servingCertPem, templatePki.servingCertPem);
  assert.match(lines.join("\n"), /serving certificate .*expiring/);
  const serving = new X509Certificate(pki.servingCertPem);
  assert.ok(
    Date.parse(serving.validTo) > later(340 + 364).getTime(),
    "Date.parse(serving.validTo) > later(340 + 364).getTime()",
  );
});

test("ensurePki: a CA ending within 30 days is replaced, and the serving certificate with it", async () => {
  const dir = copyOfTemplate();
  const { pki, lines } = await run(dir, templateHosts, later(3640));
  assert.notEqual(pki.caCertPem, templatePki.caCertPem);
  assert.equal(pki.adminToken, templatePki.adminToken);
  const ca = new X509Certificate(pki.caCertPem);
  const serving = new X509Certificate(pki.servingCertPem);
  assert.ok(serving.verify(ca.publicKey), "serving.verify(ca.publicKey)");
  assert.equal(lines.length, 2, lines.join("\n"));
  assert.match(lines[1] ?? "", /signed by the previous CA/);
});

test("ensurePki: a serving key that does not match its certificate is replaced", async () => {
  const dir = copyOfTemplate();
  writeFileSync(join(dir, pkiFiles.servingKey), readFileSync(join(dir, pkiFiles.caKey)));
  const { pki, lines } = await run(dir, templateHosts, later(1));
  const serving = new X509Certificate(pki.servingCertPem);
  assert.equal(pki.caCertPem, templatePki.caCertPem);
  assert.match(lines.join("\n"), /not matching its key/);
  assert.ok(
    serving.verify(new X509Certificate(pki.caCertPem).publicKey),
    "serving.verify(new X509Certificate(pki.caCertPem).publicKey)",
  );
});

test("ensurePki: an empty token file gets a new token; the certificates stay", async () => {
  const dir = copyOfTemplate();
  writeFileSync(join(dir, pkiFiles.adminToken), "\n");
  const { pki, lines } = await run(dir, templateHosts, later(1));
  assert.notEqual(pki.adminToken, templatePki.adminToken);
  assert.equal(pki.servingCertPem, templatePki.servingCertPem);
  assert.equal(lines.length, 1);
  assert.equal(readFileSync(join(dir, pkiFiles.adminToken), "utf8").trim(), pki.adminToken);
});
