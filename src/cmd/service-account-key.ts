/**
 * The key service account tokens are signed with: kubeadm's `DATA_DIR/pki/sa.key` (an RSA 2048
 * key, PKCS#1) and `sa.pub` (its public half, PKIX), made on first start with or without
 * `--tls`, or the key `--service-account-signing-key-file` names.
 */
import { createPublicKey } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type SigningKey, signingKeyFromPem } from "../apiserver/index.ts";
import { newRsaKey, writePublic, writeSecret } from "./tls.ts";

/** The files kept under `DATA_DIR/pki/`. */
export const serviceAccountKeyFiles = { privateKey: "sa.key", publicKey: "sa.pub" } as const;

export interface ServiceAccountKeyOptions {
  /** The pki folder (created with mode 0700 if missing). */
  readonly dir: string;
  /** A private key file to sign with instead of `sa.key` (never written to). */
  readonly signingKeyFile?: string;
  /** Receives one human-readable line per step. */
  readonly progress: (line: string) => void;
}

/**
 * The signing key: `signingKeyFile` when given, else `sa.key` (generated when missing), with
 * `sa.pub` rewritten when missing or not its public half. Throws a TypeError naming the file
 * for a key that is unreadable or neither RSA nor ECDSA P-256/384/521.
 */
export async function ensureServiceAccountKey(
  options: ServiceAccountKeyOptions,
): Promise<SigningKey> {
  if (options.signingKeyFile !== undefined) return readKey(options.signingKeyFile);
  const { dir, progress } = options;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyPath = join(dir, serviceAccountKeyFiles.privateKey);
  const pubPath = join(dir, serviceAccountKeyFiles.publicKey);
  let key: SigningKey;
  if (existsSync(keyPath)) {
    key = readKey(keyPath);
  } else {
    progress(`Generating the service account signing key (RSA 2048) in ${keyPath}`);
    const pem = (await newRsaKey()).privatePem;
    writeSecret(keyPath, pem);
    key = readKey(keyPath);
  }
  const publicPem = key.publicKey.export({ format: "pem", type: "spki" }).toString();
  if (!existsSync(pubPath) || !samePublicKey(readFileSync(pubPath, "utf8"), publicPem)) {
    writePublic(pubPath, publicPem);
  }
  return key;
}

function readKey(path: string): SigningKey {
  try {
    return signingKeyFromPem(readFileSync(path, "utf8"));
  } catch (error: unknown) {
    if (error instanceof Error && !(error instanceof RangeError)) {
      throw new TypeError(
        `Cannot use ${path} as the service account signing key: ${error.message}`,
      );
    }
    throw error;
  }
}

function samePublicKey(stored: string, want: string): boolean {
  try {
    const der = (pem: string): Buffer =>
      createPublicKey(pem).export({ format: "der", type: "spki" });
    return der(stored).equals(der(want));
  } catch (error: unknown) {
    // An unreadable sa.pub is replaced.
    if (error instanceof Error) return false;
    throw error;
  }
}
