/**
 * Client certificates signed by the cluster CA in `DATA_DIR/pki/`: the admin's and the
 * components' that `gantry up --tls` keeps (as kubeadm's admin.conf, scheduler.conf and
 * controller-manager.conf), and the ones `gantry certs issue` hands out. The API server's x509
 * authenticator reads the subject: CN is the user name, each O a group.
 */
import { X509Certificate } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import forge from "node-forge";
import { controllerManagerUser, queueingUser, schedulerUser } from "../api/index.ts";
import { parseCertificateBundle } from "../apiserver/index.ts";
import { errorMessage } from "../util/index.ts";
import { renderKubeconfig } from "./kubeconfig.ts";
import {
  backdateMs,
  type KeyPair,
  lifetimeDefect,
  parse,
  pkiFiles,
  readPair,
  signLeafCertificate,
  writePublic,
  writeSecret,
} from "./tls.ts";

/** Who a client certificate names. */
export interface ClientSubject {
  /** The CN: the user name. */
  readonly user: string;
  /** The O values: the groups. */
  readonly groups: readonly string[];
}

const day = 24 * 60 * 60 * 1000;
/**
 * ASN.1 UTF8String for subject values (forge's typings call the tag a class), so any user or
 * group name encodes as it is; forge's default, PrintableString, cannot hold `_` or `@`.
 */
const utf8String = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
/** Client certificates live a year, as kubeadm's. */
export const clientCertificateDays = 365;

/** A credential `gantry up --tls` keeps: `pki/<name>.crt`/`.key` and the kubeconfig using them. */
export interface ControlPlaneCredential {
  readonly name: string;
  readonly subject: ClientSubject;
  /** The kubeconfig file in the data dir. */
  readonly kubeconfig: string;
}

/** The admin and the separately run components, each with its own identity (kubeadm's set). */
export const controlPlaneCredentials: readonly ControlPlaneCredential[] = [
  {
    name: "admin",
    subject: { user: "kubernetes-admin", groups: ["system:masters"] },
    kubeconfig: "kubeconfig",
  },
  {
    name: "scheduler",
    subject: { user: schedulerUser, groups: [] },
    kubeconfig: "scheduler.kubeconfig",
  },
  {
    name: "controller-manager",
    subject: { user: controllerManagerUser, groups: [] },
    kubeconfig: "controller-manager.kubeconfig",
  },
  {
    name: "queueing",
    subject: { user: queueingUser, groups: [] },
    kubeconfig: "queueing.kubeconfig",
  },
];

/**
 * Signs a client certificate for `subject` over a new RSA 2048 key: CN and O as given, the
 * clientAuth extended key usage, valid from a few minutes before `now` for `days` days.
 */
export async function issueClientCertificate(
  ca: KeyPair,
  subject: ClientSubject,
  options: { readonly now: Date; readonly days: number },
): Promise<KeyPair> {
  return signLeafCertificate(ca, {
    subject: [
      ...subject.groups.map((value) => ({
        name: "organizationName",
        value,
        valueTagClass: utf8String,
      })),
      { name: "commonName", value: subject.user, valueTagClass: utf8String },
    ],
    usage: { clientAuth: true },
    notBefore: new Date(options.now.getTime() - backdateMs),
    notAfter: new Date(options.now.getTime() + options.days * day),
  });
}

/** The subject a client certificate names (the last CN, every O in order). */
export function subjectOf(certPem: string): ClientSubject {
  const subject = new X509Certificate(certPem).toLegacyObject().subject as Record<
    string,
    string | string[] | undefined
  >;
  const list = (value: string | string[] | undefined): string[] =>
    value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  return { user: list(subject["CN"]).at(-1) ?? "", groups: list(subject["O"]) };
}

/**
 * The cluster CA from `dir` (`ca.crt` and `ca.key`), or undefined when there is none yet.
 * Throws when the files are there but unusable.
 */
export function readCa(dir: string): KeyPair | undefined {
  const ca = readPair(join(dir, pkiFiles.caCert), join(dir, pkiFiles.caKey));
  if (ca === undefined) return undefined;
  const parsed = parse(ca);
  if (typeof parsed === "string") throw new Error(`Cannot use the CA in ${dir}: it is ${parsed}`);
  return ca;
}

export interface ClientCertificatesOptions {
  /** The pki folder: it holds the CA, and receives `<name>.crt` and `<name>.key`. */
  readonly dir: string;
  readonly credentials: readonly ControlPlaneCredential[];
  readonly now: Date;
  /** Receives one line per certificate issued. */
  readonly progress: (line: string) => void;
}

/**
 * Loads each credential's certificate from `options.dir`, issuing what is missing or unusable
 * (in parallel: key generation is the slow part). A stored certificate is replaced when it does
 * not match its key, was not signed by the current CA (the CA was replaced), names another
 * subject, or ends within 30 days, so it is renewed whenever the serving certificate would be.
 */
export async function ensureClientCertificates(
  options: ClientCertificatesOptions,
): Promise<Map<string, KeyPair>> {
  const ca = readCa(options.dir);
  if (ca === undefined)
    throw new Error(`Cannot issue client certificates: no CA in ${options.dir}`);
  const caCert = new X509Certificate(ca.certPem);
  const pairs = await Promise.all(
    options.credentials.map(async (credential): Promise<[string, KeyPair]> => {
      const certPath = join(options.dir, `${credential.name}.crt`);
      const keyPath = join(options.dir, `${credential.name}.key`);
      const stored = readPair(certPath, keyPath);
      const problem =
        stored === undefined
          ? "missing"
          : clientDefect(stored, caCert, credential.subject, options.now);
      if (stored !== undefined && problem === undefined) return [credential.name, stored];
      options.progress(
        `Generating the client certificate of ${describe(credential.subject)} (RSA 2048, valid 1 year) in ${certPath}${problem === "missing" ? "" : ` (replacing the existing one: it is ${problem})`}`,
      );
      const issued = await issueClientCertificate(ca, credential.subject, {
        now: options.now,
        days: clientCertificateDays,
      });
      writeSecret(keyPath, issued.keyPem);
      writePublic(certPath, issued.certPem);
      return [credential.name, issued];
    }),
  );
  return new Map(pairs);
}

/** `user "U" in groups "G1", "G2"`, for progress lines. */
export function describe(subject: ClientSubject): string {
  const groups = subject.groups.map((g) => JSON.stringify(g)).join(", ");
  return `user ${JSON.stringify(subject.user)}${groups === "" ? "" : ` in ${subject.groups.length === 1 ? "group" : "groups"} ${groups}`}`;
}

/** Why a stored client certificate cannot be used, or undefined if it can. */
function clientDefect(
  pair: KeyPair,
  caCert: X509Certificate,
  want: ClientSubject,
  now: Date,
): string | undefined {
  const parsed = parse(pair);
  if (typeof parsed === "string") return parsed;
  if (!parsed.cert.checkIssued(caCert) || !parsed.cert.verify(caCert.publicKey)) {
    return "not signed by the current CA";
  }
  const have = subjectOf(pair.certPem);
  if (have.user !== want.user || have.groups.join("\n") !== want.groups.join("\n")) {
    return `for ${describe(have)}`;
  }
  return lifetimeDefect(parsed.cert, now);
}

/**
 * Writes each credential's kubeconfig into `dataDir` (mode 0600): the server, the CA and the
 * credential's certificate and key, as kubeadm writes admin.conf and the components' files.
 * Returns the paths by credential name.
 */
export function writeCredentialKubeconfigs(options: {
  readonly dataDir: string;
  readonly server: string;
  readonly caPem: string;
  readonly credentials: readonly ControlPlaneCredential[];
  readonly certificates: ReadonlyMap<string, KeyPair>;
}): Map<string, string> {
  const paths = new Map<string, string>();
  for (const credential of options.credentials) {
    const pair = options.certificates.get(credential.name);
    if (pair === undefined) continue;
    const path = join(options.dataDir, credential.kubeconfig);
    writeFileSync(
      path,
      renderKubeconfig({
        server: options.server,
        caData: base64(options.caPem),
        clientCertificateData: base64(pair.certPem),
        clientKeyData: base64(pair.keyPem),
        user: credential.subject.user,
      }),
      { mode: 0o600 },
    );
    chmodSync(path, 0o600);
    paths.set(credential.name, path);
  }
  return paths;
}

function base64(text: string): string {
  return Buffer.from(text).toString("base64");
}

/**
 * The PEM certificates of a CA bundle file (`--client-ca-file`); an Error that names the file
 * when it cannot be read or holds no readable certificate.
 */
export function readCertificateBundle(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      code === "ENOENT"
        ? `Cannot use --client-ca-file ${path}: no such file`
        : `Cannot read --client-ca-file ${path}: ${errorMessage(error)}`,
    );
  }
  try {
    return parseCertificateBundle(text, path).map((cert) => cert.toString());
  } catch (error: unknown) {
    if (error instanceof SyntaxError) throw new Error(error.message);
    throw error;
  }
}
