/**
 * How the client commands (`gantry node`, `gantry drain-plan`, `gantry cpus show`) reach a running
 * cluster: the kubeconfig `gantry up` wrote, read with an error that says what to do, and a
 * Client over its server and credentials.
 */
import { readFileSync } from "node:fs";
import {
  decodeCertificateAuthority,
  type HttpClient,
  type KubeconfigCluster,
  loadKubeconfig,
  newClient,
} from "../client/index.ts";
import { errorMessage } from "../util/index.ts";

/** Reads the kubeconfig at `path`; a missing file says to start the cluster first. */
export function readKubeconfigFile(path: string): KubeconfigCluster {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      code === "ENOENT"
        ? `Cannot find the kubeconfig ${path}: start the cluster with \`gantry up\` first (or point --data-dir or --kubeconfig at it)`
        : `Cannot read the kubeconfig ${path}: ${errorMessage(error)}`,
    );
  }
  return loadKubeconfig(text);
}

/** A Client for command `component` (user agent `gantry/<component>`) from the kubeconfig. */
export function clientForKubeconfig(path: string, component: string): HttpClient {
  const config = readKubeconfigFile(path);
  return newClient({
    server: config.server,
    userAgent: `gantry/${component}`,
    fieldManager: `gantry-${component}`,
    ...(config.token === undefined ? {} : { token: config.token }),
    ...(config.certificateAuthorityData === undefined
      ? {}
      : { ca: decodeCertificateAuthority(config.certificateAuthorityData) }),
    ...(config.clientCertificateData === undefined || config.clientKeyData === undefined
      ? {}
      : {
          cert: decodeCertificateAuthority(config.clientCertificateData),
          key: decodeCertificateAuthority(config.clientKeyData),
        }),
    ...(config.insecureSkipTlsVerify === true ? { insecureSkipTlsVerify: true } : {}),
    requestTimeoutMs: 10_000,
  });
}
