/**
 * The client each component talks to the API server with, as if it were its own process:
 * upstream's user agent (`gantry/<component>`) and field manager (`kube-scheduler`, …), from
 * the connection `gantry up` hands its components or from a kubeconfig file.
 */
import { decodeCertificateAuthority, type HttpClient, newClient } from "../client/index.ts";
import { readKubeconfigFile } from "./kubeconfig-client.ts";

/** Where the components find the API server: what a kubeconfig would tell them. */
export interface Connection {
  readonly server: string;
  readonly token?: string;
  /** PEM CA of an https server. */
  readonly ca?: string;
  /** PEM client certificate and key that identify the component to an https server. */
  readonly cert?: string;
  readonly key?: string;
  /** Accept any https certificate (a kubeconfig's `insecure-skip-tls-verify`). @default false */
  readonly insecureSkipTlsVerify?: boolean;
  /** The API server's Unix socket for `gantry up`'s own components (plain HTTP). @default none */
  readonly socketPath?: string;
}

/** A client for component `name` (`kube-scheduler`, `kubelet`, …) over `connection`. */
export function newComponentClient(connection: Connection, name: string): HttpClient {
  return newClient({
    server: connection.server,
    userAgent: `gantry/${name}`,
    fieldManager: name,
    ...(connection.token === undefined ? {} : { token: connection.token }),
    ...(connection.ca === undefined ? {} : { ca: connection.ca }),
    ...(connection.cert === undefined || connection.key === undefined
      ? {}
      : { cert: connection.cert, key: connection.key }),
    ...(connection.insecureSkipTlsVerify === true ? { insecureSkipTlsVerify: true } : {}),
    ...(connection.socketPath === undefined ? {} : { socketPath: connection.socketPath }),
  });
}

/** The connection a kubeconfig file describes (its current context). */
export function connectionFromKubeconfig(path: string): Connection {
  const config = readKubeconfigFile(path);
  return {
    server: config.server,
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
  };
}
