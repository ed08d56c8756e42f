/**
 * kube-apiserver's etcd flags (`--etcd-endpoints`, `--etcd-prefix`, `--etcd-cafile`,
 * `--etcd-certfile`, `--etcd-keyfile`), shared by `gantry up` and `gantry apiserver`, and their
 * checks. The TLS files are read here, at start, so a mistake is a usage error naming the flag.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { errorMessage } from "../util/index.ts";
import type { EtcdSettings } from "./storage.ts";
import { UsageError } from "./usage-error.ts";

/** The flags for node's `parseArgs`. */
export const etcdFlags = {
  "etcd-endpoints": { type: "string" },
  "etcd-prefix": { type: "string" },
  "etcd-cafile": { type: "string" },
  "etcd-certfile": { type: "string" },
  "etcd-keyfile": { type: "string" },
} as const;

export const etcdFlagsUsage = `  --etcd-endpoints URL[,URL...]
                       The etcd members' client URLs, for --storage etcd
                       (http://127.0.0.1:2379, or https:// for TLS)
  --etcd-prefix P      The prefix of every key in etcd (default /registry)
  --etcd-cafile FILE   PEM CA bundle trusted for the members' serving certificates, for
                       https:// endpoints (default: Node's trusted roots)
  --etcd-certfile FILE PEM client certificate shown to etcd (its --client-cert-auth), for
                       https:// endpoints; with --etcd-keyfile
  --etcd-keyfile FILE  The client certificate's PEM private key; with --etcd-certfile
`;

type TlsFlag = "etcd-cafile" | "etcd-certfile" | "etcd-keyfile";

type Values = { readonly [K in keyof typeof etcdFlags]?: string | undefined };

/**
 * Where etcd is and how to reach it, for `--storage etcd`; undefined for another store. A
 * UsageError names the first wrong flag: missing endpoints, etcd flags without etcd storage,
 * TLS files with an http endpoint, a certificate without its key, a file that cannot be read or
 * holds no certificate, a key that is not the certificate's.
 */
export function etcdSettings(storage: string, values: Values): EtcdSettings | undefined {
  const endpoints = (values["etcd-endpoints"] ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url !== "");
  const tlsFlags = (["etcd-cafile", "etcd-certfile", "etcd-keyfile"] as const).filter(
    (flag) => values[flag] !== undefined,
  );
  if (storage !== "etcd") {
    if (endpoints.length > 0 || values["etcd-prefix"] !== undefined) {
      throw new UsageError("Cannot use --etcd-endpoints or --etcd-prefix without --storage etcd");
    }
    const [flag] = tlsFlags;
    if (flag !== undefined) {
      throw new UsageError(
        `Cannot use --${flag} without --storage etcd: it secures the connection to etcd`,
      );
    }
    return undefined;
  }
  if (endpoints.length === 0) {
    throw new UsageError(
      "Cannot use --storage etcd without --etcd-endpoints: give the members' client URLs, such as http://127.0.0.1:2379",
    );
  }
  const prefix = values["etcd-prefix"];
  const tls = tlsFlags.length === 0 ? undefined : readTls(values, tlsFlags, endpoints);
  return {
    endpoints,
    ...(prefix === undefined ? {} : { prefix }),
    ...(tls === undefined ? {} : { tls }),
  };
}

/** The TLS files, read and checked against each other. */
function readTls(
  values: Values,
  given: readonly TlsFlag[],
  endpoints: readonly string[],
): NonNullable<EtcdSettings["tls"]> {
  const plain = endpoints.find((url) => !url.toLowerCase().startsWith("https://"));
  if (plain !== undefined) {
    throw new UsageError(
      `Cannot use --${given[0]} with the etcd endpoint "${plain}": TLS needs https:// endpoints`,
    );
  }
  const certPath = values["etcd-certfile"];
  const keyPath = values["etcd-keyfile"];
  if (certPath !== undefined && keyPath === undefined) {
    throw new UsageError("Cannot use --etcd-certfile without --etcd-keyfile: give its private key");
  }
  if (keyPath !== undefined && certPath === undefined) {
    throw new UsageError(
      "Cannot use --etcd-keyfile without --etcd-certfile: give the certificate it belongs to",
    );
  }
  const caPath = values["etcd-cafile"];
  const caPem = caPath === undefined ? undefined : readFlagFile("etcd-cafile", caPath);
  if (caPath !== undefined && caPem !== undefined) firstCertificate("etcd-cafile", caPath, caPem);
  if (certPath === undefined || keyPath === undefined) {
    return caPem === undefined ? {} : { caPem };
  }
  const certPem = readFlagFile("etcd-certfile", certPath);
  const keyPem = readFlagFile("etcd-keyfile", keyPath);
  const cert = firstCertificate("etcd-certfile", certPath, certPem);
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch (error: unknown) {
    throw new UsageError(`Cannot use --etcd-keyfile "${keyPath}": ${errorMessage(error)}`);
  }
  if (!matches) {
    throw new UsageError(
      `Cannot use --etcd-keyfile "${keyPath}": it is not the key of --etcd-certfile "${certPath}"`,
    );
  }
  return { ...(caPem === undefined ? {} : { caPem }), certPem, keyPem };
}

function readFlagFile(flag: TlsFlag, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error: unknown) {
    throw new UsageError(`Cannot read --${flag} "${path}": ${errorMessage(error)}`);
  }
}

/** The first PEM certificate in `pem`; a UsageError when there is none that parses. */
function firstCertificate(flag: TlsFlag, path: string, pem: string): X509Certificate {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  for (const block of blocks) {
    try {
      return new X509Certificate(block);
    } catch (error: unknown) {
      throw new UsageError(`Cannot use --${flag} "${path}": ${errorMessage(error)}`);
    }
  }
  throw new UsageError(`Cannot use --${flag} "${path}": it holds no PEM certificate`);
}
